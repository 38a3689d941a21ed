import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { block, markdownToBlocks } from "../../src/ingest/document.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { resultOf } from "../../src/ingest/result.ts";
import { chunkDocument, chunkMarkdown } from "../../src/retrieval/chunk.ts";
import { estimateTokens } from "../../src/retrieval/text.ts";
import { ROOT } from "../helpers/server.ts";

const CORPUS = join(ROOT, "../shared/corpus");

afterAll(() => stopExtractionWorkers());

/** Prose of `n` distinct, numbered sentences (about 12 tokens each). */
const sentences = (n: number, topic = "the river") =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} says something specific about ${topic} and its banks.`).join(
    " ",
  );

const doc = (markdown: string) => chunkDocument({ blocks: markdownToBlocks(markdown) });

describe("structure", () => {
  test("each chunk carries the path of headings it sits under, and never spans two sections", () => {
    const chunks = doc(
      [
        "# Guide",
        "Intro text.",
        "## Install",
        "Run the installer.",
        "### On Linux",
        "Use the package.",
        "## Use",
        "Open the app.",
      ].join("\n\n"),
    );
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([
      [["Guide"], "Intro text."],
      [["Guide", "Install"], "Run the installer."],
      [["Guide", "Install", "On Linux"], "Use the package."],
      [["Guide", "Use"], "Open the app."],
    ]);
    expect(chunks.map((c) => c.position)).toEqual([0, 1, 2, 3]);
  });

  test("setext headings count as headings; a heading inside a code fence does not", () => {
    const chunks = doc("Title\n=====\n\nText one.\n\n```\n# not a heading\ncode()\n```\n\nSub\n---\n\nText two.");
    expect(chunks.map((c) => c.headingPath)).toEqual([["Title"], ["Title", "Sub"]]);
    expect(chunks[0]!.text).toContain("# not a heading\ncode()");
  });

  test("a long section is split at paragraph or sentence bounds into chunks of 200-400 tokens with a sentence of overlap", () => {
    const chunks = doc(`# River\n\n${sentences(120)}`);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const c of chunks) {
      expect(estimateTokens(c.text)).toBeLessThanOrEqual(400);
      expect(estimateTokens(c.text)).toBeGreaterThanOrEqual(200);
      expect(c.text).toMatch(/^Sentence \d+ .*banks\.$/s);
      expect(c.headingPath).toEqual(["River"]);
    }
    for (let i = 1; i < chunks.length; i++) {
      // The next chunk opens with the previous one's closing sentences (at most ~40 tokens of them).
      const opening = /^Sentence \d+ [^.]*\./.exec(chunks[i]!.text)![0];
      const previous = chunks[i - 1]!.text;
      expect(previous).toContain(opening);
      const overlap = previous.slice(previous.indexOf(opening));
      expect(chunks[i]!.text.startsWith(overlap)).toBe(true);
      expect(estimateTokens(overlap)).toBeLessThanOrEqual(40);
    }
    // Every sentence survives, in order.
    const seen = new Set(chunks.flatMap((c) => [...c.text.matchAll(/Sentence (\d+) /g)].map((m) => Number(m[1]))));
    expect(seen.size).toBe(120);
  });

  test("a short section stays whole; a paragraph with no sentence ends is cut by words", () => {
    expect(doc(`# A\n\n${sentences(10)}`)).toHaveLength(1);
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" ");
    const chunks = doc(words);
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(estimateTokens(c.text)).toBeLessThanOrEqual(400);
    expect(chunks.map((c) => c.text).join(" ")).toContain("w0 w1 w2");
  });

  test("empty or whitespace-only input gives no chunks", () => {
    expect(chunkMarkdown("")).toEqual([]);
    expect(chunkMarkdown("\n\n   \n")).toEqual([]);
  });
});

describe("citation metadata", () => {
  test("pages: a chunk cites the page its text starts on, also when it runs on to the next page", () => {
    const blocks = [1, 2, 3].map((page) => block("paragraph", sentences(12, `page ${page}`), { page }));
    const chunks = chunkDocument({ blocks });
    expect(chunks[0]!.page).toBe(1);
    for (const c of chunks) {
      const firstPage = Number(/about page (\d)/.exec(c.text)![1]);
      expect(c.page).toBe(firstPage);
      expect(c.slide).toBeNull();
      expect(c.timestamp).toBeNull();
    }
  });

  test("slides: each slide's title roots its heading path and its chunk cites the slide", () => {
    const blocks = [
      block("heading", "Results", { slide: 1 }, { level: 2 }),
      block("paragraph", "Revenue grew in every region.", { slide: 1 }),
      block("heading", "Plans", { slide: 2 }, { level: 2 }),
      block("paragraph", "Hire two engineers next quarter.", { slide: 2 }),
    ];
    const chunks = chunkDocument({ blocks });
    expect(chunks.map((c) => [c.slide, c.headingPath, c.text])).toEqual([
      [1, ["Results"], "Revenue grew in every region."],
      [2, ["Plans"], "Hire two engineers next quarter."],
    ]);
  });

  test("timestamps: caption lines are packed together and the chunk cites its first caption's time", () => {
    const blocks = Array.from({ length: 90 }, (_, i) =>
      block("paragraph", `At second ${i * 5} the speaker explains step ${i} of the method in some detail.`, {
        timestamp: i * 5,
      }),
    );
    const chunks = chunkDocument({ blocks });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThan(10);
    for (const c of chunks) expect(c.timestamp).toBe(Number(/^At second (\d+)/.exec(c.text)![1]));
  });

  test("a real PDF: pages in order within the document's range, chunks within size", async () => {
    const path = join(CORPUS, "pdf/tracemonkey.pdf");
    const extract = await extractFile(path, "tracemonkey.pdf");
    const chunks = chunkDocument(extract);
    expect(chunks.length).toBeGreaterThan(40);
    let last = 0;
    for (const c of chunks) {
      expect(c.page).toBeGreaterThanOrEqual(Math.max(1, last));
      expect(c.page).toBeLessThanOrEqual(14);
      expect(estimateTokens(c.text)).toBeLessThanOrEqual(400);
      last = c.page!;
    }
    expect(last).toBeGreaterThanOrEqual(13);
    expect(chunks.some((c) => c.text.includes("trace"))).toBe(true);
  });

  test("roles: references are chunked apart from the body and say so; running headers and page numbers are never chunked", () => {
    const blocks = [
      block("heading", "Results", { page: 1 }, { level: 1 }),
      block("paragraph", "Tracing made the interpreter 10 times faster [2].", { page: 1 }),
      block("paragraph", "Journal of Tracing, Vol. 3", { page: 1 }, { role: "header_footer" }),
      block("paragraph", "7", { page: 1 }, { role: "page_number" }),
      block("heading", "References", { page: 2 }, { level: 1 }),
      block("paragraph", "[1] A. Gal. Trace trees. In Proceedings of PLDI, 2009.", { page: 2 }),
      block("paragraph", "[2] M. Chang. Tracing for web 3.0. In Proceedings of VEE, 2009.", { page: 2 }),
    ];
    const chunks = chunkDocument(resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 2 }, "page"));
    expect(chunks.map((c) => [c.role, c.headingPath, c.text])).toEqual([
      ["body", ["Results"], "Tracing made the interpreter 10 times faster."],
      [
        "references",
        ["References"],
        "[1] A. Gal. Trace trees. In Proceedings of PLDI, 2009.\n[2] M. Chang. Tracing for web 3.0. In Proceedings of VEE, 2009.",
      ],
    ]);
  });
});
