/**
 * Zip-bomb check for DOCX/PPTX/ODT/ODP, before any parser inflates them. The central directory
 * is read (fflate, no inflation: the filter declines every entry) and the declared sizes summed.
 * The XML parts are what the parser reads, at ~60 bytes of memory per byte of XML, so their
 * total has a budget of its own (INGEST_MAX_XML_MB), however honestly they compress. Declared
 * sizes can lie, so the office parser also counts the bytes it actually inflates against the same
 * budget; this check turns the honest cases, which are most of them, into a clear error at once.
 */
import { AppError } from "../errors.ts";

/** Everything in the archive, images included: a real 50 MB document inflates to far less. */
const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 10_000;
/** Deflate tops out near 1:1000; XML compresses around 1:10-1:50. */
const MAX_RATIO = 200;
/** Small entries may have any ratio (a 1 MB run of spaces harms no one). */
const RATIO_FLOOR_BYTES = 10 * 1024 * 1024;

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Parts the office parser reads: XML and relationships (images and fonts are never inflated). */
const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

export function assertSafeZip(data: Uint8Array, filename: string, maxXmlBytes: number): void {
  let total = 0;
  let xml = 0;
  let entries = 0;
  let worst: { name: string; size: number; ratio: number } | null = null;
  // Required on first use, not at server start; a literal name keeps it in the compiled executable.
  const { unzipSync } = require("fflate") as typeof import("fflate");
  try {
    unzipSync(data, {
      filter(file) {
        entries++;
        total += file.originalSize;
        if (isXmlPart(file.name)) xml += file.originalSize;
        const ratio = file.originalSize / Math.max(file.size, 1);
        if (file.originalSize > RATIO_FLOOR_BYTES && ratio > MAX_RATIO && (!worst || ratio > worst.ratio)) {
          worst = { name: file.name, size: file.originalSize, ratio };
        }
        return false;
      },
    });
  } catch (err) {
    throw new AppError(
      "UNREADABLE_FILE",
      `"${filename}" is not a readable document archive (${(err as Error).message})`,
    );
  }
  const bomb = worst as { name: string; size: number; ratio: number } | null;
  if (entries > MAX_ZIP_ENTRIES || total > MAX_INFLATED_BYTES || bomb) {
    const why = bomb
      ? `its part "${bomb.name}" inflates ${Math.round(bomb.ratio)}x to ${mb(bomb.size)}`
      : entries > MAX_ZIP_ENTRIES
        ? `it holds ${entries} parts (at most ${MAX_ZIP_ENTRIES})`
        : `it inflates to ${mb(total)} (at most ${mb(MAX_INFLATED_BYTES)})`;
    throw new AppError("ARCHIVE_TOO_LARGE", `"${filename}" was refused as a likely zip bomb: ${why}`);
  }
  if (xml > maxXmlBytes) {
    throw new AppError(
      "DOCUMENT_TOO_LARGE",
      `"${filename}" holds ${mb(xml)} of document XML; at most ${mb(maxXmlBytes)} is read per file (INGEST_MAX_XML_MB)`,
    );
  }
}
