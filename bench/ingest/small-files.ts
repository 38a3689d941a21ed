/**
 * Many small files: the SciFact abstracts (../shared/corpus/qa/scifact/corpus.jsonl), each written
 * to a .txt file, uploaded through POST /v2/documents/process ten to a request (the most one
 * request takes), `--clients` requests at a time, into a fresh server. Prints, as a table, the wall
 * time, the CPU time of the server and its extraction processes per abstract, the extraction
 * processes started and the largest resident memory one reached (read every 100 ms), and the ratio
 * to FTS5 indexing the same texts alone (one in-memory table, one transaction), which is the floor.
 *
 * `--profile DIR` writes CPU profiles (markdown) of the server and of each extraction process there.
 * `--server-root DIR` runs the server of another checkout (the code before a change, run beside
 * this one: on a shared machine only figures taken at the same time compare).
 *
 * Usage: bun bench/ingest/small-files.ts [--limit 5183] [--clients 4] [--profile DIR] [--server-root DIR]
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BUN, startServer } from "../../test/helpers/server.ts";
import { headersFor } from "../../test/reliability/harness.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    limit: { type: "string", default: "0" },
    clients: { type: "string", default: "4" },
    profile: { type: "string" },
    "server-root": { type: "string" },
  },
});
const CORPUS = resolve(import.meta.dir, "../../../shared/corpus/qa/scifact/corpus.jsonl");
const PER_REQUEST = 10;
const GOAL_SECONDS = 30;

interface Abstract {
  _id: string;
  title: string;
  text: string;
}

const all = readFileSync(CORPUS, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Abstract);
const abstracts = Number(values.limit) > 0 ? all.slice(0, Number(values.limit)) : all;
const clients = Math.max(1, Number(values.clients));
const texts = abstracts.map((a) => `${a.title}\n\n${a.text}\n`);

/** FTS5 alone: the same texts into one in-memory table in one transaction. */
function fts5Seconds(): number {
  const db = new Database(":memory:");
  db.run("CREATE VIRTUAL TABLE t USING fts5(body)");
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  const started = performance.now();
  db.transaction(() => {
    for (const text of texts) insert.run(text);
  })();
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return seconds;
}

/** [own, children's] CPU seconds of a process: utime + stime, and cutime + cstime (children waited for). */
function cpuOf(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return [(Number(f[11]) + Number(f[12])) / 100, (Number(f[13]) + Number(f[14])) / 100];
}

const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);

/** CPU seconds of the server, and of its extraction processes (and prlimit runs), ended or live. */
function serverCpu(pid: number): { server: number; children: number } {
  const [server, waited] = cpuOf(pid);
  let children = waited;
  for (const child of childrenOf(pid)) {
    try {
      const [own, theirs] = cpuOf(child);
      children += own + theirs;
    } catch {
      // Ended between the listing and the read: its time is in the server's cutime by now.
    }
  }
  return { server, children };
}

/** Extraction processes seen (by pid) and the largest resident memory one had, in MB. */
function watchExtraction(pid: number): { seen: Set<number>; peakMb: number; stop: () => void } {
  const watch = { seen: new Set<number>(), peakMb: 0, stop: () => clearInterval(timer) };
  const timer = setInterval(() => {
    for (const child of childrenOf(pid)) {
      try {
        if (!readFileSync(`/proc/${child}/cmdline`, "utf8").includes("extract-worker")) continue;
        watch.seen.add(child);
        const pages = Number(readFileSync(`/proc/${child}/statm`, "utf8").split(" ")[1]);
        watch.peakMb = Math.max(watch.peakMb, (pages * 4096) / (1024 * 1024));
      } catch {
        // Ended between the listing and the read.
      }
    }
  }, 100);
  return watch;
}

const dir = mkdtempSync(join(tmpdir(), "cf-small-files-"));
const paths = abstracts.map((a) => join(dir, `abstract-${a._id}.txt`));
await Promise.all(paths.map((path, i) => Bun.write(path, texts[i]!)));

// BUN_OPTIONS reaches the extraction processes too, which the server starts with its own executable.
const profile: Record<string, string> = values.profile
  ? { BUN_OPTIONS: `--cpu-prof --cpu-prof-md --cpu-prof-dir=${resolve(values.profile)}` }
  : {};
const root = values["server-root"] && resolve(values["server-root"]);
const srv = await startServer({
  env: { RATE_LIMIT_PER_MINUTE: "1000000", ...profile },
  ...(root ? { command: [BUN, join(root, "src/main.ts")], cwd: root } : {}),
});
let failed = 0;
let ready = 0;
const reasons = new Set<string>();
try {
  const key = await srv.createKey("bench", "production");
  const batches: string[][] = [];
  for (let i = 0; i < paths.length; i += PER_REQUEST) batches.push(paths.slice(i, i + PER_REQUEST));
  const before = serverCpu(srv.proc.pid);
  const extraction = watchExtraction(srv.proc.pid);
  const started = performance.now();
  let next = 0;
  const client = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const form = new FormData();
      for (const path of batch) form.append("files", Bun.file(path), path.slice(path.lastIndexOf("/") + 1));
      const res = await fetch(`${srv.url}/v2/documents/process`, {
        method: "POST",
        headers: headersFor(key, "reader"),
        body: form,
      });
      const body = (await res.json()) as {
        ready?: number;
        errored?: number;
        documents?: { error?: string }[];
        error?: { message: string };
      };
      const reason = body.error?.message ?? body.documents?.find((d) => d.error)?.error;
      if (reason) reasons.add(reason);
      if (res.status !== 200) failed += batch.length;
      else {
        ready += body.ready ?? 0;
        failed += body.errored ?? 0;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  const after = serverCpu(srv.proc.pid);
  extraction.stop();
  const perAbstract = (seconds: number) => ((seconds * 1000) / abstracts.length).toFixed(1);
  const fts = fts5Seconds();
  console.log(
    `\n| abstracts | requests at a time | ready | failed | seconds | CPU ms per abstract: server | extraction processes | processes started | largest process MB | FTS5 alone s | ratio to FTS5 | goal |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  const goal = (GOAL_SECONDS * abstracts.length) / all.length;
  console.log(
    `| ${abstracts.length} | ${clients} | ${ready} | ${failed} | ${seconds.toFixed(1)} | ${perAbstract(after.server - before.server)} | ${perAbstract(after.children - before.children)} | ${extraction.seen.size} | ${Math.round(extraction.peakMb)} | ${fts.toFixed(3)} | ${Math.round(seconds / fts)} | ≤ ${goal.toFixed(1)} s: ${seconds <= goal ? "met" : "NOT met"} |`,
  );
  for (const reason of reasons) console.log(`failed: ${reason}`);
  // An internal error's cause is in the server's log only.
  const errors = srv
    .output()
    .split("\n")
    .filter((l) => l.includes('"level":"error"'));
  if (errors.length > 0) console.log(`server errors (${errors.length}), the first: ${errors[0]}`);
} catch (err) {
  console.log(srv.output().slice(-4000));
  throw err;
} finally {
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
}
