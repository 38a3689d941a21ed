import { afterAll, describe, expect, test } from "bun:test";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { pageBlocks } from "../../src/ingest/pdf-blocks.ts";
import { itemsToLines, type PdfTextItem } from "../../src/ingest/pdf-layout.ts";
import { fileLimits } from "../../src/ingest/run-extraction.ts";
import { sharedExtraction } from "../helpers/shared-extraction.ts";
import { corruptPdf, encryptedPdf, manyPagePdf, textPdf } from "./build-fixtures.ts";
import { corpus, failure, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

describe("PDF extraction", () => {
  test("a built PDF: one segment per page, headings from font size, title from metadata", async () => {
    const path = await tmp.write(
      "bio.pdf",
      await textPdf(
        [
          { heading: "Cell Biology", body: ["Cells are the basic unit of life.", "Every cell has a membrane."] },
          { heading: "Mitochondria", body: ["The powerhouse of the cell."] },
        ],
        "Biology Notes",
      ),
    );
    const r = await extractFile(path, "bio.pdf", cfg);
    expect(r.title).toBe("Biology Notes");
    expect(r.pages).toBe(2);
    expect(r.mimeType).toBe("application/pdf");
    expect(r.segments.map((s) => s.page)).toEqual([1, 2]);
    expect(r.segments[0]!.markdown).toBe(
      "# Cell Biology\n\nCells are the basic unit of life. Every cell has a membrane.",
    );
    expect(r.segments[1]!.markdown).toBe("# Mitochondria\n\nThe powerhouse of the cell.");
    expect(r.markdown).toBe(`${r.segments[0]!.markdown}\n\n${r.segments[1]!.markdown}`);
  });

  test("a two-column paper keeps its title (not the rotated arXiv margin stamp) and reads in order", async () => {
    const r = await extractFile(corpus("pdf/dpr-paper-multi-column.pdf"), "dpr.pdf", cfg);
    expect(r.title).toBe("Dense Passage Retrieval for Open-Domain Question Answering");
    const md = r.markdown;
    expect(md.indexOf("Abstract")).toBeLessThan(md.indexOf("1 Introduction"));
    expect(md.indexOf("1 Introduction")).toBeLessThan(md.indexOf("Retrieval in open-domain QA is usually implemented"));
  });

  test("a password-protected PDF fails with a clear message", async () => {
    const path = await tmp.write("secret.pdf", await encryptedPdf());
    const err = await failure(extractFile(path, "secret.pdf", cfg));
    expect(err.code).toBe("UNREADABLE_FILE");
    expect(err.message).toBe('"secret.pdf" is password-protected; remove the password and upload it again');
  });

  test("a corrupt PDF fails with a clear message", async () => {
    const path = await tmp.write("broken.pdf", corruptPdf());
    const err = await failure(extractFile(path, "broken.pdf", cfg));
    expect(err.code).toBe("UNREADABLE_FILE");
    expect(err.message).toContain("is not a valid PDF");
  });

  test("a PDF longer than INGEST_MAX_PDF_PAGES is refused from its page count, naming the limit", async () => {
    // A 12-page PDF against a limit of 10 shows what a 2,000-page one against 1,000 does, for a
    // fraction of the CPU spent building it.
    const path = await tmp.write("huge.pdf", await manyPagePdf(12));
    // The page count is read before any page: the refusal names it, so no page was extracted.
    const err = await failure(extractFile(path, "huge.pdf", ingestConfig(tmp.dir, { ingestMaxPdfPages: 10 })));
    expect(err.code).toBe("TOO_MANY_PAGES");
    expect(err.message).toContain("12 pages");
    expect(err.message).toContain("at most 10 pages");
    expect(err.message).toContain("INGEST_MAX_PDF_PAGES");
  });

  test("a PDF running past INGEST_TIMEOUT_MS is stopped, and the next one still works", async () => {
    const slow = ingestConfig(tmp.dir, { ingestTimeoutMs: 50 });
    const err = await failure(extractFile(corpus("pdf/R-intro.pdf"), "R-intro.pdf", slow));
    expect(err.code).toBe("EXTRACTION_TIMEOUT");
    const path = await tmp.write("ok.pdf", await textPdf([{ heading: "Fine", body: ["Still working."] }]));
    expect((await extractFile(path, "ok.pdf", cfg)).markdown).toContain("Still working.");
  });
});

/** The R manual (113 pages), extracted once per run for every file that reads it. */
describe("the R manual", () => {
  const rManual = () => sharedExtraction(corpus("pdf/R-intro.pdf"), fileLimits(cfg));

  test("page count, page numbers, section headings from the outline, no running headers", async () => {
    const r = await rManual();
    expect(r.pages).toBe(113);
    expect(r.title).toBe("An Introduction to R");
    // In page order; a page's margin text (rotated plot labels) is a segment of its own role.
    expect(r.segments.every((s, i, all) => s.page !== null && (i === 0 || s.page! >= all[i - 1]!.page!))).toBe(true);
    expect(new Set(r.segments.map((s) => s.page)).size).toBeGreaterThan(100);
    // Levels from the outline's nesting: chapters 1, sections 2.
    expect(r.markdown).toContain("\n# 2 Simple manipulations; numbers and vectors\n");
    expect(r.markdown).toContain("\n## 2.1 Vectors and assignment\n");
    expect(r.markdown).toContain("R operates on named data structures.");
    // "Chapter 2: Simple manipulations; numbers and vectors 9" heads several pages: dropped as a running header.
    expect(r.markdown).not.toContain("Chapter 2: Simple manipulations; numbers and vectors 9");
    const page = r.segments.find((s) => s.markdown.includes("## 2.1 Vectors and assignment"))!;
    expect(page.page).toBe(14); // printed page 8, after six front-matter pages
  });

  test("hundreds of code blocks, whole and without cell separators; its tables of terms keep their terms", async () => {
    const r = await rManual();
    const code = r.blocks.filter((b) => b.kind === "code").map((b) => b.text);
    expect(code.length).toBeGreaterThan(250);
    const twosam = code.find((c) => c.startsWith("> twosam <- function(y1, y2) {"));
    expect(twosam?.split("\n")).toHaveLength(8);
    // Columns aligned by spaces in fixed-pitch output are not table cells.
    expect(twosam).toContain("yb1 <- mean(y1);   yb2 <- mean(y2)");
    expect(code.filter((c) => c.includes(" | "))).toEqual([]);
    // Its tables of terms (a formula at the margin in a fixed-pitch font, described beside or below it) read "term — description".
    const texts = r.blocks.map((b) => b.text);
    expect(texts).toContain(
      "log(y) ~ x1 + x2 — Multiple regression of the transformed variable, log(y), on x1 and x2 (with an implicit intercept term).",
    );
    expect(
      texts.some((t) => t.startsWith("y ~ 0 + x, y ~ -1 + x, y ~ x - 1 — Simple linear regression of y on x")),
    ).toBe(true);
  });
});

describe("PDF layout", () => {
  const item = (str: string, x: number, y: number, fontSize = 10, hasEOL = false): PdfTextItem => ({
    str,
    x,
    y,
    width: str.length * fontSize * 0.5,
    fontSize,
    fontName: "f1",
    hasEOL,
    upright: true,
  });

  test("runs on one baseline form a line, with a space where there is a gap", () => {
    const lines = itemsToLines([item("Hello", 10, 700), item("world", 50, 700, 10, true), item("Next", 10, 686)]);
    expect(lines.map((l) => l.text)).toEqual(["Hello world", "Next"]);
  });

  test("a word broken by a hyphen at a line end is joined with a soft hyphen, bullets become list items", () => {
    const lines = itemsToLines([
      item("A long exam-", 10, 700, 10, true),
      item("ple sentence.", 10, 688, 10, true),
      item("• first point", 10, 676, 10, true),
      item("• second point", 10, 664, 10, true),
    ]);
    expect(pageBlocks(lines, 1, 10).map((b) => [b.kind, b.text])).toEqual([
      ["paragraph", "A long exam\u00adple sentence."],
      ["list_item", "first point"],
      ["list_item", "second point"],
    ]);
  });

  test("a line marked as a heading is a heading block; furniture keeps its role", () => {
    const lines = itemsToLines([
      item("Overview", 10, 760, 20, true),
      item("Body text here.", 10, 730, 10, true),
      item("7", 300, 40, 10, true),
    ]);
    lines[0]!.heading = 1;
    lines[2]!.role = "page_number";
    expect(pageBlocks(lines, 3, 10).map((b) => [b.kind, b.text, b.role, b.page])).toEqual([
      ["heading", "Overview", "body", 3],
      ["paragraph", "Body text here.", "body", 3],
      ["paragraph", "7", "page_number", 3],
    ]);
  });

  test("a wide gap between runs of one line separates cells instead of gluing them", () => {
    const lines = itemsToLines([
      item("Name", 10, 700),
      item("Value", 120, 700, 10, true),
      item("alpha", 10, 688),
      item("42", 120, 688, 10, true),
    ]);
    expect(lines.map((l) => l.text)).toEqual(["Name | Value", "alpha | 42"]);
    expect(pageBlocks(lines, 1, 10)[0]!.text).toBe("Name | Value\nalpha | 42");
  });

  test("a superscript footnote marker stays on its line and labels a small-print footnote", () => {
    const lines = itemsToLines([
      item("Body text that runs the full width of the column here.", 10, 700, 10, true),
      item("1", 10, 103, 6),
      item("A note at the foot of the page.", 14, 100, 8, true),
    ]);
    const blocks = pageBlocks(lines, 1, 10);
    expect(blocks.map((b) => [b.kind, b.text, b.label])).toEqual([
      ["paragraph", "Body text that runs the full width of the column here.", undefined],
      ["footnote", "A note at the foot of the page.", "1"],
    ]);
  });
});
