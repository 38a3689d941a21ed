/**
 * A full collection after the server handled a large extracted text. JSC left the copies of ten
 * 50 MB texts (received from the extraction process, bound for SQLite, serialised into a response)
 * uncollected long enough to take the server past 1 GB; one collection per such document (tens of
 * milliseconds) keeps it near one document's worth.
 */
const LARGE_TEXT_CHARS = 8 * 1024 * 1024;

export function collectAfterLargeText(chars: number): void {
  if (chars > LARGE_TEXT_CHARS) Bun.gc(true);
}
