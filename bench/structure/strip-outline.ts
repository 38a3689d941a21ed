/**
 * Outline-less copies of DEV books (issue #28): three of the eight TEST books have no PDF outline
 * while most DEV books have one, so headings, front matter and chapter boundaries found from the
 * text alone were tuned on few books. Each copy is the book with its catalogue's /Outlines (and the
 * /PageMode that opens them) removed, every page and page label kept, written under
 * bench/.cache/structure/no-outline/ as NAME-no-outline.pdf; its truth is the original's
 * (documents.ts `truthOf`). A copy already written stays as it is (the cache may be shared).
 * Usage: bun bench/structure/strip-outline.ts   (after fetch-debian.sh)
 */
import { existsSync, mkdirSync } from "node:fs";
import { PDFDocument, PDFName } from "pdf-lib";
import { DERIVED_DIR, derivedDocuments } from "./documents.ts";

mkdirSync(DERIVED_DIR, { recursive: true });
for (const { doc, original } of derivedDocuments()) {
  if (existsSync(doc.path)) continue;
  const pdf = await PDFDocument.load(await Bun.file(original.path).arrayBuffer(), { updateMetadata: false });
  pdf.catalog.delete(PDFName.of("Outlines"));
  pdf.catalog.delete(PDFName.of("PageMode"));
  await Bun.write(doc.path, await pdf.save({ useObjectStreams: false }));
  console.log(`${doc.name}: ${pdf.getPageCount()} pages, from ${original.name}`);
}
