/** Real documents from the shared corpus, cut into passages the way retrieval would hand them over. */
import { readFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import type { Passage } from "../../src/llm/types.ts";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;

function htmlText(path: string): string {
  const { document } = parseHTML(`<html><body>${readFileSync(path, "utf8")}</body></html>`);
  // Block elements become paragraphs so sentences do not run into each other.
  for (const el of document.querySelectorAll("p, li, h1, h2, h3, h4, td, div, pre"))
    el.append(document.createTextNode("\n\n"));
  return document.body.textContent ?? "";
}

export function toPassages(prefix: string, text: string, size = 1200): Passage[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const out: Passage[] = [];
  let current = "";
  for (const p of paragraphs) {
    if (current && current.length + p.length > size) {
      out.push({ id: `${prefix}-${out.length + 1}`, text: current, filename: prefix });
      current = "";
    }
    current = current ? `${current}\n\n${p}` : p;
  }
  if (current) out.push({ id: `${prefix}-${out.length + 1}`, text: current, filename: prefix });
  return out;
}

export const corpusDocs = {
  wikipedia: () => toPassages("mozilla-wiki", htmlText(`${CORPUS}html/readability-wikipedia/expected.html`)),
  redbook: () => toPassages("redp5110", readFileSync(`${CORPUS}pdf/ground_truth/redp5110_sampled.docling.md`, "utf8")),
  v8blog: () => toPassages("v8-blog", htmlText(`${CORPUS}html/readability-v8-blog/expected.html`)),
  ietf: () => toPassages("ietf-draft", htmlText(`${CORPUS}html/readability-ietf-1/expected.html`)),
  scifact: () =>
    readFileSync(`${CORPUS}qa/scifact/corpus.jsonl`, "utf8")
      .split("\n", 25)
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { _id: string; title: string; text: string })
      .map((d) => ({ id: `scifact-${d._id}`, text: `${d.title}\n\n${d.text}`, heading: d.title })),
  captions: () =>
    toPassages(
      "captions",
      readFileSync(`${CORPUS}transcripts/youtube-json3-manual-speakenglishwithvanessa.expected.srt`, "utf8")
        .replace(/^\d+\s*$|^\d\d:\d\d:\d\d,\d+ --> .*$/gm, "")
        .replace(/\n{2,}/g, " "),
    ),
};
