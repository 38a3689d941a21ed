/**
 * Words split across a PDF page or column break left split: a paragraph that ends with a word's
 * first half and a hyphen ("be-") while the next body paragraph (past captions, footnotes and
 * headings) opens with its lowercase rest ("tween …"), where the joined word is written in the
 * document or is in the English word list — the words break-hyphens.ts and clean-text.ts should
 * have rejoined. Counts per PDF of the structure benchmark's documents (bench/structure/documents.ts:
 * the shared corpus, and the Debian documentation PDFs once fetched), by the fixed halves; the
 * test half is run, never read to write a rule.
 *
 * Usage: bun bench/ingest/break-words.ts [--half dev|test|all] [--only NAME] [--debian]
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { isEnglishWord } from "../../src/ingest/english-words.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { type Half, selectDocuments } from "../structure/documents.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { half: { type: "string", default: "all" }, only: { type: "string" }, debian: { type: "boolean" } },
});
const LIMITS = { maxPdfPages: 100_000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
/** Markdown paragraphs a break puts between a word's halves: captions, footnotes, headings. */
const BETWEEN = /^(\*|\[\d+\]|#)/;

/** The split words left in a document's markdown, as "head- | tail". */
function splitsLeft(markdown: string): string[] {
  const vocab = new Set(markdown.toLowerCase().match(/\p{L}+/gu) ?? []);
  const paragraphs = markdown.split(/\n\n+/);
  const left: string[] = [];
  for (let i = 0; i < paragraphs.length - 1; i++) {
    const head = /(\p{L}+)-$/u.exec(paragraphs[i]!.trim())?.[1];
    if (!head) continue;
    let j = i + 1;
    while (j < paragraphs.length && BETWEEN.test(paragraphs[j]!)) j++;
    const tail = /^\p{Ll}+/u.exec(paragraphs[j] ?? "")?.[0];
    if (!tail) continue;
    const joined = (head + tail).toLowerCase();
    if (vocab.has(joined) || isEnglishWord(joined)) left.push(`${head}- | ${tail}`);
  }
  return left;
}

const documents = selectDocuments(values.half as Half | "all", values.only).filter(
  (d) => d.kind === "pdf" && (values.debian || d.source === "corpus") && existsSync(d.path),
);
const totals: Record<Half, { documents: number; left: number }> = {
  dev: { documents: 0, left: 0 },
  test: { documents: 0, left: 0 },
};
console.log("| half | document | pages | split words left |");
console.log("|---|---|---|---|");
for (const d of documents) {
  const result = await extractPdf(d.path, d.name, LIMITS);
  const left = splitsLeft(result.markdown);
  totals[d.half].documents++;
  totals[d.half].left += left.length;
  console.log(`| ${d.half} | ${d.name} | ${result.pages} | ${left.length} |`);
}
for (const half of ["dev", "test"] as const) {
  if (totals[half].documents > 0)
    console.log(`${half}: ${totals[half].left} split words left in ${totals[half].documents} PDFs (goal 0)`);
}
