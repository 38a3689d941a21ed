/**
 * The largest response the API can be asked for: one /v2/documents/extract request with ten 50 MB
 * text files (the 500 MB upload limit), whose answer carries all ten markdowns. Prints the
 * server's peak resident memory (VmHWM, which counts the database pages it maps) and its peak
 * anonymous memory (RssAnon, sampled every 50 ms), and the time taken.
 *
 * Usage: bun bench/load/extract-memory.ts [--files 10] [--mb 50]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startServer } from "../../test/helpers/server.ts";
import { headersFor } from "../../test/reliability/harness.ts";
import { bigText } from "../../test/reliability/hostile-files.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { files: { type: "string", default: "10" }, mb: { type: "string", default: "50" } },
});
const files = Number(values.files);
const mb = Number(values.mb);
if (!(files >= 1 && files <= 10 && mb > 0 && mb <= 50)) throw new Error("--files from 1 to 10, --mb up to 50");

const srv = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "1000000" } });
try {
  const key = await srv.createKey("bench", "production");
  const status = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${srv.proc.pid}/status`, "utf8"))![1]) / 1024;
  let peakAnon = 0;
  const sampler = setInterval(() => (peakAnon = Math.max(peakAnon, status("RssAnon"))), 50);
  const text = bigText(mb);
  const form = new FormData();
  for (let i = 0; i < files; i++) form.append("files", new Blob([text], { type: "text/plain" }), `text-${i}.txt`);
  const started = performance.now();
  const res = await fetch(`${srv.url}/v2/documents/extract`, {
    method: "POST",
    headers: headersFor(key, "reader"),
    body: form,
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  clearInterval(sampler);
  console.log(
    "\n| files | response | seconds | server peak RSS (VmHWM) | server peak anonymous RSS |\n|---|---|---|---|---|",
  );
  console.log(
    `| ${files} x ${mb} MB text | HTTP ${res.status}, ${(bytes / 1024 / 1024).toFixed(0)} MB | ${((performance.now() - started) / 1000).toFixed(0)} | ` +
      `${status("VmHWM").toFixed(0)} MB | ${peakAnon.toFixed(0)} MB |`,
  );
} finally {
  await srv.stop();
}
