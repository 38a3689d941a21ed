/**
 * Small files share process turns (pool.ts): many short texts queued together are parsed in one
 * turn of one process, each answered with its own text; a file that fails in a turn fails alone,
 * and the files behind it are parsed in a fresh process.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
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
});
