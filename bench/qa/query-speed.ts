/**
 * CPU per document query through HTTP with 5,000 documents indexed (#29).
 * Usage: bun bench/qa/query-speed.ts [--documents 5000] [--queries 200] [--corpus DIR]
 *
 * Indexes the first `--documents` SciFact abstracts (../shared/corpus/qa/scifact) in one space of
 * an in-process server, then asks its first `--queries` claims through POST /v2/documents/query
 * over that space, one at a time. Each query's cost is the process's CPU time across the request
 * (server and client together, the client's part is small): wall time on a machine shared with
 * other work measures the others. Prints p50, p95 and the mean; the goal is p95 ≤ 30 ms. Also
 * prints a digest of every answer and its sources' text: a change made for speed must leave it as it was.
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { SqliteSql } from "../../src/db/sql.ts";
import { createDocumentRecord, markDocumentReady } from "../../src/documents/records.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import { indexDocument } from "../../src/retrieval/index.ts";
import { newId, nowIso } from "../../src/util.ts";
import { startApp } from "../../test/helpers/app.ts";
import { call } from "../../test/helpers/server.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    documents: { type: "string", default: "5000" },
    queries: { type: "string", default: "200" },
    corpus: { type: "string", default: resolve(import.meta.dir, "../../../shared/corpus/qa/scifact") },
  },
});

const jsonl = async <T>(path: string): Promise<T[]> =>
  (await Bun.file(path).text())
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const corpus = (await jsonl<{ _id: string; title: string; text: string }>(join(values.corpus, "corpus.jsonl"))).slice(
  0,
  Number(values.documents),
);
const claims = (await jsonl<{ text: string }>(join(values.corpus, "queries.jsonl"))).slice(0, Number(values.queries));

const SPACE = "speed";
const srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "1000000" } });
try {
  const key = await srv.createKey("speed", "production");
  // The documents belong to the caller the queries name (X-User-Id "reader").
  const sqlite = (srv.svc.sql as SqliteSql).db;
  const tenantId = sqlite.query<{ id: string }, []>("SELECT id FROM tenants WHERE name = 'speed'").get()!.id;
  const owner = { tenantId, userId: newId() };
  sqlite.run("INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (?, ?, 'reader', ?)", [
    owner.userId,
    tenantId,
    nowIso(),
  ]);
  const deps = { sqlite, sql: srv.svc.sql, embedder: srv.svc.embedder };
  for (const d of corpus) {
    const extract = resultOfMarkdown(`# ${d.title}\n\n${d.text}`, { title: d.title });
    const documentId = await createDocumentRecord(deps.sql, owner, {
      filename: `${d._id}.md`,
      sourceType: "file",
      spaceId: SPACE,
    });
    const { chunkCount } = await indexDocument(deps, { ...owner, documentId, extract, spaceId: SPACE });
    await markDocumentReady(deps.sql, documentId, {
      blobKey: null,
      mimeType: extract.mimeType,
      pages: 1,
      markdown: extract.markdown,
      title: extract.title,
      chunkCount,
    });
  }
  const ask = (question: string) =>
    call(srv, "/v2/documents/query", { key, user: "reader", json: { question, space_id: SPACE } });
  await ask(claims[0]!.text);
  const costs: number[] = [];
  const digest = createHash("sha1");
  for (const c of claims) {
    const before = process.cpuUsage();
    const res = await ask(c.text);
    const used = process.cpuUsage(before);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 200)}`);
    costs.push((used.user + used.system) / 1000);
    // Ids are new at every run: the answer and its sources' text and scores are what must not change.
    const sources = (res.body.sources as { text: string; score: number }[]).map((x) => [x.text, x.score]);
    digest.update(JSON.stringify([res.body.answer, sources]));
  }
  costs.sort((a, b) => a - b);
  const at = (q: number) => costs[Math.min(costs.length - 1, Math.floor(q * costs.length))]!.toFixed(1);
  const mean = (costs.reduce((s, x) => s + x, 0) / costs.length).toFixed(1);
  console.log(
    `POST /v2/documents/query over ${corpus.length} documents, ${costs.length} questions: CPU per query p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, mean ${mean} ms (goal p95 ≤ 30 ms); answers digest ${digest.digest("hex").slice(0, 12)}`,
  );
} finally {
  await srv.stop();
}
