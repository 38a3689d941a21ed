import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { PDFDocument } from "pdf-lib";
import type { PeakRss } from "../../bench/ingest/peak-rss.ts";
import { ExtractionPool } from "../../src/ingest/pool.ts";
import type { FileJob } from "../../src/ingest/types.ts";
import { docxWithXml } from "../reliability/hostile-files.ts";
import { corpus, scratch } from "./support.ts";

// A 339-page PDF takes past the default 5 s beside other work.
setDefaultTimeout(300_000);

const tmp = scratch();
const limits = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
/** A job's time limit: seconds on an idle machine, past a minute beside other work (the book took it). */
const JOB_MS = 240_000;
let large = "";
let small = "";
let heavyDocx = "";

beforeAll(async () => {
  // A 339-page book: the R manual three times over.
  const source = await PDFDocument.load(await Bun.file(corpus("pdf/R-intro.pdf")).arrayBuffer());
  const book = await PDFDocument.create();
  for (let copy = 0; copy < 3; copy++)
    for (const page of await book.copyPages(source, source.getPageIndices())) book.addPage(page);
  large = await tmp.write("book.pdf", await book.save());
  small = await tmp.write("note.txt", "A short note about mitochondria.");
  // Within the XML budget, but officeparser needs ~500 MB for it.
  heavyDocx = await tmp.write("heavy.docx", docxWithXml(8));
  // Building the book took past the hook's default 5 s on a loaded machine.
}, 120_000);
afterAll(() => tmp.remove());

const job = (path: string, kind: FileJob["kind"]): FileJob => ({
  path,
  filename: path.split("/").at(-1)!,
  kind,
  limits,
});

describe("extraction pool memory", () => {
  test("a process is kept across small jobs and replaced after a job that left a large heap", async () => {
    // A small text file leaves the thread's heap at ~6 MB, the 113-page R manual at ~35-50 MB (the
    // 339-page book at ~70-110 MB): the manual shows the replacement at a third of the book's parse.
    const pool = new ExtractionPool(1, { recycleHeapMb: 20 });
    try {
      await pool.run(job(small, "txt"), JOB_MS);
      await pool.run(job(small, "txt"), JOB_MS);
      expect(pool.stats()).toMatchObject({ processes: 1, started: 1, recycledLarge: 0 });

      expect((await pool.run(job(corpus("pdf/R-intro.pdf"), "pdf"), JOB_MS)).pages).toBe(113);
      expect(pool.stats()).toMatchObject({ processes: 0, started: 1, recycledLarge: 1 });

      expect((await pool.run(job(small, "txt"), JOB_MS)).markdown).toContain("mitochondria");
      expect(pool.stats()).toMatchObject({ processes: 1, started: 2, recycledLarge: 1 });
    } finally {
      pool.close();
    }
  });

  test("a process past its memory limit is killed, the file fails with a clear error, and the next job gets a fresh process", async () => {
    const pool = new ExtractionPool(1, { memoryMb: 256 });
    try {
      // The limit holds for a process that has run other turns before.
      await pool.run(job(small, "txt"), JOB_MS);
      await pool.run(job(small, "txt"), JOB_MS);
      expect(pool.stats()).toMatchObject({ processes: 1, started: 1 });
      const err = await pool.run(job(heavyDocx, "docx"), JOB_MS).then(
        () => null,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(err?.code).toBe("EXTRACTION_MEMORY_LIMIT");
      expect(err?.message).toContain('"heavy.docx" needed more than 256 MB');
      expect(pool.stats()).toMatchObject({ processes: 0, killedForMemory: 1 });
      expect((await pool.run(job(small, "txt"), JOB_MS)).markdown).toContain("mitochondria");
      expect(pool.stats()).toMatchObject({ processes: 1, started: 2 });
    } finally {
      pool.close();
    }
  }, 300_000);

  test("6 large PDFs back to back keep the process's peak memory bounded", async () => {
    // A fresh process, so the figure is this workload's alone (as bench/ingest/run.ts measures it).
    // Six, the bound: enough repeats for memory kept between extractions to show.
    const child = Bun.spawn(
      [process.execPath, resolve(import.meta.dir, "../../bench/ingest/peak-rss.ts"), large, "6"],
      { stdout: "pipe", stderr: "pipe" },
    );
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    if (code !== 0) throw new Error(`peak-rss.ts failed:\n${err}`);
    const report = JSON.parse(out.trim().split("\n").at(-1)!) as PeakRss;
    expect(report.runs).toBe(6);
    expect(report.pages).toBe(339);
    // Generous: measured ~300 MB with the worker's collection after big jobs, ~400 MB without.
    expect(report.peakRssMb).toBeLessThan(700);
  }, 300_000);
});
