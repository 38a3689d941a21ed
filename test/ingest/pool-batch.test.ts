/**
 * Small files share process turns (pool.ts): many short texts queued together are parsed in one
 * turn of one process, each answered with its own text; a file that fails in a turn fails alone,
 * and the files behind it are parsed in a fresh process.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { cpuSeconds } from "../../src/ingest/cpu-limit.ts";
import { ExtractionPool } from "../../src/ingest/pool.ts";
import type { FileJob } from "../../src/ingest/types.ts";
import { scratch } from "./support.ts";

// Each test starts extraction processes, slow on a loaded machine.
setDefaultTimeout(300_000);

const tmp = scratch();
const limits = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
const WORDS = ["mitochondria", "ribosome", "lysosome", "chloroplast", "centriole", "vacuole", "nucleolus", "flagellum"];
const notes: string[] = [];
let bare = "";

beforeAll(async () => {
  for (const [i, word] of [...WORDS, ...WORDS].entries())
    notes.push(await tmp.write(`note-${i}.txt`, `Note ${i}\n\nA short abstract about the ${word}, number ${i}.\n`));
  // Detected as HTML, but no text in it: the extraction process answers NO_TEXT_FOUND.
  bare = await tmp.write(
    "bare.html",
    "<!DOCTYPE html><html><head><title></title></head><body><div></div></body></html>",
  );
});
afterAll(() => tmp.remove());

const job = (path: string, kind: FileJob["kind"] = "txt"): FileJob => ({
  path,
  filename: path.split("/").at(-1)!,
  kind,
  limits,
});

/** The extraction processes this test process runs now. */
function extractionProcesses(): number[] {
  return readdirSync(`/proc/${process.pid}/task`)
    .flatMap((task) => readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/))
    .filter(Boolean)
    .map(Number)
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("extract-worker"));
}

/** A process's soft CPU time limit in seconds (RLIMIT_CPU), null when unlimited. */
function softCpuLimit(pid: number): number | null {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max cpu time"))!;
  const soft = line.slice("Max cpu time".length).trim().split(/\s+/)[0]!;
  return soft === "unlimited" ? null : Number(soft);
}

const outcome = (p: Promise<{ markdown: string }>) =>
  p.then(
    (r) => ({ ok: true as const, markdown: r.markdown }),
    (e: unknown) => ({ ok: false as const, code: (e as { code: string }).code }),
  );

describe("small files in shared turns", () => {
  test("sixteen short texts queued together take two turns of one process, each with its own text", async () => {
    const pool = new ExtractionPool(1);
    try {
      const results = await Promise.all(notes.map((path) => pool.run(job(path), 60_000)));
      results.forEach((r, i) => {
        expect(r.markdown).toContain(`about the ${WORDS[i % WORDS.length]}, number ${i}.`);
      });
      // The first file starts at once; the fifteen queued behind it go as one turn.
      expect(pool.stats()).toMatchObject({ started: 1, turns: 2 });
    } finally {
      pool.close();
    }
  });

  test("a file that fails in a turn fails alone; the files behind it are parsed in a fresh process", async () => {
    const pool = new ExtractionPool(1);
    try {
      const paths = [...notes.slice(0, 4), bare, ...notes.slice(4, 8)];
      const kinds = paths.map((p) => (p === bare ? "html" : "txt") as FileJob["kind"]);
      const results = await Promise.all(paths.map((path, i) => outcome(pool.run(job(path, kinds[i]), 60_000))));
      expect(results[4]).toEqual({ ok: false, code: "NO_TEXT_FOUND" });
      for (const [i, r] of results.entries()) {
        if (i === 4) continue;
        const n = i < 4 ? i : i - 1;
        expect(r).toMatchObject({ ok: true });
        expect((r as { markdown: string }).markdown).toContain(`about the ${WORDS[n]}, number ${n}.`);
      }
      // The process that ran the failed file is replaced; the four files behind it went to a new one.
      expect(pool.stats().started).toBe(2);
    } finally {
      pool.close();
    }
  });

  test("a large file is never batched: it takes a turn of its own", async () => {
    const big = await tmp.write("big.txt", `${"A sentence about cells and their parts. ".repeat(8000)}\n`);
    const pool = new ExtractionPool(1);
    try {
      await Promise.all([
        pool.run(job(notes[0]!), 60_000),
        pool.run(job(big), 60_000),
        pool.run(job(notes[1]!), 60_000),
      ]);
      // The first note alone, then the large file alone, then the second note.
      expect(pool.stats().turns).toBe(3);
    } finally {
      pool.close();
    }
  });

  test("a process serves turn after turn of small files, and is replaced after its share of work", async () => {
    // Twenty small files' worth of work per process (a job counts as forty of them).
    const pool = new ExtractionPool(1, { recycleAfter: 0.5 });
    const round = (from: number) => Promise.all(notes.slice(from, from + 8).map((path) => pool.run(job(path), 60_000)));
    try {
      // Each round is a turn of one file, then one of the seven queued behind it.
      await round(0);
      await round(8);
      const [pid] = extractionProcesses();
      expect(pool.stats()).toMatchObject({ started: 1, turns: 4, processes: 1 });
      // The third round's second turn takes the process past twenty files: it goes after that turn.
      const third = await round(0);
      expect(third[7]!.markdown).toContain(`about the ${WORDS[7]}, number 7.`);
      expect(pool.stats()).toMatchObject({ started: 1, turns: 6, processes: 0 });
      await round(8);
      expect(pool.stats()).toMatchObject({ started: 2, turns: 8, processes: 1 });
      expect(extractionProcesses()).not.toContain(pid);
    } finally {
      pool.close();
    }
  });

  test("every turn of a reused process has the kernel's CPU ceiling of that turn's file", async () => {
    const pool = new ExtractionPool(1);
    try {
      await pool.run(job(notes[0]!), 60_000);
      const [pid] = extractionProcesses();
      const first = softCpuLimit(pid!);
      // Set to the CPU time used when the turn began plus its file's 60 s (the process's start since).
      expect(first).not.toBeNull();
      expect(first! - cpuSeconds(pid!)!).toBeGreaterThan(55);
      expect(first! - cpuSeconds(pid!)!).toBeLessThanOrEqual(61);
      await pool.run(job(notes[1]!), 200_000);
      // The same process, its ceiling set again for the new turn's 200 s.
      expect(extractionProcesses()).toEqual([pid!]);
      const second = softCpuLimit(pid!)!;
      expect(second - cpuSeconds(pid!)!).toBeGreaterThan(198);
      expect(second - cpuSeconds(pid!)!).toBeLessThanOrEqual(201);
    } finally {
      pool.close();
    }
  });
});
