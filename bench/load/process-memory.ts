/**
 * The server's memory while one tenant indexes one large text: a single /v2/documents/process
 * request with one `--mb` MB text file (the hostile bench's generator), the built-in embedder.
 * Samples the server's resident memory from /proc every 100 ms and prints its peak, split into
 * anonymous memory (JS heap, allocator, SQLite's caches) and file-backed pages (the database's
 * mapped pages, the executable), with the time each peak was reached.
 *
 * Usage: bun bench/load/process-memory.ts [--mb 50] [--trace]   (--trace prints a sample a second)
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startServer } from "../../test/helpers/server.ts";
import { headersFor } from "../../test/reliability/harness.ts";
import { bigText } from "../../test/reliability/hostile-files.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { mb: { type: "string", default: "50" }, trace: { type: "boolean", default: false } },
});
const mb = Number(values.mb);
if (!(mb > 0 && mb <= 50)) throw new Error("--mb up to 50");

// Memory is measured, not time: a loaded machine must not stop the 50 MB text at the tests' time limit.
const srv = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "1000000", INGEST_TIMEOUT_MS: "1200000" } });
try {
  const key = await srv.createKey("bench", "production");
  const field = (status: string, name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  const peak = { rss: 0, anon: 0, file: 0, rssAt: 0, anonAt: 0 };
  const started = performance.now();
  const base = field(readFileSync(`/proc/${srv.proc.pid}/status`, "utf8"), "VmRSS");
  let lastTrace = -1;
  const sampler = setInterval(() => {
    const status = readFileSync(`/proc/${srv.proc.pid}/status`, "utf8");
    const s = (performance.now() - started) / 1000;
    const [rss, anon, file] = [field(status, "VmRSS"), field(status, "RssAnon"), field(status, "RssFile")];
    if (rss > peak.rss) Object.assign(peak, { rss, rssAt: s });
    if (anon > peak.anon) Object.assign(peak, { anon, anonAt: s });
    peak.file = Math.max(peak.file, file);
    if (values.trace && Math.floor(s) > lastTrace) {
      lastTrace = Math.floor(s);
      console.log(
        `${s.toFixed(0)} s: RSS ${rss.toFixed(0)} MB (anonymous ${anon.toFixed(0)}, file ${file.toFixed(0)})`,
      );
    }
  }, 100);
  const form = new FormData();
  form.append("files", new Blob([bigText(mb)], { type: "text/plain" }), `big-${mb}mb.txt`);
  const res = await fetch(`${srv.url}/v2/documents/process`, {
    method: "POST",
    headers: headersFor(key, "reader"),
    body: form,
    timeout: false,
  } as RequestInit);
  const body = (await res.json()) as { documents?: { status: string; chunk_count?: number; error?: string }[] };
  clearInterval(sampler);
  const doc = body.documents?.[0];
  console.log(
    "\n| text | outcome | seconds | server RSS at start | peak RSS (at s) | peak anonymous (at s) | peak file-backed |\n|---|---|---|---|---|---|---|",
  );
  console.log(
    `| ${mb} MB | HTTP ${res.status}, ${doc?.status} ${doc?.chunk_count ?? doc?.error ?? ""} | ${((performance.now() - started) / 1000).toFixed(0)} | ` +
      `${base.toFixed(0)} MB | ${peak.rss.toFixed(0)} MB (${peak.rssAt.toFixed(0)}) | ${peak.anon.toFixed(0)} MB (${peak.anonAt.toFixed(0)}) | ${peak.file.toFixed(0)} MB |`,
  );
} finally {
  await srv.stop();
}
