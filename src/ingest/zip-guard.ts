/**
 * Zip-bomb check for DOCX/PPTX/ODT/ODP, before any parser inflates them. The central directory
 * is read (fflate, no inflation: the filter declines every entry) and the declared sizes summed.
 * Declared sizes can lie, so the office parser also caps the bytes it actually inflates
 * (`MAX_INFLATED_BYTES` is passed to it); this check turns the honest bombs, which are most of
 * them, into a clear error at once.
 */
import { unzipSync } from "fflate";
import { AppError } from "../errors.ts";

/** Text parts of a real 50 MB document inflate to far less than this. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 10_000;
/** Deflate tops out near 1:1000; XML compresses around 1:10-1:50. */
const MAX_RATIO = 200;
/** Small entries may have any ratio (a 1 MB run of spaces harms no one). */
const RATIO_FLOOR_BYTES = 10 * 1024 * 1024;

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export function assertSafeZip(data: Uint8Array, filename: string): void {
  let total = 0;
  let entries = 0;
  let worst: { name: string; size: number; ratio: number } | null = null;
  try {
    unzipSync(data, {
      filter(file) {
        entries++;
        total += file.originalSize;
        const ratio = file.originalSize / Math.max(file.size, 1);
        if (file.originalSize > RATIO_FLOOR_BYTES && ratio > MAX_RATIO && (!worst || ratio > worst.ratio)) {
          worst = { name: file.name, size: file.originalSize, ratio };
        }
        return false;
      },
    });
  } catch (err) {
    throw new AppError(422, "UNREADABLE_FILE", `"${filename}" is not a readable document archive (${(err as Error).message})`);
  }
  const bomb = worst as { name: string; size: number; ratio: number } | null;
  if (entries > MAX_ZIP_ENTRIES || total > MAX_INFLATED_BYTES || bomb) {
    const why = bomb
      ? `its part "${bomb.name}" inflates ${Math.round(bomb.ratio)}x to ${mb(bomb.size)}`
      : entries > MAX_ZIP_ENTRIES
        ? `it holds ${entries} parts (at most ${MAX_ZIP_ENTRIES})`
        : `it inflates to ${mb(total)} (at most ${mb(MAX_INFLATED_BYTES)})`;
    throw new AppError(422, "ARCHIVE_TOO_LARGE", `"${filename}" was refused as a likely zip bomb: ${why}`);
  }
}
