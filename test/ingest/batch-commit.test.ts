/**
 * Small files sent together are indexed in shared turns whose chunks are committed together (#28):
 * a request of many short texts with one bad file among them answers each file with its own
 * outcome, every good one ready with all its chunks stored; and a server killed while such
 * batches run loses nothing it acknowledged: after a restart on the same data, every document a
 * response called ready is still ready with every chunk it reported, and none is left processing.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { filesForm } from "../courses/helpers.ts";
import { call, cleanup, startServer, type TestServer, tempDir } from "../helpers/server.ts";
import { withDb } from "../reliability/harness.ts";

// Real servers and extraction processes, slow on a loaded machine.
setDefaultTimeout(300_000);

const TOPICS = ["tides", "glaciers", "volcanoes", "monsoons", "coral reefs", "deserts", "auroras", "estuaries"];
const note = (i: number) => ({
  name: `note-${i}.txt`,
  content: `Note ${i} on ${TOPICS[i % TOPICS.length]}\n\nA short abstract about ${TOPICS[i % TOPICS.length]}, number ${i}. It says what was measured and what was found, in two sentences.\n`,
  type: "text/plain",
});
// Detected as HTML, with no text in it: its extraction fails with NO_TEXT_FOUND.
const bare = {
  name: "bare.html",
  content: "<!DOCTYPE html><html><head><title></title></head><body><div></div></body></html>",
  type: "text/html",
};

interface ProcessedDoc {
  id: string;
  filename: string;
  status: string;
  chunk_count: number;
  error?: string;
}

const dataDirs: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  // Every server a test started, also one a failed assertion left running.
  for (const srv of servers) await srv.stop({ keepData: true });
  for (const dir of dataDirs) cleanup(dir);
});

async function start(dataDir: string): Promise<TestServer> {
  const srv = await startServer({ dataDir, env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  servers.push(srv);
  return srv;
}

const storedChunks = (dataDir: string, id: string) =>
  withDb(
    dataDir,
    (db) =>
      db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM retrieval_chunks WHERE document_id = ?").get(id)!.n,
  );

async function processFiles(target: TestServer, key: string, files: ReturnType<typeof note>[]) {
  const res = await call(target.url, "/v2/documents/process", { key, user: "reader", body: filesForm({}, files) });
  expect(res.status).toBe(200);
  return res.body.documents as ProcessedDoc[];
}

test("one bad file among ten fails alone; every other is ready with all its chunks stored", async () => {
  const dataDir = tempDir("cf-batch-");
  dataDirs.push(dataDir);
  const srv = await start(dataDir);
  const key = await srv.createKey("acme", "production");
  const files = [...[0, 1, 2, 3, 4].map(note), bare, ...[5, 6, 7, 8].map(note)];
  const docs = await processFiles(srv, key, files);
  expect(docs.map((d) => d.filename)).toEqual(files.map((f) => f.name));
  for (const doc of docs) {
    if (doc.filename === "bare.html") {
      expect(doc.status).toBe("error");
      expect(storedChunks(dataDir, doc.id)).toBe(0);
      continue;
    }
    expect(doc.status).toBe("ready");
    expect(doc.chunk_count).toBeGreaterThan(0);
    expect(storedChunks(dataDir, doc.id)).toBe(doc.chunk_count);
  }
  // Their text is found by search, each in its own document.
  const res = await call(srv.url, "/v2/documents/query", {
    key,
    user: "reader",
    json: {
      question: "What does the abstract about coral reefs, number 4, say?",
      document_ids: docs.filter((d) => d.status === "ready").map((d) => d.id),
    },
  });
  expect(res.text).toContain("coral reefs, number 4");
});

test("a server killed while batches run keeps every document it answered ready, and none is left processing", async () => {
  const dataDir = tempDir("cf-batch-kill-");
  dataDirs.push(dataDir);
  let srv = await start(dataDir);
  const key = await srv.createKey("acme", "production");
  const acknowledged = new Map<string, number>();
  const record = (docs: ProcessedDoc[]) => {
    for (const d of docs) if (d.status === "ready") acknowledged.set(d.id, d.chunk_count);
  };
  record(
    await processFiles(
      srv,
      key,
      Array.from({ length: 10 }, (_, i) => note(i)),
    ),
  );
  // Four requests at once, and the kill as soon as one of them is answered: the others are mid-batch.
  const running = srv;
  let answered: () => void = () => {};
  const firstAnswer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const inFlight = [1, 2, 3, 4].map((r) =>
    call(running.url, "/v2/documents/process", {
      key,
      user: "reader",
      body: filesForm(
        {},
        Array.from({ length: 10 }, (_, i) => note(r * 10 + i)),
      ),
    })
      .then((res) => {
        if (res.status === 200) record(res.body.documents as ProcessedDoc[]);
        answered();
      })
      .catch(() => undefined),
  );
  await firstAnswer;
  await running.kill();
  await Promise.all(inFlight);
  expect(acknowledged.size).toBeGreaterThanOrEqual(20);

  srv = await start(dataDir);
  const rows = withDb(dataDir, (db) =>
    db
      .query<{ id: string; status: string; chunk_count: number }, []>("SELECT id, status, chunk_count FROM documents")
      .all(),
  );
  expect(rows.filter((r) => r.status === "processing")).toEqual([]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [id, chunks] of acknowledged) {
    expect(byId.get(id)).toMatchObject({ status: "ready", chunk_count: chunks });
    expect(storedChunks(dataDir, id)).toBe(chunks);
  }
  // What the kill stopped ended as an error with no chunks left behind, or was finished before it.
  for (const row of rows) expect(storedChunks(dataDir, row.id)).toBe(row.status === "ready" ? row.chunk_count : 0);
});
