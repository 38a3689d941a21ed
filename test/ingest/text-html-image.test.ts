import { afterAll, describe, expect, test } from "bun:test";
import type { AppError } from "../../src/errors.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { corpus, FIXTURES, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

describe("TXT and MD", () => {
  test("a Windows-1252 text file is decoded by its detected charset", async () => {
    const latin = new Uint8Array(Buffer.from("Le café était très crème, déjà vu à la française. ".repeat(8), "latin1"));
    const r = await extractFile(await tmp.write("cafe.txt", latin), "cafe.txt", cfg);
    expect(r.markdown).toContain("Le café était très crème, déjà vu à la française.");
    expect(r.mimeType).toBe("text/plain");
    expect(r.pages).toBe(1);
  });

  test("a UTF-16 text file is decoded", async () => {
    const data = new Uint8Array([0xff, 0xfe, ...Buffer.from("Grüße aus Köln", "utf16le")]);
    const r = await extractFile(await tmp.write("u16.txt", data), "u16.txt", cfg);
    expect(r.markdown).toBe("Grüße aus Köln");
  });

  test("plain text is kept as written (no markdown escaping)", async () => {
    const r = await extractFile(
      await tmp.write("list.txt", "# not a heading?\n- item one\n- item two\n"),
      "list.txt",
      cfg,
    );
    expect(r.markdown).toBe("# not a heading?\n- item one\n- item two");
  });

  test("markdown is normalised: CRLF, BOM, trailing spaces and runs of blank lines; title and sections from headings", async () => {
    const md = "\uFEFF# Guide  \r\n\r\nIntro text.   \r\n\r\n\r\n\r\n## Part A\r\nAlpha.\r\n\r\n## Part B\r\nBeta.\r\n";
    const r = await extractFile(await tmp.write("guide.md", md), "guide.md", cfg);
    expect(r.markdown).toBe("# Guide\n\nIntro text.\n\n## Part A\n\nAlpha.\n\n## Part B\n\nBeta.");
    expect(r.title).toBe("Guide");
    expect(r.segments.map((s) => s.heading)).toEqual(["Guide", "Part A", "Part B"]);
  });

  test("a text file with nothing in it but blanks fails as NO_TEXT_FOUND", async () => {
    try {
      await extractFile(await tmp.write("blank.txt", "   \n\n  \n"), "blank.txt", cfg);
      throw new Error("expected a failure");
    } catch (err) {
      expect((err as AppError).code).toBe("NO_TEXT_FOUND");
    }
  });
});

describe("HTML", () => {
  for (const page of ["readability-v8-blog", "readability-wikipedia", "readability-ietf-1"]) {
    test(`${page}: Readability's title, main content only`, async () => {
      const expected = (await Bun.file(corpus(`html/${page}/expected-metadata.json`)).json()) as { title: string };
      const r = await extractFile(corpus(`html/${page}/source.html`), `${page}.html`, cfg);
      expect(r.title).toBe(expected.title);
      expect(r.mimeType).toBe("text/html");
      expect(r.markdown).not.toContain("<script");
      expect(r.markdown.length).toBeGreaterThan(5000);
    });
  }

  test("code blocks keep their line breaks and language, headings lose their permalinks", async () => {
    const r = await extractFile(corpus("html/readability-v8-blog/source.html"), "v8.html", cfg);
    expect(r.markdown).toContain("```c\n// add.c\n#include <emscripten.h>\n");
    expect(r.blocks.filter((b) => b.kind === "code").map((b) => b.lang)).toContain("bash");
    expect(r.markdown).toContain("## Using standalone mode in Emscripten\n");
    expect(r.markdown).not.toContain("[#](#");
  });

  test("tables become markdown tables, not raw HTML", async () => {
    const r = await extractFile(corpus("html/readability-wikipedia/source.html"), "mozilla.html", cfg);
    expect(r.markdown).not.toContain("<table");
    expect(r.markdown).toContain("| Founded | February 28, 1998; 18 years ago |");
    expect(r.segments.some((s) => s.heading === "History")).toBe(true);
  });
});

describe("images (OCR)", () => {
  const TESTOCR = "This is a lot of 12 point text to test the";
  test.each([
    [corpus("images/tesseractjs-testocr.png"), "scan.png", "image/png"],
    [`${FIXTURES}/testocr.jpg`, "scan.jpg", "image/jpeg"],
    [`${FIXTURES}/testocr.webp`, "scan.webp", "image/webp"],
  ])("%s is OCR'd", async (path, name, mimeType) => {
    const r = await extractFile(path, name, cfg);
    expect(r.mimeType).toBe(mimeType);
    expect(r.pages).toBe(1);
    expect(r.markdown).toContain(TESTOCR);
    expect(r.markdown).toContain("The quick brown dog jumped over the");
  });

  test("a single word", async () => {
    const r = await extractFile(corpus("images/tesseractjs-simple.png"), "simple.png", cfg);
    expect(r.markdown.trim()).toBe(
      (await Bun.file(corpus("images/ground_truth/tesseractjs-simple.txt")).text()).trim(),
    );
  });
});
