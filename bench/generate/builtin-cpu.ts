/**
 * CPU time of a course built by the built-in engine from a long book, through the real server
 * (stream mode): the server's CPU from the source's `document` event (ingest done) to `completed`,
 * split by thread, the server's thread against the extractive engine's, and by stage (planning to
 * the outline, the chapters, the rest: the study guide and the course's completion). CPU time, not wall time,
 * so the figure holds on a machine shared with other work. Default book: a DEV-half 300-page PDF.
 * Also prints a digest of the course as GET /v2/courses/{id} shows it, ids and times left out: a
 * change made for speed must leave it as it was.
 *
 *   bun bench/generate/builtin-cpu.ts [--book ../shared/corpus/books/cphb-competitive-programmers-handbook.pdf] [--chapters 6] [--save course.json]
 *
 * `--save` writes the course as digested, to compare two runs whose digests differ.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, startServer } from "../../test/helpers/server.ts";

const { values } = parseArgs({
  options: {
    book: {
      type: "string",
      default: resolve(ROOT, "../shared/corpus/books/cphb-competitive-programmers-handbook.pdf"),
    },
    chapters: { type: "string", default: "6" },
    save: { type: "string" },
  },
});
const book = resolve(values.book!);
const chapters = Number(values.chapters);

/** `value` without what differs between two builds of the same course: ids, times, usage. */
const lasting = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(lasting)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([k]) => !/(^id$|_ids?$|_at$|^usage$)/.test(k))
            .map(([k, v]) => [k, lasting(v)]),
        )
      : value;

const TICKS = 100; // USER_HZ: /proc reports CPU in clock ticks.

/** CPU seconds per thread of a process, by thread id, with each thread's name. */
function threadCpu(pid: number): Map<string, { name: string; seconds: number }> {
  const out = new Map<string, { name: string; seconds: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const name = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
      out.set(tid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** CPU of the threads besides the server's and the engine's, summed by thread name, busiest first. */
function otherThreads(spent: { tid: string; name: string; seconds: number }[], skip: string[]): [string, number][] {
  const byName = new Map<string, number>();
  for (const t of spent.filter((t) => !skip.includes(t.tid))) byName.set(t.name, (byName.get(t.name) ?? 0) + t.seconds);
  return [...byName].filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]);
}

const srv = await startServer({ env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "100000" } });
const pid = srv.proc.pid;
try {
  const key = await srv.createKey("bench", "production");
  const form = new FormData();
  form.append("files", new Blob([readFileSync(book)]), basename(book));
  form.append("num_chapters", String(chapters));
  const started = performance.now();
  const res = await srv.fetch("/v2/courses/generate-from-files?mode=stream", {
    method: "POST",
    headers: { "x-api-key": key, "x-external-user-id": "bench" },
    body: form,
  });
  if (res.status !== 200) throw new Error(`generation refused: ${res.status} ${await res.text()}`);
  let ingested: Map<string, { name: string; seconds: number }> | null = null;
  let ingestWall = 0;
  let done: Map<string, { name: string; seconds: number }> | null = null;
  let outlined: Map<string, { name: string; seconds: number }> | null = null;
  let written: Map<string, { name: string; seconds: number }> | null = null;
  let courseId = "";
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = /^event: (\S+)/m.exec(buffer.slice(0, end))?.[1];
      const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      if (event === "document" && !ingested) {
        ingested = threadCpu(pid);
        ingestWall = performance.now();
      }
      if (event === "outline") outlined = threadCpu(pid);
      // The last chapter's completion ends the chapters' stage; the study guide follows.
      if (event === "chapter" && data?.includes('"status":"completed"')) written = threadCpu(pid);
      if (event === "failed") throw new Error("the course failed");
      if (event === "completed") {
        done = threadCpu(pid);
        courseId = JSON.parse(data ?? "{}").course_id ?? "";
      }
    }
  }
  if (!ingested || !done || !outlined || !written)
    throw new Error("the stream ended without a document, an outline, a chapter and a completed event");
  const wall = (performance.now() - ingestWall) / 1000;
  const before = ingested;
  // The server's thread is the one whose id is the process id; the engine's is its one busy worker.
  const spent = [...done].map(([tid, t]) => ({
    tid,
    name: t.name,
    seconds: t.seconds - (before.get(tid)?.seconds ?? 0),
  }));
  const main = spent.find((t) => t.tid === String(pid))?.seconds ?? 0;
  const total = spent.reduce((a, t) => a + t.seconds, 0);
  const busiest = spent.filter((t) => t.tid !== String(pid)).sort((a, b) => b.seconds - a.seconds)[0];
  console.log(
    `\n${chapters}-chapter course from ${basename(book)} with the built-in engine, after ingest (total ${((ingestWall - started) / 1000).toFixed(1)} s wall for ingest)\n`,
  );
  console.log("| measure | value |\n|---|---|");
  console.log(`| server CPU, all threads | ${total.toFixed(2)} s |`);
  console.log(`| server's own thread | ${main.toFixed(2)} s |`);
  console.log(`| busiest other thread (${busiest?.name ?? "-"}) | ${(busiest?.seconds ?? 0).toFixed(2)} s |`);
  for (const [name, seconds] of otherThreads(spent, [String(pid), busiest?.tid ?? ""]))
    console.log(`| of which ${name} threads | ${seconds.toFixed(2)} s |`);
  console.log(`| wall | ${wall.toFixed(2)} s |`);
  console.log("\n| stage | server CPU | engine's thread |\n|---|---|---|");
  const stages: [
    string,
    Map<string, { name: string; seconds: number }>,
    Map<string, { name: string; seconds: number }>,
  ][] = [
    ["plan and outline", before, outlined],
    ["chapters", outlined, written],
    ["study guide and completion", written, done],
  ];
  const engine = busiest?.tid ?? "";
  for (const [stage, from, to] of stages) {
    const cpu = (tid?: string) =>
      [...to]
        .filter(([t]) => tid === undefined || t === tid)
        .reduce((a, [t, v]) => a + v.seconds - (from.get(t)?.seconds ?? 0), 0);
    console.log(`| ${stage} | ${cpu().toFixed(2)} s | ${cpu(engine).toFixed(2)} s |`);
  }
  const course = await srv.fetch(`/v2/courses/${courseId}`, {
    headers: { "x-api-key": key, "x-external-user-id": "bench" },
  });
  const shown = JSON.stringify(lasting(await course.json()), null, 1);
  if (values.save) await Bun.write(values.save, shown);
  const digest = createHash("sha1").update(shown).digest("hex");
  console.log(`\ncourse digest (GET /v2/courses/{id}, ids and times left out): ${digest.slice(0, 12)}`);
} finally {
  await srv.stop();
}
