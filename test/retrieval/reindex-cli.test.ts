import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { spawn } from "bun";
import { openDb } from "../../src/db/index.ts";
import { startApp } from "../helpers/app.ts";
import { startFakeOllama } from "../helpers/fake-ollama.ts";
import { BUN, call, cleanup, ROOT } from "../helpers/server.ts";

const fake = startFakeOllama();
const dirs: string[] = [];
afterAll(async () => {
  await fake.close();
  dirs.forEach(cleanup);
});

const embedders = async (dataDir: string) => {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    return sqlite
      .query<{ embedder: string; n: number }, []>(
        "SELECT embedder, count(*) AS n FROM retrieval_chunks GROUP BY embedder",
      )
      .all();
  } finally {
    sqlite.close();
  }
};

test("`reindex` re-embeds every chunk with the newly configured embedder, with progress, and search then uses it", async () => {
  const first = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "1000" } });
  dirs.push(first.dataDir);
  const key = await first.createKey("acme", "production");
  const body = new FormData();
  const text = Array.from(
    { length: 60 },
    (_, i) => `Fact ${i}: the heron waits in shallow water for fish number ${i}.`,
  ).join(" ");
  body.append("files", new File([`# Herons\n\n${text}`], "herons.md"));
  const made = await call(first, "/v2/documents/process", { key, user: "ann", body });
  const chunks = made.body.documents[0].chunk_count;
  expect(chunks).toBeGreaterThan(1);
  await first.stop({ keepData: true });
  expect(await embedders(first.dataDir)).toEqual([{ embedder: "builtin-hash-384", n: chunks }]);

  const env = {
    ...process.env,
    DATA_DIR: first.dataDir,
    EMBEDDER: "ollama",
    OLLAMA_HOST: fake.url,
    EMBEDDING_MODEL: "all-minilm",
  };
  const proc = spawn([BUN, join(ROOT, "src/main.ts"), "reindex"], { env, stdout: "pipe", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(code).toBe(0);
  expect(err).toContain("ollama:all-minilm");
  expect(err).toContain(`[${"#".repeat(30)}] ${chunks}/${chunks} chunks 100%`);
  expect(err).toContain(`Re-embedded ${chunks} chunks`);
  expect(await embedders(first.dataDir)).toEqual([{ embedder: "ollama:all-minilm", n: chunks }]);
  expect(fake.calls.filter((c) => c.path === "/api/embed").length).toBeGreaterThan(0);

  // A second run finds nothing left to do.
  const again = spawn([BUN, join(ROOT, "src/main.ts"), "reindex"], { env, stdout: "pipe", stderr: "pipe" });
  expect(await new Response(again.stderr).text()).toContain("Re-embedded 0 chunks");

  const second = await startApp({
    dataDir: first.dataDir,
    env: { EMBEDDER: "ollama", OLLAMA_HOST: fake.url, EMBEDDING_MODEL: "all-minilm" },
  });
  try {
    // The server now embeds with the new embedder (and warns of no stale chunks: reindex did them all).
    expect(second.svc.embedder.id).toBe("ollama:all-minilm");
    expect(second.output()).not.toContain("run `courseforge reindex`");
    const res = await call(second, "/v2/documents/query", {
      key,
      user: "ann",
      json: { question: "What does the heron wait for?", document_ids: [made.body.documents[0].id], top_k: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.sources).toHaveLength(2);
    expect(res.body.sources[0].score).toBeGreaterThan(0.1);
  } finally {
    await second.stop();
  }
});
