/**
 * Real books of the corpus's dev half, each extracted once for every test that reads it (an
 * extraction of a book is most of a test's CPU): front and back matter by what the pages are
 * (#28; the mechanisms alone: front-matter.test.ts), and what carries meaning kept: code, definition
 * lists, words split at a page or column break (the mechanisms alone: content-kept.test.ts).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Block } from "../../src/ingest/document.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import type { ExtractResult } from "../../src/ingest/types.ts";
import { corpus, ingestConfig, scratch } from "./support.ts";

// A test's budget covers the first extraction of its book, minutes beside other work.
setDefaultTimeout(300_000);

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

const extracted = new Map<string, Promise<ExtractResult>>();
const book = (name: string) => {
  if (!extracted.has(name)) extracted.set(name, extractFile(corpus(`books/${name}`), name, cfg));
  return extracted.get(name)!;
};

const THESIS = "thesis-template-kks32-cambridge.pdf";
const FSFS = "fsfs-free-software-free-society-1st-ed-2002.pdf";
const BASH = "gnu-bash-reference-manual.html";
const DOCX4J = "docx4j-getting-started.docx";
const RFC = "rfc6787-mrcpv2-xml2rfc.html";
const SP800_37 = "nist-sp800-37r2.pdf";
const FIPS201 = "nist-fips201-2.pdf";

const roleOf = (blocks: Block[], start: string) => blocks.find((b) => b.text.startsWith(start))?.role;

describe("front and back matter", () => {
  test("thesis: dedication, declaration, acknowledgements and nomenclature pages are front matter; chapter 1 is taught", async () => {
    const { blocks } = await book(THESIS);
    expect(roleOf(blocks, "I would like to dedicate this thesis")).toBe("title_page");
    expect(roleOf(blocks, "I hereby declare that except where")).toBe("boilerplate");
    expect(roleOf(blocks, "And I would like to acknowledge")).toBe("acknowledgements");
    expect(blocks.filter((b) => (b.page === 17 || b.page === 18) && b.role === "body")).toEqual([]);
    expect(roleOf(blocks, "Lorem Ipsum is simply dummy text")).toBe("body");
  });

  test("FSFS: title and copyright pages are front matter, the GNU licences at the back boilerplate, an essay on copyright taught", async () => {
    const { blocks } = await book(FSFS);
    expect(blocks.filter((b) => b.page! <= 2 && b.role === "body")).toEqual([]);
    const licences = blocks.filter((b) => b.page! >= 205);
    expect(licences.length).toBeGreaterThan(100);
    expect(licences.filter((b) => b.role === "body" || b.role === "appendix")).toEqual([]);
    const essay = blocks.find((b) => b.kind === "heading" && /Copyright and Globalization/.test(b.text))!;
    expect(essay.role).toBe("body");
    expect(blocks.filter((b) => b.page === 150 && b.role === "body").length).toBeGreaterThan(0);
  });

  test("SP 800-37: the authority page is boilerplate, the keywords title matter, the errata after the contents boilerplate; the executive summary taught", async () => {
    const { blocks } = await book(SP800_37);
    const text = (page: number) => blocks.filter((b) => b.page === page && b.role !== "header_footer");
    expect(text(3).filter((b) => b.role === "body" && /\p{L}/u.test(b.text))).toEqual([]);
    expect(roleOf(blocks, "assess; authorization to operate")).toBe("title_page");
    expect(text(19).filter((b) => b.role === "body" && /\p{L}/u.test(b.text))).toEqual([]);
    expect(roleOf(blocks, "As we push computers")).toBe("body");
    expect(roleOf(blocks, "This publication describes the Risk Management Framework")).toBe("abstract");
  });

  test("FIPS 201-2: the keyword list alone on page iv, with no heading, is title matter; the abstract is not", async () => {
    const { blocks } = await book(FIPS201);
    expect(roleOf(blocks, "Keywords: architecture, authentication")).toBe("title_page");
    expect(roleOf(blocks, "This Standard specifies the architecture")).not.toBe("title_page");
  });

  test("bash manual: the GFDL appendix is boilerplate, the indexes are indexes, the other appendices taught", async () => {
    const { blocks } = await book(BASH);
    const sectionOf = (heading: string) => {
      const start = blocks.findIndex((b) => b.kind === "heading" && b.text.startsWith(heading));
      const end = blocks.findIndex((b, i) => i > start && b.kind === "heading" && b.level! <= blocks[start]!.level!);
      return blocks.slice(start, end < 0 ? blocks.length : end);
    };
    const gfdl = sectionOf("Appendix C GNU Free Documentation License");
    expect(gfdl.length).toBeGreaterThan(20);
    expect(gfdl.filter((b) => b.role !== "boilerplate")).toEqual([]);
    expect(sectionOf("Appendix D Indexes")[0]!.role).toBe("index");
    expect(sectionOf("Appendix B Major Differences")[1]!.role).toBe("appendix");
  });

  test("docx4j: the Word table of contents is contents, the first section taught", async () => {
    const { blocks } = await book(DOCX4J);
    const entries = blocks.filter((b) => /^(What is docx4j\?|Using docx4j via Maven|Samples) \| \d+$/.test(b.text));
    expect(entries.length).toBe(3);
    for (const e of entries) expect(e.role).toBe("toc");
    expect(roleOf(blocks, "docx4j is a library for working with docx")).toBe("body");
  });
});

describe("what carries meaning is kept", () => {
  test("the docx4j guide has its Java examples as code", async () => {
    const code = (await book(DOCX4J)).blocks.filter((b) => b.kind === "code").map((b) => b.text);
    expect(code.length).toBeGreaterThan(50);
    expect(
      code.some((c) => c.includes("WordprocessingMLPackage wordMLPackage = WordprocessingMLPackage.createPackage();")),
    ).toBe(true);
  });

  test("SP 800-37: every glossary entry reads term — definition, over two-line terms, second sources and narrow gaps", async () => {
    const { blocks } = await book(SP800_37);
    for (const entry of [
      "chief information security officer — See Senior Agency Information Security Officer.",
      "common control provider — An organizational official responsible for the development",
      "cybersecurity framework category — The subdivision of a Function",
      "senior agency information security officer — Official responsible for carrying out",
      "security architecture — A set of physical and logical security-relevant representations",
      "selection statement — A control parameter that allows an organization to select a value from a list of pre-defined values provided as part of the control or control enhancement (e.g., selecting to either restrict an action or prohibit an action). See assignment statement",
    ])
      expect(blocks.some((b) => b.text.startsWith(entry))).toBe(true);
    // Past the glossary's opening, no body text on its pages stands outside an entry.
    const loose = blocks.filter(
      (b) =>
        b.page! >= 110 &&
        b.page! <= 130 &&
        (b.role === "body" || b.role === "appendix") &&
        /\p{Ll}{3}/u.test(b.text) &&
        !b.text.includes(" — "),
    );
    expect(loose.map((b) => b.text)).toEqual([]);
  });

  test("the bash manual and RFC 6787 keep their definition lists' terms", async () => {
    const bashTexts = (await book(BASH)).blocks.map((b) => b.text);
    expect(bashTexts).toContain("blank — A space or tab character.");
    expect(bashTexts.filter((t) => / — /.test(t)).length).toBeGreaterThan(800);
    expect((await book(RFC)).blocks.map((b) => b.text)).toContain(
      'MRCP Client — An entity controlling one or more Media Resources through MRCPv2 ("Client" for short).',
    );
  });

  test("Free Software, Free Society: no split word left at a page or column break", async () => {
    const r = await book(FSFS);
    const body = r.blocks.filter((b) => b.role !== "header_footer" && b.role !== "page_number");
    // Code keeps its text as set.
    const split = body.filter(
      (b, i) => b.kind !== "code" && /\p{L}-$/u.test(b.text) && /^\p{Ll}/u.test(body[i + 1]?.text ?? ""),
    );
    expect(split.map((b) => b.text.slice(-30))).toEqual([]);
    // Fourteen words were split so before ("arti- | cles", "copy- | right", "ver- | sion").
    for (const w of ["arti-cles", "copy-right", "ver-sion"]) expect(r.markdown).not.toContain(w);
    expect(r.markdown).toMatch(/\barticles\b/);
  });
});
