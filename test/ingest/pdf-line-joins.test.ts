/** Where a PDF's lines join into one paragraph and where a paragraph ends, on built ragged-right pages. */
import { afterAll, expect, test } from "bun:test";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { linesPdf } from "./heading-fixtures.ts";
import { scratch } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
const tmp = scratch();
afterAll(() => tmp.remove());

const paragraphs = async (name: string, lines: string[]) => {
  const path = await tmp.write(name, await linesPdf([{ lines: lines.map((text) => ({ text })) }]));
  return (await extractPdf(path, name, LIMITS)).blocks.filter((b) => b.kind === "paragraph").map((b) => b.text);
};

test("a short line ending inside a word runs on into the line that finishes it: one paragraph", async () => {
  const found = await paragraphs("glaciers.pdf", [
    "Glaciers move slowly downhill under their own weight, year after year.",
    "Their speed is found by careful measure-",
    "ment over many years of patient study in the field.",
  ]);
  expect(found).toEqual([
    "Glaciers move slowly downhill under their own weight, year after year. Their speed is found by careful measurement over many years of patient study in the field.",
  ]);
}, 60_000);

test("a short line ending a sentence still ends its paragraph", async () => {
  const found = await paragraphs("rivers.pdf", [
    "Rivers carry the melt water of the glaciers down to the sea, season after season.",
    "Their flow is highest in summer.",
    "Winter brings the lowest water of the year to every valley along the range.",
  ]);
  expect(found).toEqual([
    "Rivers carry the melt water of the glaciers down to the sea, season after season. Their flow is highest in summer.",
    "Winter brings the lowest water of the year to every valley along the range.",
  ]);
}, 60_000);
