import { afterAll, describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { odp, odt, zipBombDocx } from "./build-fixtures.ts";
import { corpus, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

describe("DOCX and ODT", () => {
  test("headings, lists and tables come out as markdown, one segment per section", async () => {
    const r = await extractFile(corpus("docx/docling-word_sample.docx"), "word_sample.docx", cfg);
    expect(r.mimeType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(r.markdown).toContain("# Swimming in the lake");
    // Under a Title paragraph, Heading 1 nests at level 2 (as docling reads it).
    expect(r.markdown).toContain("\n## Let’s swim!\n");
    expect(r.markdown).toContain("\n### Let’s eat\n");
    expect(r.markdown).toContain("- You can relax and look around");
    expect(r.markdown).toContain("| Leaves | Ash, Elm, Maple | 50 |");
    expect(r.markdown).toContain("| --- | --- | --- |");
    expect(r.segments.map((s) => s.heading)).toEqual([null, "Swimming in the lake", "Let’s swim!", "Let’s eat"]);
    expect(r.title).toBe("Swimming in the lake");
  });

  test("a rich DOCX: title from its properties, bookmarks not leaking into headings, several tables", async () => {
    const r = await extractFile(corpus("docx/calibre-docx-demo.docx"), "demo.docx", cfg);
    expect(r.title).toBe("DOCX Demo");
    expect(r.markdown).toContain("# Demonstration of DOCX support in calibre\n");
    expect(r.markdown).not.toMatch(/\{#toc\d+\}/);
    expect(r.markdown).toContain("| City or Town | Point A | Point B | Point C | Point D | Point E |");
    expect(r.markdown).not.toContain("<table");
  });

  test("an ODT document", async () => {
    const path = await tmp.write(
      "notes.odt",
      odt("Photosynthesis", ["Plants turn light into sugar.", "Chlorophyll absorbs light."]),
    );
    const r = await extractFile(path, "notes.odt", cfg);
    expect(r.mimeType).toBe("application/vnd.oasis.opendocument.text");
    expect(r.markdown).toBe("# Photosynthesis\n\nPlants turn light into sugar.\n\nChlorophyll absorbs light.");
  });
});

describe("PPTX and ODP", () => {
  test("one section per slide with its number and title, tables, speaker notes kept", async () => {
    const r = await extractFile(corpus("pptx/docling-powerpoint_sample.pptx"), "sample.pptx", cfg);
    expect(r.pages).toBe(3);
    expect(r.segments.map((s) => s.slide)).toEqual([1, 2, 3]);
    expect(r.segments[0]!.markdown.startsWith("## Slide 1: Test Table Slide\n")).toBe(true);
    expect(r.segments[0]!.markdown).toContain("| R1 | True | False |");
    expect(r.segments[0]!.markdown).not.toContain("Speaker notes");
    expect(r.segments[1]!.heading).toBe("Second slide title");
    expect(r.segments[1]!.markdown).toContain("**Speaker notes:**\n\nSome notes on the second slide.");
    expect(r.segments[1]!.markdown).toContain("A rectangle shape with this text inside.");
    expect(r.segments[2]!.markdown).toMatch(/^## Slide 3\n/);
    expect(r.segments[2]!.markdown).toContain("1. List item4");
  });

  test("a deck with notes on some slides; the notes' slide-number placeholder is dropped", async () => {
    const r = await extractFile(corpus("pptx/calibre-demo-slides.pptx"), "calibre.pptx", cfg);
    expect(r.pages).toBe(9);
    const second = r.segments.find((s) => s.slide === 2)!;
    expect(second.markdown).toContain(
      "**Speaker notes:**\n\nSlide Note 2. This is a bold text, but no italic. Let's strike that out.",
    );
    expect(second.markdown.trimEnd().endsWith("\n\n2")).toBe(false);
  });

  test("a PPTX misnamed .ppt is extracted as PPTX", async () => {
    const r = await extractFile(corpus("pptx/misnamed-ooxml-eng_spa_mult.ppt"), "eng_spa_mult.ppt", cfg);
    expect(r.pages).toBe(6);
    expect(r.segments[0]!.markdown).toMatch(/^## Slide 1/);
  });

  test("an ODP presentation", async () => {
    const path = await tmp.write(
      "deck.odp",
      odp([
        ["Welcome", "Agenda for today"],
        ["Results", "Sales went up"],
      ]),
    );
    const r = await extractFile(path, "deck.odp", cfg);
    expect(r.pages).toBe(2);
    expect(r.segments.map((s) => s.slide)).toEqual([1, 2]);
    expect(r.markdown).toContain("Sales went up");
  });
});

describe("hostile archives", () => {
  test("a zip bomb DOCX is refused from its directory, before inflating", async () => {
    const path = await tmp.write("bomb.docx", zipBombDocx(40));
    expect(Bun.file(path).size).toBeLessThan(200_000);
    let err: unknown;
    try {
      await extractFile(path, "bomb.docx", cfg);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("ARCHIVE_TOO_LARGE");
    // The ratio and size are the ones the zip directory declares: the part was never inflated.
    expect((err as AppError).message).toMatch(
      /^"bomb\.docx" was refused as a likely zip bomb: its part "word\/document\.xml" inflates \d+x to 40(\.0)? MB/,
    );
  });

  test("a truncated DOCX is a clear error", async () => {
    const whole = await Bun.file(corpus("docx/docling-word_sample.docx")).bytes();
    const path = await tmp.write("cut.docx", whole.subarray(0, Math.floor(whole.length / 2)));
    let err: unknown;
    try {
      await extractFile(path, "cut.docx", cfg);
    } catch (e) {
      err = e;
    }
    expect((err as AppError).code).toBe("UNREADABLE_FILE");
    expect((err as AppError).message).toContain('"cut.docx"');
  });
});
