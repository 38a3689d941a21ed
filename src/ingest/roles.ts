/** Roles of blocks: body text, or front/back matter found by headings and by the shape of the text. */
import type { Block } from "./document.ts";

export function assignRoles(blocks: Block[]): Block[] {
  return blocks;
}
