/**
 * The heavy tenant's two scenarios of #32, run against a real server by heavy-tenant.ts and
 * hostile.ts (built-in engine):
 *  1. One tenant builds a 20-chapter course from a 3.8 MB book while clients of other tenants read
 *     /health and their course list: their latency, the build's time, the server's peak memory.
 *  2. One tenant queues a backlog of courses from a real book (the GNU Bash manual, 4 chapters
 *     each), then another tenant asks for one: how long the second tenant's job waited to be
 *     claimed, against how long one of the backlog's jobs ran; both read from the jobs' own
 *     created/started/finished times (GET /v2/jobs/{id}).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { call, ROOT, type TestServer } from "../../test/helpers/server.ts";
import { headersFor, longest, Recorder, timed } from "../../test/reliability/harness.ts";
import { bigText } from "../../test/reliability/hostile-files.ts";

const BACKLOG_BOOK = join(ROOT, "../shared/corpus/books/gnu-bash-reference-manual.html");

/** A book: the big text cut into parts and sections, so planning has a structure to follow. */
function book(mb: number): Uint8Array {
  const paragraphs = new TextDecoder().decode(bigText(mb)).split("\n\n").filter(Boolean);
  const out: string[] = ["# A very long handbook"];
  paragraphs.forEach((p, i) => {
    if (i % 400 === 0) out.push(`## Part ${i / 400 + 1}`);
    if (i % 40 === 0) out.push(`### Section ${i / 40 + 1}`);
    out.push(p);
  });
  return new TextEncoder().encode(out.join("\n\n"));
}

function form(name: string, bytes: Uint8Array, type: string, chapters: number): FormData {
  const f = new FormData();
  f.append("files", new Blob([bytes.slice()], { type }), name);
  f.append("num_chapters", String(chapters));
  return f;
}

export const peakMb = (srv: TestServer) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${srv.proc.pid}/status`, "utf8"))![1]) / 1024;

/** Scenario 1; `readers` are keys of other tenants, each with a learner "reader". */
export async function bigBookCourse(
  srv: TestServer,
  heavy: string,
  readers: string[],
  opts: { mb: number; clients: number },
): Promise<void> {
  const bytes = book(opts.mb);
  const rec = new Recorder();
  let building = true;
  const t0 = performance.now();
  const build = call(srv.url, "/v2/courses/generate-from-files?mode=sync", {
    key: heavy,
    user: "author",
    body: form("handbook.md", bytes, "text/markdown", 20),
  }).finally(() => {
    building = false;
  });
  const client = async (i: number) => {
    const key = readers[i % readers.length]!;
    while (building) {
      await timed(rec, "GET /health", () => fetch(`${srv.url}/health`));
      await timed(rec, "GET /v2/courses", () =>
        fetch(`${srv.url}/v2/courses?limit=5`, { headers: headersFor(key, "reader") }),
      );
      await Bun.sleep(50);
    }
  };
  await Promise.all([build, ...Array.from({ length: opts.clients }, (_, i) => client(i))]);
  const built = await build;
  console.log(
    `\nA ${(bytes.length / 1e6).toFixed(1)} MB book into a 20-chapter course (HTTP ${built.status}, ${((performance.now() - t0) / 1000).toFixed(0)} s) while ${opts.clients} clients of other tenants read (${navigator.hardwareConcurrency} cores, clients and server on one machine)\n`,
  );
  console.log(rec.table());
  console.log(
    `\nlongest wait of another tenant's request: ${longest(rec)}; server peak RSS (VmHWM) so far: ${peakMb(srv).toFixed(0)} MB; goal: others' p95 < 100 ms\n`,
  );
}

interface JobTimes {
  status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/** Scenario 2: `backlog` courses of `heavy`, then one of `other`; returns the wait and a job's median run. */
export async function backlogThenAnother(
  srv: TestServer,
  heavy: string,
  other: string,
  opts: { backlog: number; concurrency: number },
): Promise<{ waited: number; medianJob: number }> {
  const bytes = new Uint8Array(readFileSync(BACKLOG_BOOK));
  const ask = async (key: string, n: number) => {
    const r = await call(srv.url, "/v2/courses/generate-from-files", {
      key,
      user: "author",
      body: form(`bash-${n}.html`, bytes, "text/html", 4),
    });
    if (r.status !== 202) throw new Error(`course request: HTTP ${r.status} ${r.text}`);
    return { key, job: r.body.id as string };
  };
  const jobs: { key: string; job: string }[] = [];
  for (let n = 0; n < opts.backlog; n++) jobs.push(await ask(heavy, n));
  const mine = await ask(other, 99);
  const timesOf = async ({ key, job }: { key: string; job: string }) =>
    (await call(srv.url, `/v2/jobs/${job}`, { key, user: "author" })).body as JobTimes;
  const all = [...jobs, mine];
  for (;;) {
    const times = await Promise.all(all.map(timesOf));
    if (times.every((t) => t.finished_at !== null)) break;
    await Bun.sleep(500);
  }
  const backlogTimes = await Promise.all(jobs.map(timesOf));
  const own = await timesOf(mine);
  const runs = backlogTimes.map((t) => seconds(t.started_at!, t.finished_at!)).sort((a, b) => a - b);
  const medianJob = runs[Math.floor(runs.length / 2)]!;
  const waited = seconds(own.created_at, own.started_at!);
  console.log(
    `${opts.backlog} queued courses of one tenant (the Bash manual, 4 chapters each), then one of another (JOB_CONCURRENCY ${opts.concurrency})\n`,
  );
  console.log("| measure | seconds |\n|---|---|");
  console.log(`| other tenant's job: claimed after | ${waited.toFixed(1)} |`);
  console.log(`| other tenant's job: ran for | ${seconds(own.started_at!, own.finished_at!).toFixed(1)} |`);
  console.log(
    `| a backlog job: ran for (median, min-max) | ${medianJob.toFixed(1)} (${runs[0]!.toFixed(1)}-${runs.at(-1)!.toFixed(1)}) |`,
  );
  console.log(
    `| backlog: all done after | ${seconds(
      backlogTimes[0]!.created_at,
      backlogTimes
        .map((t) => t.finished_at!)
        .sort()
        .at(-1)!,
    ).toFixed(1)} |`,
  );
  console.log(
    `\ngoal: claimed within one job's duration (${own.status}); server peak RSS (VmHWM): ${peakMb(srv).toFixed(0)} MB\n`,
  );
  return { waited, medianJob };
}
