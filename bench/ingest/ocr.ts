/**
 * OCR accuracy next to the Tesseract CLI: character error rate (CER) of our OCR (tesseract.js with
 * the embedded English model, automatic page segmentation, blocks built by ocr-text.ts and cleaned
 * as every extraction is) and of `tesseract FILE stdout`, on each corpus image with a ground truth.
 * Usage: bun bench/ingest/ocr.ts
 * Installs tesseract-ocr and tesseract-ocr-eng with apt-get when the CLI is missing.
 * CER = Levenshtein distance between the whitespace-normalised texts / ground-truth length.
 * Goal: our total CER at most 1.1 x the CLI's.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { distance } from "fastest-levenshtein";
import { recognizeBlocks } from "../../src/ingest/ocr.ts";
import { ocrBlocks } from "../../src/ingest/ocr-text.ts";
import { resultOf } from "../../src/ingest/result.ts";

const IMAGES = resolve(import.meta.dir, "../../../shared/corpus/images");
const GOAL_RATIO = 1.1;

function run(cmd: string[]): { ok: boolean; out: string; err: string } {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  return { ok: p.exitCode === 0, out: p.stdout.toString(), err: p.stderr.toString() };
}

function ensureTesseract(): void {
  if (Bun.which("tesseract")) return;
  console.log("tesseract not found: installing tesseract-ocr and tesseract-ocr-eng with apt-get …");
  run(["apt-get", "update", "-qq"]);
  const r = run(["apt-get", "install", "-y", "-qq", "tesseract-ocr", "tesseract-ocr-eng"]);
  if (!r.ok || !Bun.which("tesseract")) throw new Error(`could not install the tesseract CLI:\n${r.out}${r.err}`);
}

const normalise = (s: string) => s.replace(/\s+/g, " ").trim();

/** Edit distance and ground-truth length, so totals weigh each image by its length. */
function errors(text: string, truth: string): { edits: number; length: number } {
  const t = normalise(truth);
  return { edits: distance(normalise(text), t), length: t.length };
}

async function ours(path: string): Promise<string> {
  const blocks = ocrBlocks(await recognizeBlocks(await Bun.file(path).bytes()), { page: 1 });
  return resultOf(blocks, { title: null, mimeType: "image/png", pages: 1 }, "page")
    .blocks.map((b) => b.text)
    .join("\n");
}

function cli(path: string): string {
  const r = run(["tesseract", path, "stdout", "-l", "eng"]);
  if (!r.ok) throw new Error(`tesseract failed on ${path}: ${r.err}`);
  return r.out;
}

ensureTesseract();
console.log(`tesseract CLI: ${run(["tesseract", "--version"]).out.split("\n")[0]}`);

const rows: {
  file: string;
  ours: number;
  cli: number;
  ms: number;
  cliMs: number;
  length: number;
  oursEdits: number;
  cliEdits: number;
}[] = [];
for (const file of readdirSync(IMAGES).sort()) {
  const truthPath = join(IMAGES, "ground_truth", `${basename(file, extname(file))}.txt`);
  if (!existsSync(truthPath)) continue;
  const path = join(IMAGES, file);
  const truth = await Bun.file(truthPath).text();
  let t = performance.now();
  const a = errors(await ours(path), truth);
  const ms = performance.now() - t;
  t = performance.now();
  const b = errors(cli(path), truth);
  const cliMs = performance.now() - t;
  rows.push({
    file,
    ours: a.edits / a.length,
    cli: b.edits / b.length,
    ms,
    cliMs,
    length: a.length,
    oursEdits: a.edits,
    cliEdits: b.edits,
  });
}

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? "1.00" : "inf") : (a / b).toFixed(2));
const table = [
  ["file", "chars", "CER ours", "CER tesseract CLI", "ratio", "ms ours", "ms CLI"],
  ...rows.map((r) => [
    r.file,
    String(r.length),
    pct(r.ours),
    pct(r.cli),
    ratio(r.ours, r.cli),
    r.ms.toFixed(0),
    r.cliMs.toFixed(0),
  ]),
];
const chars = rows.reduce((n, r) => n + r.length, 0);
const oursTotal = rows.reduce((n, r) => n + r.oursEdits, 0) / chars;
const cliTotal = rows.reduce((n, r) => n + r.cliEdits, 0) / chars;
table.push(["total", String(chars), pct(oursTotal), pct(cliTotal), ratio(oursTotal, cliTotal), "", ""]);
const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
for (const row of table) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join("  "));
const met = oursTotal <= GOAL_RATIO * cliTotal || oursTotal === 0;
console.log(`\ngoal: total CER <= ${GOAL_RATIO} x CLI (${pct(GOAL_RATIO * cliTotal)}): ${met ? "met" : "NOT met"}`);
process.exit(0);
