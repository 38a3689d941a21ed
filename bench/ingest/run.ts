/**
 * PDF extraction speed next to poppler's pdftotext, and peak memory on a ~50 MB PDF.
 * Usage: bun bench/ingest/run.ts [--runs 3]
 * Installs poppler-utils with apt-get when pdftotext is missing. For each text PDF of the shared
 * corpus, times our extractor (in this process, warmed up) and `pdftotext` on the same file (best
 * of --runs), then builds a ~50 MB PDF and extracts it in a fresh process through extractFile (the
 * worker-thread path the server uses), reading that process's peak RSS (VmHWM). Prints tables.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PDFDocument } from "pdf-lib";
import { extractPdf } from "../../src/ingest/pdf.ts";

const { values } = parseArgs({ args: process.argv.slice(2), options: { runs: { type: "string", default: "3" } } });
const RUNS = Math.max(1, Number(values.runs));
const CORPUS = resolve(import.meta.dir, "../../../shared/corpus/pdf");
const TEXT_PDFS = ["R-intro.pdf", "tracemonkey.pdf", "dpr-paper-multi-column.pdf", "redp5110_sampled.pdf", "REPAIR-2022-INV-001_multipage-tables.pdf"];
// The server's defaults, except that the 50 MB file may exceed the page limit.
const LIMITS = { maxPdfPages: 100_000, maxOcrPages: 50 };

function run(cmd: string[]): { ok: boolean; out: string } {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  return { ok: p.exitCode === 0, out: p.stdout.toString() + p.stderr.toString() };
}

function ensurePdftotext(): void {
  if (Bun.which("pdftotext")) return;
  console.log("pdftotext not found: installing poppler-utils with apt-get …");
  run(["apt-get", "update", "-qq"]);
  const install = run(["apt-get", "install", "-y", "-qq", "poppler-utils"]);
  if (!Bun.which("pdftotext")) throw new Error(`could not install poppler-utils:\n${install.out}`);
}

async function best(times: number, fn: () => Promise<void> | void): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const fmt = (n: number, digits = 0) => n.toFixed(digits);

/**
 * About 50 MB: the R manual's 113 pages copied seven times (791 text pages), and a page-sized
 * JPEG scan drawn on most pages, as in a scanned book with a text layer.
 */
async function buildLargePdf(path: string): Promise<{ pages: number; bytes: number }> {
  const source = await PDFDocument.load(await Bun.file(join(CORPUS, "R-intro.pdf")).arrayBuffer());
  const out = await PDFDocument.create();
  const jpeg = await Bun.file(resolve(import.meta.dir, "../../test/ingest/fixtures/testocr.jpg")).bytes();
  for (let copy = 0; copy < 7; copy++) {
    const pages = await out.copyPages(source, source.getPageIndices());
    for (const page of pages) out.addPage(page);
  }
  const pages = out.getPages();
  for (let i = 0; i < 700; i++) {
    const image = await out.embedJpg(jpeg);
    pages[i]!.drawImage(image, { x: 400, y: 20, width: 160, height: 120 });
  }
  const bytes = await out.save();
  await Bun.write(path, bytes);
  return { pages: pages.length, bytes: bytes.length };
}

ensurePdftotext();
const work = mkdtempSync(join(tmpdir(), "cf-bench-ingest-"));
try {
  // Warm-up: pdf.js and its fonts load once per process.
  await extractPdf(join(CORPUS, "tracemonkey.pdf"), "warmup.pdf", LIMITS);

  console.log(`\nPDF text extraction, best of ${RUNS} (pages per second)\n`);
  console.log(`${"file".padEnd(44)} ${pad("pages", 5)} ${pad("ours ms", 8)} ${pad("ours p/s", 9)} ${pad("pdftotext ms", 12)} ${pad("pdftotext p/s", 13)} ${pad("ratio", 6)}`);
  let totalPages = 0;
  let oursMs = 0;
  let popplerMs = 0;
  for (const name of TEXT_PDFS) {
    const path = join(CORPUS, name);
    let pages = 0;
    const ours = await best(RUNS, async () => {
      pages = (await extractPdf(path, name, LIMITS)).pages ?? 0;
    });
    const poppler = await best(RUNS, () => {
      if (!run(["pdftotext", "-q", path, join(work, "out.txt")]).ok) throw new Error(`pdftotext failed on ${name}`);
    });
    totalPages += pages;
    oursMs += ours;
    popplerMs += poppler;
    const ratio = pages / ours / (pages / poppler);
    console.log(`${name.padEnd(44)} ${pad(pages, 5)} ${pad(fmt(ours), 8)} ${pad(fmt((pages / ours) * 1000), 9)} ${pad(fmt(poppler), 12)} ${pad(fmt((pages / poppler) * 1000), 13)} ${pad(fmt(ratio, 2), 6)}`);
  }
  const totalRatio = totalPages / oursMs / (totalPages / popplerMs);
  console.log(`${"all".padEnd(44)} ${pad(totalPages, 5)} ${pad(fmt(oursMs), 8)} ${pad(fmt((totalPages / oursMs) * 1000), 9)} ${pad(fmt(popplerMs), 12)} ${pad(fmt((totalPages / popplerMs) * 1000), 13)} ${pad(fmt(totalRatio, 2), 6)}`);
  console.log(`target: ratio >= 0.50 (at least half of pdftotext's pages/second): ${totalRatio >= 0.5 ? "met" : "NOT met"}`);

  const large = join(work, "large.pdf");
  const built = await buildLargePdf(large);
  const child = Bun.spawnSync([process.execPath, resolve(import.meta.dir, "peak-rss.ts"), large], { stdout: "pipe", stderr: "pipe" });
  if (child.exitCode !== 0) throw new Error(`peak-rss.ts failed:\n${child.stderr.toString()}`);
  const peak = JSON.parse(child.stdout.toString().trim().split("\n").at(-1)!) as { peakRssMb: number; baselineRssMb: number; ms: number; pages: number; chars: number };
  const poppler = await best(1, () => void run(["pdftotext", "-q", large, join(work, "large.txt")]));
  console.log(`\nLarge PDF (${fmt(built.bytes / 1024 / 1024, 1)} MB, ${built.pages} pages), one extraction in a fresh process via extractFile\n`);
  console.log(`${"peak RSS MB".padStart(12)} ${"RSS before MB".padStart(14)} ${"ours ms".padStart(8)} ${"pdftotext ms".padStart(13)} ${"chars".padStart(10)}`);
  console.log(`${pad(fmt(peak.peakRssMb), 12)} ${pad(fmt(peak.baselineRssMb), 14)} ${pad(fmt(peak.ms), 8)} ${pad(fmt(poppler), 13)} ${pad(peak.chars, 10)}`);
  console.log(`target: peak RSS < 500 MB: ${peak.peakRssMb < 500 ? "met" : "NOT met"}`);
} finally {
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}
