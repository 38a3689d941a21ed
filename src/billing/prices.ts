/**
 * The price table, in integer micro-dollars (1 USD = 1,000,000) so sums are exact; USD appears
 * only at the API edge (util.microsToUsd).
 */

export const PRICES_MICROS = {
  /** Extract: PDFs and images, per page. */
  extractPage: 2_000,
  /** Extract: DOCX, PPTX, HTML (and the other document files) per file, and web URLs per URL. */
  extractDocument: 1_000,
  /** Extract: video transcripts, per URL. */
  extractVideo: 500,
  /** Study notes, per first generation. */
  notes: 50_000,
} as const;

/** Ledger operation names; GET /v2/usage reports totals under these. */
export const OPERATIONS = {
  extractPages: "extract.pages",
  extractDocuments: "extract.documents",
  extractVideos: "extract.videos",
  notes: "notes",
  course: "course",
  query: "query",
} as const;

export interface Charge {
  operation: string;
  quantity: number;
  amountMicros: number;
}

const PAGE_PRICED_MIME = /^(application\/pdf|image\/)/;

/**
 * What one extracted source costs. Failed entries are not billed (null). PDFs and images are
 * billed per page; a web URL is billed per URL whatever it served (a PDF link included); other
 * files per file.
 */
export function extractionCharge(source: {
  sourceType: "file" | "web" | "youtube";
  mimeType: string | null;
  pages: number | null;
  ok: boolean;
}): Charge | null {
  if (!source.ok) return null;
  if (source.sourceType === "youtube")
    return { operation: OPERATIONS.extractVideos, quantity: 1, amountMicros: PRICES_MICROS.extractVideo };
  if (source.sourceType === "file" && source.mimeType && PAGE_PRICED_MIME.test(source.mimeType)) {
    const pages = Math.max(1, source.pages ?? 1);
    return { operation: OPERATIONS.extractPages, quantity: pages, amountMicros: pages * PRICES_MICROS.extractPage };
  }
  return { operation: OPERATIONS.extractDocuments, quantity: 1, amountMicros: PRICES_MICROS.extractDocument };
}
