/**
 * The document model's own rules, on blocks built here: roles from headings and from the shape of
 * the text, citation markers linked to reference entries, hyphenation resolved, markdown that keeps
 * operators intact and marks front/back matter. The corpus tests of each extractor show the same
 * rules on real documents.
 */
import { describe, expect, test } from "bun:test";
import { type Block, block, blocksToMarkdown, markdownToBlocks, markdownToPlain } from "../../src/ingest/document.ts";
import { resultOf } from "../../src/ingest/result.ts";
import { headingRole, looksLikeReference } from "../../src/ingest/roles.ts";

const paged = (blocks: Block[]) => resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 3 }, "page");
const p = (text: string, page = 1) => block("paragraph", text, { page });
const h = (text: string, level = 1, page = 1) => block("heading", text, { page }, { level });
const rolesOf = (blocks: Block[]) => blocks.map((b) => [b.role, b.kind, b.text.slice(0, 30)]);

const prose = (topic: string) =>
  `The ${topic} is described here in enough words to be a real paragraph of body text, with no year and no venue, so it is prose.`;

describe("roles from headings", () => {
  test.each([
    ["References", "references"],
    ["7 References", "references"],
    ["Bibliography", "references"],
    ["Appendix E References", "references"],
    ["Appendix D Function and variable index", "index"],
    ["Concept index", "index"],
    ["Appendix A A sample session", "appendix"],
    ["Acknowledgments", "acknowledgements"],
    ["Acknowledgements", "acknowledgements"],
    ["Table of Contents", "toc"],
    ["Contents", "toc"],
    ["Abstract", "abstract"],
    ["Trademarks", "boilerplate"],
    ["Notices", "boilerplate"],
    ["1 Introduction", null],
    ["3.2 Trace trees", null],
    ["Indexing the passages", null],
    ["Related work on references counting", null],
  ])("%s → %s", (heading, role) => {
    expect(headingRole(heading)).toBe(role as ReturnType<typeof headingRole>);
  });

  test("a role covers its section, nested headings included, and ends at the next heading of its level", () => {
    const { blocks } = paged([
      h("1 Introduction"),
      p(prose("method")),
      h("Appendix A Extra material"),
      h("A.1 Details", 2),
      p(prose("detail")),
      h("References"),
      p("Alice Smith and Bob Jones. 2019. A study of things. In Proceedings of ACL, pages 1–9."),
      h("B Distant supervision"),
      p(prose("supervision")),
    ]);
    expect(blocks.map((b) => b.role)).toEqual([
      "body",
      "body",
      "appendix",
      "appendix",
      "appendix",
      "references",
      "references",
      "appendix",
      "appendix",
    ]);
    expect(blocks[6]!.kind).toBe("reference");
  });
});

describe("roles from the shape of the text", () => {
  test("a bibliography with no heading at the end of a paper is back matter, its entries reference blocks", () => {
    const body = Array.from({ length: 8 }, (_, i) => p(prose(`topic ${i}`)));
    const entries = [
      "Akari Asai, Kazuma Hashimoto, and Caiming Xiong. 2020. Learning to retrieve reasoning paths. In ICLR.",
      "Jonathan Berant, Andrew Chou, Roy Frostig, and Percy Liang. 2013. Semantic parsing on Freebase from question-answer pairs.",
      "Scott Deerwester, Susan T Dumais, and Richard Harshman. 1990. Indexing by latent semantic analysis. Journal of the American Society for Information Science, 41(6):391–407.",
      "David A Ferrucci. 2012. Introduction to “This is Watson”. IBM Journal of Research and Development, 56(3.4):1–1.",
      "Kelvin Guu, Kenton Lee, Zora Tung, and Ming-Wei Chang. 2020. REALM: Retrieval-augmented language model pre-training. ArXiv, abs/2002.08909.",
    ].map((t) => p(t, 3));
    const { blocks } = paged([...body, ...entries]);
    expect(blocks.slice(0, 8).every((b) => b.role === "body")).toBe(true);
    expect(blocks.slice(8).map((b) => [b.role, b.kind])).toEqual(entries.map(() => ["references", "reference"]));
  });

  test("bibliography-shaped sentences in the body stay body text", () => {
    const body = [
      p(prose("a")),
      p("Smith (2019) showed in Proceedings of ACL that tracing helps."),
      p(prose("b")),
      p(prose("c")),
    ];
    expect(paged(body).blocks.every((b) => b.role === "body")).toBe(true);
    expect(looksLikeReference("We ran it in 2019 and it was fast.")).toBe(false);
  });

  test("dot-leader lines are a table of contents even with no heading", () => {
    const toc = [
      "1 Introduction . . . . . . . 1",
      "2 Simple manipulations . . . . . 7",
      "2.1 Vectors . . . . . . . . 7",
      "2.2 Arithmetic . . . . . 8",
    ];
    const { blocks } = paged([...toc.map((t) => p(t)), h("1 Introduction", 1, 2), p(prose("R"), 2)]);
    expect(blocks.map((b) => b.role)).toEqual(["toc", "toc", "toc", "toc", "body", "body"]);
  });

  test("a paper's title and author lines are the title page; a long opening paragraph is the abstract", () => {
    const abstract = `${prose("abstract")} ${prose("contribution")} ${prose("results")} ${prose("dataset")}`;
    const { blocks } = paged([
      h("Dense Passage Retrieval"),
      p("Vladimir Karpukhin, Barlas Oğuz"),
      p("Facebook AI"),
      p(abstract),
      h("1 Introduction"),
      p(prose("QA")),
    ]);
    expect(rolesOf(blocks).map((r) => r[0])).toEqual([
      "title_page",
      "title_page",
      "title_page",
      "abstract",
      "body",
      "body",
    ]);
  });
});

describe("clean text", () => {
  test("numeric citation markers leave the prose and link to the reference entries", () => {
    const { blocks } = paged([
      p("Trace trees [7, 9] record loops; see also [11–13]. Values lie in [0, 1]."),
      h("References", 1, 2),
      ...[7, 9, 11, 12, 13].map((n) => p(`[${n}] A. Author. Title ${n}. In Proceedings of PLDI, 2009.`, 2)),
    ]);
    expect(blocks[0]!.text).toBe("Trace trees record loops; see also. Values lie in [0, 1].");
    expect(blocks[0]!.cites).toEqual(["7", "9", "11", "12", "13"]);
    expect(blocks.filter((b) => b.kind === "reference").map((b) => b.label)).toEqual(["7", "9", "11", "12", "13"]);
  });

  test("without reference entries, bracketed numbers stay text", () => {
    expect(paged([p("Values lie in [0, 1] and [3].")]).blocks[0]!.text).toBe("Values lie in [0, 1] and [3].");
  });

  test("a line-end hyphen joins a word that exists and stays in a compound that does not", () => {
    const { blocks } = paged([
      p("The exam\u00adple shows a well\u00adknown trick."),
      p("Trace\u00adMonkey beats the old engine."),
    ]);
    expect(blocks[0]!.text).toBe("The example shows a well-known trick.");
    // Not an English word and not written whole in this document: kept as written, hyphen and all.
    expect(blocks[1]!.text).toBe("Trace-Monkey beats the old engine.");
  });

  test("a 'word- word' split is mended when the document writes the word whole; suspended hyphens stay", () => {
    const { blocks } = paged([
      p("SunSpider is a benchmark suite."),
      p("We ran Sun- Spider and pre- and post-processing steps."),
      p("An imple- mentation detail."),
    ]);
    expect(blocks[1]!.text).toBe("We ran SunSpider and pre- and post-processing steps.");
    expect(blocks[2]!.text).toBe("An implementation detail.");
  });
});

describe("markdown", () => {
  test("operators and identifiers survive: the markdown escapes them and reads back as written", () => {
    const texts = [
      "A %*% B is the matrix product.",
      "x <- a*b + c*d",
      "snake_case_name and __init__",
      "# not a heading",
      "1. not a list",
    ];
    for (const text of texts) {
      const md = blocksToMarkdown([block("paragraph", text)]);
      expect(markdownToBlocks(md).map((b) => [b.kind, b.text])).toEqual([["paragraph", text]]);
      expect(markdownToPlain(md)).toBe(text);
    }
  });

  test("front and back matter is marked with a role comment; running headers and page numbers are left out", () => {
    const { markdown } = paged([
      h("Intro"),
      p("Body text."),
      block("paragraph", "ACM PLDI 2009", { page: 1 }, { role: "header_footer" }),
      block("paragraph", "3", { page: 1 }, { role: "page_number" }),
      h("References"),
      p("[1] A. Gal. Trace trees. In Proceedings of PLDI, 2009."),
    ]);
    expect(markdown).toBe(
      "# Intro\n\nBody text.\n\n<!-- role: references -->\n\n# References\n\n\\[1\\] A. Gal. Trace trees. In Proceedings of PLDI, 2009.",
    );
  });

  test("markdown in: headings with levels, nested lists, tables with cells, code with its language", () => {
    const blocks = markdownToBlocks(
      "# Title\n\n- one\n  - one.a\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```r\nx %*% y\n```",
    );
    expect(blocks.map((b) => [b.kind, b.text, b.level ?? null])).toEqual([
      ["heading", "Title", 1],
      ["list_item", "one", 0],
      ["list_item", "one.a", 1],
      ["list_item", "two", 0],
      ["table", "a | b\n1 | 2", null],
      ["code", "x %*% y", null],
    ]);
    expect(blocks[4]!.cells).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(blocks[5]!.lang).toBe("r");
  });
});
