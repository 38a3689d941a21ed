/**
 * The opaque cursor of newest-first lists (courses, documents): the last row's creation time and
 * id, which the next page's keyset query starts after.
 */
import { AppError } from "./errors.ts";

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)))
    throw new AppError("VALIDATION_ERROR", "cursor is not a value returned by a previous page");
  return { createdAt, id };
}
