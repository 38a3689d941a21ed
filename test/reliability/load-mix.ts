/**
 * The mixed load of the reliability suite and bench/load: concurrent clients of several tenants
 * reading courses and progress, querying indexed documents, uploading small documents and starting
 * topic courses (generated against the fake Ollama), plus clients hammering one rate-limited tenant
 * with two keys. Every request is timed and its status kept, so callers can assert and print.
 */
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { createKey, ensureTenant } from "../../src/tenants/keys.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { headersFor, Recorder, sampleDocuments, timed, uploadForm } from "./harness.ts";

export interface LoadOptions {
  url: string;
  dataDir: string;
  /** Clients of the unlimited tenants. */
  clients: number;
  /** Clients of the rate-limited tenant (two keys, one tenant limit). */
  limitedClients: number;
  /** The limited tenant's requests per minute. */
  limit: number;
  durationMs: number;
  /**
   * Past `durationMs`, the load goes on until this says it has shown what the caller checks (each
   * operation answered, the limit reached), however slow the machine, for at most `maxDurationMs`.
   */
  until?: (sofar: Pick<LoadResult, "rec" | "windows" | "generated">) => boolean;
  maxDurationMs?: number;
  tenants?: number;
  usersPerTenant?: number;
}

export interface RateWindow {
  /** X-RateLimit-Reset of the window (Unix seconds). */
  reset: number;
  allowed: number;
  limited: number;
}

export interface LoadResult {
  rec: Recorder;
  /** The limited tenant's outcomes by window. */
  windows: RateWindow[];
  /** 429s received by the unlimited tenants (must be none). */
  unexpected429: number;
  /** Requests whose status the mix did not expect (op and status), e.g. a 404 on one's own course. */
  unexpected: { op: string; status: number; body: unknown }[];
  generated: number;
}

interface Tenant {
  key: string;
  users: string[];
  courses: Map<string, string[]>;
  documentIds: string[];
  jobs: { id: string; courseId: string; user: string }[];
}

const TOPICS = [
  "Photosynthesis and the Calvin cycle",
  "Ocean tides",
  "Binary search trees",
  "The water cycle",
  "Roman aqueducts",
];
const QUESTIONS = [
  "What does chlorophyll absorb?",
  "What causes spring tides?",
  "Which fixes carbon dioxide?",
  "What is on the repair estimate?",
];

/** Weighted operations of an unlimited client; weights sum to 100. */
const MIX: [op: string, weight: number][] = [
  ["list courses", 25],
  ["get course", 20],
  ["progress", 15],
  ["query documents", 24],
  ["get job", 9],
  ["generate course", 3],
  ["process document", 4],
];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

function pickOp(): string {
  let r = Math.random() * 100;
  for (const [op, w] of MIX) {
    r -= w;
    if (r < 0) return op;
  }
  return MIX[0]![0];
}

/** Tenants with keys, learners with a few courses each, and indexed documents for queries. */
async function prepare(opts: LoadOptions): Promise<{ tenants: Tenant[]; limitedKeys: string[] }> {
  const { sqlite } = await openDb(opts.dataDir, { migrate: false });
  const db = sqliteSql(sqlite);
  const tenants: Tenant[] = [];
  let limitedKeys: string[];
  try {
    for (let t = 0; t < (opts.tenants ?? 3); t++) {
      const key = (await createKey(db, { tenant: `load-${t}`, env: "production" })).key;
      const users = Array.from({ length: opts.usersPerTenant ?? 8 }, (_, u) => `learner-${t}-${u}`);
      tenants.push({ key, users, courses: new Map(), documentIds: [], jobs: [] });
    }
    await ensureTenant(db, "limited", opts.limit);
    limitedKeys = [
      (await createKey(db, { tenant: "limited", env: "production" })).key,
      (await createKey(db, { tenant: "limited", env: "production" })).key,
    ];
  } finally {
    sqlite.close();
  }
  for (const tenant of tenants) {
    for (const user of tenant.users) {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          await insertCourse(
            opts.dataDir,
            { apiKey: tenant.key, externalUserId: user },
            { title: `${user} course ${i}` },
          ),
        );
      tenant.courses.set(user, ids);
    }
  }
  const docs = await sampleDocuments();
  for (const tenant of tenants) {
    const res = await fetch(`${opts.url}/v2/documents/process`, {
      method: "POST",
      headers: headersFor(tenant.key, tenant.users[0]),
      body: uploadForm(docs),
    });
    const body = (await res.json()) as { documents?: { id: string; status: string }[] };
    if (res.status !== 200)
      throw new Error(`document processing failed before the load: ${res.status} ${JSON.stringify(body)}`);
    tenant.documentIds = body.documents!.filter((d) => d.status === "ready").map((d) => d.id);
  }
  return { tenants, limitedKeys };
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const { tenants, limitedKeys } = await prepare(opts);
  const rec = new Recorder();
  const windows = new Map<number, RateWindow>();
  const unexpected: LoadResult["unexpected"] = [];
  let unexpected429 = 0;
  let generated = 0;
  const started = Date.now();
  const going = () => {
    const elapsed = Date.now() - started;
    if (elapsed < opts.durationMs) return true;
    if (!opts.until || elapsed >= (opts.maxDurationMs ?? opts.durationMs)) return false;
    return !opts.until({ rec, windows: [...windows.values()], generated });
  };
  const note = (op: string, r: { status: number; body: unknown }, ok: number[]) => {
    if (r.status === 429) unexpected429++;
    else if (!ok.includes(r.status)) unexpected.push({ op, status: r.status, body: r.body });
  };

  async function one(tenant: Tenant): Promise<void> {
    const op = pickOp();
    const user = pick(tenant.users);
    const url = opts.url;
    switch (op) {
      case "list courses": {
        note(
          op,
          await timed(rec, op, () => fetch(`${url}/v2/courses?limit=20`, { headers: headersFor(tenant.key, user) })),
          [200],
        );
        return;
      }
      case "get course": {
        const id = pick(tenant.courses.get(user)!);
        note(
          op,
          await timed(rec, op, () => fetch(`${url}/v2/courses/${id}`, { headers: headersFor(tenant.key, user) })),
          [200],
        );
        return;
      }
      case "progress": {
        const id = pick(tenant.courses.get(user)!);
        note(
          op,
          await timed(rec, op, () =>
            fetch(`${url}/v2/courses/${id}/progress`, { headers: headersFor(tenant.key, user) }),
          ),
          [200],
        );
        return;
      }
      case "get job": {
        const job = tenant.jobs.length > 0 ? pick(tenant.jobs) : null;
        if (!job) return;
        note(
          op,
          await timed(rec, op, () => fetch(`${url}/v2/jobs/${job.id}`, { headers: headersFor(tenant.key, job.user) })),
          [200],
        );
        return;
      }
      case "query documents": {
        const body = JSON.stringify({ question: pick(QUESTIONS), document_ids: tenant.documentIds, top_k: 5 });
        const owner = tenant.users[0]!;
        note(
          op,
          await timed(rec, op, () =>
            fetch(`${url}/v2/documents/query`, { method: "POST", headers: headersFor(tenant.key, owner, true), body }),
          ),
          [200],
        );
        return;
      }
      case "generate course": {
        const body = JSON.stringify({ topic: pick(TOPICS), num_chapters: 2 });
        const r = await timed(rec, op, () =>
          fetch(`${url}/v2/courses/generate?mode=async`, {
            method: "POST",
            headers: headersFor(tenant.key, user, true),
            body,
          }),
        );
        note(op, r, [202]);
        if (r.status === 202 && r.body?.id) {
          generated++;
          tenant.jobs.push({ id: r.body.id, courseId: r.body.course_id, user });
          tenant.courses.get(user)!.push(r.body.course_id);
        }
        return;
      }
      case "process document": {
        const owner = tenant.users[0]!;
        const text = `# Note ${crypto.randomUUID()}\n\nA short note about ${pick(TOPICS)} written during the load test.\n`;
        const form = uploadForm([{ name: "note.md", type: "text/markdown", bytes: new TextEncoder().encode(text) }]);
        note(
          op,
          await timed(rec, op, () =>
            fetch(`${url}/v2/documents/process`, {
              method: "POST",
              headers: headersFor(tenant.key, owner),
              body: form,
            }),
          ),
          [200],
        );
        return;
      }
    }
  }

  async function limitedOne(key: string): Promise<void> {
    const r = await timed(rec, "rate-limited tenant", () =>
      fetch(`${opts.url}/v2/courses?limit=5`, { headers: headersFor(key, "limited-learner") }),
    );
    const reset = Number(r.headers?.get("x-ratelimit-reset"));
    if (!r.headers || !Number.isFinite(reset)) return;
    const w = windows.get(reset) ?? { reset, allowed: 0, limited: 0 };
    windows.set(reset, w);
    if (r.status === 429) w.limited++;
    else w.allowed++;
  }

  const loops: Promise<void>[] = [];
  for (let c = 0; c < opts.clients; c++) {
    const tenant = tenants[c % tenants.length]!;
    loops.push(
      (async () => {
        while (going()) await one(tenant);
      })(),
    );
  }
  for (let c = 0; c < opts.limitedClients; c++) {
    const key = limitedKeys[c % limitedKeys.length]!;
    loops.push(
      (async () => {
        // Paced, so that the limited tenant's traffic does not crowd out the rest of the mix.
        while (going()) {
          await limitedOne(key);
          await Bun.sleep(20);
        }
      })(),
    );
  }
  await Promise.all(loops);
  return {
    rec,
    windows: [...windows.values()].sort((a, b) => a.reset - b.reset),
    unexpected429,
    unexpected,
    generated,
  };
}
