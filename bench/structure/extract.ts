/**
 * A benchmark document to blocks in this process, the way the extraction process reads it, with
 * the PDF outline used or withheld.
 */
import { extractHtmlFile } from "../../src/ingest/html.ts";
import { extractOffice } from "../../src/ingest/office.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import type { ExtractResult } from "../../src/ingest/types.ts";
import type { BenchDocument } from "./documents.ts";

/** The server's defaults, except that a long book may exceed the page limit. */
export const LIMITS = {
  maxPdfPages: 100_000,
  maxOcrPages: 50,
  maxImagePixels: 40_000_000,
  maxXmlBytes: 64 * 1024 * 1024,
};

export function extractDocument(doc: BenchDocument, outline = true): Promise<ExtractResult> {
  switch (doc.kind) {
    case "pdf":
      return extractPdf(doc.path, doc.name, LIMITS, { outline });
    case "docx":
      return extractOffice(doc.path, doc.name, "docx", LIMITS);
    case "html":
      return extractHtmlFile(doc.path);
  }
}
