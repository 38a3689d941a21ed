/**
 * Shared pieces of the reliability suite and bench/load: a server generating with the fake Ollama,
 * latency recording by operation, documents to upload, and read-only SQL on a data directory.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type FakeModel, type FakeModelOptions, startFakeModel } from "../helpers/fake-model.ts";
import { type StartOptions, startServer, type TestServer } from "../helpers/server.ts";

export const CORPUS = join(import.meta.dir, "../../../shared/corpus");

export interface LoadEnv extends FakeModel {
  srv: TestServer;
  /** A production key of tenant "acme". */
  key: string;
}

/**
 * The server under test, generating with a fake Ollama on loopback; the load's tenants bring their
 * own limits, and the others must never see a 429 however fast the machine.
 */
export async function loadEnv(opts: FakeModelOptions & { server?: StartOptions } = {}): Promise<LoadEnv> {
  const { server, ...modelOptions } = opts;
  const model = startFakeModel({
    ...modelOptions,
    latencyMs: opts.latencyMs ?? 5,
    env: { RATE_LIMIT_PER_MINUTE: "1000000", ...opts.env },
  });
  // A server process, as deployed: the load's clients and the fake do not share its thread.
  const srv = await startServer({ ...server, env: model.env }).catch(async (e) => {
    await model.stop();
    throw e;
  });
  return {
    ...model,
    srv,
    key: await srv.createKey("acme", "production"),
    async stop() {
      await srv.stop();
      await model.stop();
    },
  };
}

/** Lines of the server's output that report lock contention (which WAL + busy_timeout must prevent). */
export function busyLines(output: string): string[] {
  return output.split("\n").filter((l) => /SQLITE_BUSY|database is locked/i.test(l));
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface OpStats {
  op: string;
  requests: number;
  s5xx: number;
  s429: number;
  failed: number;
  p50: number;
  p95: number;
  p99: number;
  /** The slowest request: the longest an operation waited, which a stall of the server's thread sets. */
  max: number;
}

/** Status and latency of every request, by operation. `failed` counts requests that got no response. */
export class Recorder {
  private readonly ops = new Map<string, { ms: number[]; statuses: number[] }>();

  record(op: string, status: number, ms: number): void {
    const o = this.ops.get(op) ?? { ms: [], statuses: [] };
    this.ops.set(op, o);
    o.ms.push(ms);
    o.statuses.push(status);
  }

  statuses(op?: string): number[] {
    return [...this.ops.entries()].filter(([k]) => op === undefined || k === op).flatMap(([, v]) => v.statuses);
  }

  stats(): OpStats[] {
    return [...this.ops.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, { ms, statuses }]) => {
        const sorted = [...ms].sort((a, b) => a - b);
        return {
          op,
          requests: statuses.length,
          s5xx: statuses.filter((s) => s >= 500).length,
          s429: statuses.filter((s) => s === 429).length,
          failed: statuses.filter((s) => s === 0).length,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          max: sorted.at(-1) ?? 0,
        };
      });
  }

  table(): string {
    const rows = this.stats();
    const all = this.statuses();
    const line = (s: OpStats) =>
      `| ${s.op} | ${s.requests} | ${s.s5xx} | ${s.s429} | ${s.failed} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`;
    return [
      "| operation | requests | 5xx | 429 | no response | p50 ms | p95 ms | p99 ms | max ms |",
      "|---|---|---|---|---|---|---|---|---|",
      ...rows.map(line),
      `| all | ${all.length} | ${all.filter((s) => s >= 500).length} | ${all.filter((s) => s === 429).length} | ${all.filter((s) => s === 0).length} | | | | |`,
    ].join("\n");
  }
}

/** The slowest request of all operations, as "N ms (operation)". */
export function longest(rec: Recorder): string {
  const slowest = rec.stats().reduce<OpStats | null>((a, s) => (a && a.max >= s.max ? a : s), null);
  return slowest ? `${slowest.max.toFixed(0)} ms (${slowest.op})` : "no request";
}

/** A timed request: status 0 when the connection failed. */
export async function timed(
  rec: Recorder,
  op: string,
  send: () => Promise<Response>,
): Promise<{ status: number; body: any; headers: Headers | null }> {
  const started = performance.now();
  try {
    const res = await send();
    const text = await res.text();
    rec.record(op, res.status, performance.now() - started);
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, body, headers: res.headers };
  } catch {
    rec.record(op, 0, performance.now() - started);
    return { status: 0, body: null, headers: null };
  }
}

export function headersFor(key: string, user?: string, json = false): Record<string, string> {
  return {
    "x-api-key": key,
    ...(user ? { "x-external-user-id": user } : {}),
    ...(json ? { "content-type": "application/json" } : {}),
  };
}

export interface UploadDoc {
  name: string;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Small real documents, read once: a text PDF, a DOCX and two markdown notes. */
export async function sampleDocuments(): Promise<UploadDoc[]> {
  const read = (p: string) => Bun.file(join(CORPUS, p)).bytes();
  return [
    {
      name: "repair-estimate.pdf",
      type: "application/pdf",
      bytes: await read("pdf/REPAIR-2022-INV-001_multipage-tables.pdf"),
    },
    {
      name: "word-sample.docx",
      type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      bytes: await read("docx/docling-word_sample.docx"),
    },
    {
      name: "photosynthesis.md",
      type: "text/markdown",
      bytes: new TextEncoder().encode(
        "# Photosynthesis\n\nPlants convert light into chemical energy. Chlorophyll in the chloroplasts absorbs red and blue light.\n\n" +
          "## The Calvin cycle\n\nThe Calvin cycle fixes carbon dioxide into sugars using ATP and NADPH made by the light reactions.\n",
      ),
    },
    {
      name: "tides.md",
      type: "text/markdown",
      bytes: new TextEncoder().encode(
        "# Tides\n\nTides are caused by the gravitational pull of the Moon and the Sun on the oceans.\n\n" +
          "## Spring and neap tides\n\nSpring tides happen when the Sun, Moon and Earth line up; neap tides when they form a right angle.\n",
      ),
    },
  ];
}

export function uploadForm(docs: UploadDoc[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const d of docs) form.append("files", new Blob([d.bytes], { type: d.type }), d.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

/** Read-only SQL on a data directory's database (safe while the server runs: WAL readers do not block). */
export function withDb<T>(dataDir: string, fn: (db: Database) => T): T {
  const db = new Database(join(dataDir, "courseforge.db"), { readonly: true });
  try {
    db.run("PRAGMA busy_timeout = 5000");
    return fn(db);
  } finally {
    db.close();
  }
}

export async function waitUntil<T>(
  what: string,
  get: () => T | Promise<T>,
  done: (v: T) => boolean,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(v)}`);
    await Bun.sleep(everyMs);
  }
}
