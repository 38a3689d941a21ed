/**
 * Roles and clean text on real documents: the papers' reference lists are back matter (found by
 * heading in both, each entry a reference block), their body text cites them without the markers,
 * and no word is left split at a line-end hyphen when the joined word exists.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Block } from "../../src/ingest/document.ts";
import { isEnglishWord } from "../../src/ingest/english-words.ts";
import { fileLimits } from "../../src/ingest/run-extraction.ts";
import { sharedExtraction } from "../helpers/shared-extraction.ts";
import { corpus, ingestConfig } from "./support.ts";

// The documents are parsed once per run for every file that reads them.
const limits = fileLimits(ingestConfig(""));
const blocksOf: Record<string, Block[]> = {};

beforeAll(async () => {
  for (const name of ["tracemonkey.pdf", "dpr-paper-multi-column.pdf", "R-intro.pdf", "redp5110_sampled.pdf"]) {
    blocksOf[name] = (await sharedExtraction(corpus(`pdf/${name}`), limits)).blocks;
  }
  for (const path of ["docx/markitdown-autogen-paper.docx", "pptx/markitdown-autogen-slides.pptx"]) {
    const name = path.split("/").pop()!;
    blocksOf[name] = (await sharedExtraction(corpus(path), limits)).blocks;
  }
}, 300_000);

describe("back matter of real papers", () => {
  test.each([
    ["tracemonkey.pdf", 18, "[7] V. Bala, E. Duesterwald, and S. Banerjia. Dynamo"],
    ["dpr-paper-multi-column.pdf", 40, "Akari Asai, Kazuma Hashimoto, Hannaneh Hajishirzi"],
  ])(
    "%s: the reference list is back matter, entry by entry, and nothing after the body is taught",
    (name, least, entry) => {
      const blocks = blocksOf[name]!;
      const refs = blocks.filter((b) => b.role === "references" && b.kind === "reference");
      expect(refs.length).toBeGreaterThanOrEqual(least);
      expect(refs.some((b) => b.text.startsWith(entry))).toBe(true);
      // No bibliography entry is left as body text.
      const bodyEntries = blocks.filter(
        (b) =>
          b.role === "body" &&
          /\b(In Proceedings|Proc\.) /.test(b.text) &&
          /\b(19|20)\d\d\b/.test(b.text) &&
          b.text.length < 400,
      );
      expect(bodyEntries.map((b) => b.text)).toEqual([]);
      // The title and author lines are front matter, the acknowledgements back matter.
      expect(blocks.some((b) => b.role === "title_page")).toBe(true);
      expect(blocks.some((b) => b.role === "acknowledgements")).toBe(true);
    },
  );

  test("tracemonkey: entries a layout ran together are split at their labels, each labelled once", () => {
    const labels = blocksOf["tracemonkey.pdf"]!.filter((b) => b.kind === "reference").map((b) => b.label);
    expect(labels).toEqual(Array.from({ length: labels.length }, (_, i) => String(i + 1)));
    expect(labels.length).toBeGreaterThanOrEqual(18);
  });

  test("tracemonkey: its keywords and subject categories are front matter, and its abstract is taught", () => {
    const blocks = blocksOf["tracemonkey.pdf"]!;
    const indexing = blocks.filter((b) => /^(Keywords|Categories and Subject Descriptors)\b/.test(b.text));
    expect(indexing.length).toBe(2);
    for (const b of indexing) expect(b.role).toBe("title_page");
    expect(blocks.some((b) => b.role === "abstract" && b.text.includes("alternative compilation technique"))).toBe(
      true,
    );
  });

  test("R-intro: its contents pages are a table of contents and its appendix indexes are indexes", () => {
    const blocks = blocksOf["R-intro.pdf"]!;
    expect(blocks.filter((b) => b.role === "toc").length).toBeGreaterThan(50);
    expect(blocks.some((b) => b.kind === "heading" && b.role === "index" && /index/i.test(b.text))).toBe(true);
    expect(blocks.filter((b) => b.role === "body" && /(\. ){4,}\d+$/.test(b.text))).toEqual([]);
  });

  test("R-intro: its cover page is the title page and its copyright page boilerplate", () => {
    const blocks = blocksOf["R-intro.pdf"]!;
    const roleOf = (start: string) => blocks.find((b) => b.text.startsWith(start))?.role;
    expect(roleOf("An Introduction to R")).toBe("title_page");
    expect(roleOf("W. N. Venables, D. M. Smith and the R Core Team")).toBe("title_page");
    expect(roleOf("Copyright c© 1997, 1998 M. Maechler")).toBe("boilerplate");
    expect(roleOf("Permission is granted to copy and distribute translations")).toBe("boilerplate");
    expect(blocks.filter((b) => b.page === 2 && b.role === "body")).toEqual([]);
    // The manual's own text is still taught.
    expect(roleOf("R is an integrated suite of software facilities")).toBe("body");
  });

  test("tracemonkey: the ACM permission and copyright notice on page 1 is boilerplate, its introduction taught", () => {
    const blocks = blocksOf["tracemonkey.pdf"]!;
    const roleOf = (start: string) => blocks.find((b) => b.text.startsWith(start))?.role;
    expect(roleOf("Permission to make digital or hard copies")).toBe("boilerplate");
    expect(roleOf("PLDI’09, June 15–20, 2009, Dublin, Ireland.")).toBe("boilerplate");
    expect(roleOf("Copyright c© 2009 ACM")).toBe("boilerplate");
    expect(roleOf("Dynamic languages such as JavaScript, Python, and Ruby")).toBe("body");
  });

  test.each(["markitdown-autogen-paper.docx", "markitdown-autogen-slides.pptx"])(
    "%s: the author list under the title is the title page, the text after it taught",
    (name) => {
      const blocks = blocksOf[name]!;
      const authors = blocks.filter((b) => b.text.includes("Gagan Bansal"));
      expect(authors.length).toBe(1);
      expect(authors[0]!.role).toBe("title_page");
      expect(
        blocks.some((b) => b.role !== "title_page" && b.text.startsWith("AutoGen is an open-source framework")),
      ).toBe(true);
      expect(blocks.filter((b) => b.role === "title_page").length).toBe(1);
    },
  );

  test("redp5110: the front cover is the title page, the authors boilerplate, the contents a table of contents", () => {
    const blocks = blocksOf["redp5110_sampled.pdf"]!;
    const roleOf = (heading: string) => blocks.find((b) => b.kind === "heading" && b.text === heading)?.role;
    expect(roleOf("Front cover")).toBe("title_page");
    expect(roleOf("Authors")).toBe("boilerplate");
    expect(roleOf("Contents")).toBe("toc");
    expect(roleOf("Chapter 1. Securing and protecting IBM DB2 data")).toBe("body");
    expect(blocks.filter((b) => b.role === "toc" && /(\. ){4,}/.test(b.text)).length).toBeGreaterThan(30);
  });
});

describe("clean text of real documents", () => {
  test.each(["tracemonkey.pdf", "dpr-paper-multi-column.pdf", "R-intro.pdf", "redp5110_sampled.pdf"])(
    "%s: no 'xxx- yyy' split where the joined word is a word of the text or of English",
    (name) => {
      const blocks = blocksOf[name]!.filter((b) => b.kind !== "code");
      const vocabulary = new Set(blocks.flatMap((b) => b.text.toLowerCase().match(/\p{L}+/gu) ?? []));
      const split: string[] = [];
      for (const b of blocks) {
        for (const m of b.text.matchAll(/(\p{L}+)- (\p{L}+)/gu)) {
          const joined = (m[1]! + m[2]!).toLowerCase();
          if (/^(and|or|to|nor|as)$/i.test(m[2]!)) continue;
          if (vocabulary.has(joined) || (/^\p{Ll}/u.test(m[2]!) && isEnglishWord(joined))) split.push(m[0]);
        }
      }
      expect(split).toEqual([]);
      // Nor a soft hyphen left over from the line joining.
      expect(blocks.filter((b) => b.text.includes("\u00ad"))).toEqual([]);
    },
  );
});
