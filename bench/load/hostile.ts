/**
 * A hostile tenant against a real server: it sends the worst inputs the upload limits allow (a 50 MB
 * text file, two PNGs declaring 25000 x 25000 pixels, a DOCX with 120 MB of XML, one whose zip
 * directory lies, PDFs whose drawings nest exponentially) while clients of other tenants read
 * /health and their documents and upload small notes. Prints the other tenants' latency per
 * operation (with the slowest request, which a stall of the server's thread sets), what became of
 * each hostile file, and the server's peak memory, as markdown tables. Then the heavy tenant's two
 * scenarios of #32 on the same server (heavy-scenarios.ts): a 20-chapter course from a 3.8 MB book
 * while others read, and another tenant's first course behind a 12-course backlog.
 *
 * Usage: bun bench/load/hostile.ts [--clients 6] [--text-mb 50] [--book-mb 3.8] [--backlog 12] [--timeout-s 280]
 * (--timeout-s is the server's INGEST_TIMEOUT_MS: on a loaded machine the 50 MB text needs longer
 * than the tests' 280 s to be indexed, and its peak memory comes after that)
 */
import { parseArgs } from "node:util";
import { call, startServer } from "../../test/helpers/server.ts";
import { headersFor, longest, Recorder, timed } from "../../test/reliability/harness.ts";
import { bigText, docxLyingAboutSizes, docxWithXml, hugePng, nestedPdf } from "../../test/reliability/hostile-files.ts";
import { backlogThenAnother, bigBookCourse, peakMb } from "./heavy-scenarios.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    clients: { type: "string", default: "6" },
    "text-mb": { type: "string", default: "50" },
    "book-mb": { type: "string", default: "3.8" },
    backlog: { type: "string", default: "12" },
    "timeout-s": { type: "string", default: "280" },
  },
});
const clients = Number(values.clients);
const textMb = Number(values["text-mb"]);
if (!(clients > 0 && clients <= 64 && textMb > 0 && textMb <= 50))
  throw new Error("--clients from 1 to 64, --text-mb from 1 to 50");

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const png = hugePng(25_000);
const pdf = nestedPdf(12, 4, 600);
/** One request each, sent at once, as the red team did. */
const hostileRequests = [
  [{ name: `big-${textMb}mb.txt`, type: "text/plain", bytes: bigText(textMb) }],
  [
    { name: "wall-1.png", type: "image/png", bytes: png },
    { name: "wall-2.png", type: "image/png", bytes: png },
  ],
  [
    { name: "honest-120mb-xml.docx", type: DOCX, bytes: docxWithXml(120) },
    { name: "lying-directory.docx", type: DOCX, bytes: docxLyingAboutSizes(12) },
  ],
  [1, 2, 3, 4].map((n) => ({ name: `nested-${n}.pdf`, type: "application/pdf", bytes: pdf })),
];

const CONCURRENCY = 2;
const srv = await startServer({
  env: {
    RATE_LIMIT_PER_MINUTE: "1000000",
    JOB_CONCURRENCY: String(CONCURRENCY),
    INGEST_TIMEOUT_MS: String(Number(values["timeout-s"]) * 1000),
  },
});
try {
  const hostileKey = await srv.createKey("hostile", "production");
  const others = await Promise.all(["tenant-b", "tenant-c", "tenant-d"].map((t) => srv.createKey(t, "production")));
  for (const key of others) await call(srv.url, "/v2/users", { key, json: { external_id: "reader" } });

  const rec = new Recorder();
  const outcomes: { file: string; status: string; detail: string; seconds: number }[] = [];
  let hostileDone = false;
  const started = performance.now();
  const hostileRun = Promise.all(
    hostileRequests.map(async (files) => {
      const form = new FormData();
      for (const f of files) form.append("files", new Blob([f.bytes], { type: f.type }), f.name);
      const res = await fetch(`${srv.url}/v2/documents/process`, {
        method: "POST",
        headers: headersFor(hostileKey, "attacker"),
        body: form,
        // Bun's fetch gives up after 300 s; the 50 MB text takes longer than that on a loaded machine.
        timeout: false,
      } as RequestInit);
      const seconds = (performance.now() - started) / 1000;
      const body = (await res.json()) as {
        documents?: { filename: string; status: string; error?: string; chunk_count?: number }[];
        error?: { message: string };
      };
      if (!body.documents)
        outcomes.push({
          file: files.map((f) => f.name).join(", "),
          status: `HTTP ${res.status}`,
          detail: body.error?.message ?? "",
          seconds,
        });
      for (const d of body.documents ?? []) {
        outcomes.push({ file: d.filename, status: d.status, detail: d.error ?? `${d.chunk_count} chunks`, seconds });
      }
    }),
  ).finally(() => (hostileDone = true));

  const note = new TextEncoder().encode(
    "# Tides\n\nThe Moon pulls the oceans; spring tides follow new and full moons.\n",
  );
  const client = async (i: number) => {
    const key = others[i % others.length]!;
    for (let n = 0; !hostileDone; n++) {
      await timed(rec, "GET /health", () => fetch(`${srv.url}/health`));
      await timed(rec, "GET /v2/documents", () =>
        fetch(`${srv.url}/v2/documents?limit=5`, { headers: headersFor(key, "reader") }),
      );
      if (n % 10 === 0) {
        const form = new FormData();
        form.append("files", new Blob([note], { type: "text/markdown" }), "tides.md");
        await timed(rec, "POST /v2/documents/process (small note)", () =>
          fetch(`${srv.url}/v2/documents/process`, { method: "POST", headers: headersFor(key, "reader"), body: form }),
        );
      }
      await Bun.sleep(50);
    }
  };
  await Promise.all([hostileRun, ...Array.from({ length: clients }, (_, i) => client(i))]);

  console.log(
    `\nHostile tenant: ${hostileRequests.flat().length} files in ${hostileRequests.length} requests, while ${clients} clients of 3 other tenants read and upload notes ` +
      `(${navigator.hardwareConcurrency} cores, clients and server on the same machine)\n`,
  );
  console.log("Other tenants:\n");
  console.log(rec.table());
  console.log(`\nlongest wait of another tenant's request: ${longest(rec)}`);
  console.log("\nHostile files:\n\n| file | status | error or chunks | answered after s |\n|---|---|---|---|");
  for (const o of outcomes)
    console.log(`| ${o.file} | ${o.status} | ${o.detail.replace(/\|/g, "\\|")} | ${o.seconds.toFixed(1)} |`);
  console.log(
    `\nserver peak RSS (VmHWM): ${peakMb(srv).toFixed(0)} MB; server still up: ${(await fetch(`${srv.url}/health`)).status === 200}`,
  );

  console.log("\nThe heavy tenant (#32): a big course while others read");
  await bigBookCourse(srv, hostileKey, others, { mb: Number(values["book-mb"]), clients });
  console.log("Another tenant's first course behind the heavy tenant's backlog\n");
  await backlogThenAnother(srv, hostileKey, others[0]!, { backlog: Number(values.backlog), concurrency: CONCURRENCY });
} finally {
  await srv.stop();
}
