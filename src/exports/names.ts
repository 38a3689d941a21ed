/**
 * Names of files inside export packages. Titles come from documents and learners, so they become
 * ASCII slugs; every entry name is checked once more before it is written, so no package can hold
 * an absolute path, a `..` segment or a control character.
 */
import { slugify } from "../util.ts";

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;

export function safeEntryName(name: string): string {
  const segments = name.split("/");
  if (segments.length === 0 || !segments.every((s) => SEGMENT.test(s) && !s.includes(".."))) {
    throw new Error(`unsafe archive entry name: ${JSON.stringify(name)}`);
  }
  return name;
}

/** `01-cell-structure`: ordered file names that sort as the chapters do. */
export const numbered = (index: number, title: string) =>
  `${String(index + 1).padStart(2, "0")}-${slugify(title).slice(0, 60).replace(/-+$/, "")}`;

/** Content-Disposition for a download named after the course. */
export const attachment = (filename: string) => `attachment; filename="${safeEntryName(filename)}"`;
