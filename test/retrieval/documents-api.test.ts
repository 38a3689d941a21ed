import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startApp, type TestApp } from "../helpers/app.ts";
import { expectGuarded } from "../helpers/route-cases.ts";
import { call, errorOf, ROOT } from "../helpers/server.ts";

const CORPUS = join(ROOT, "../shared/corpus");
const NOT_ANSWERED = "The provided sources do not answer this question.";

let srv: TestApp;
let web: ReturnType<typeof Bun.serve>;
let key: string;
let testKey: string;
let foreignKey: string;
const ALICE = "alice";

const ARTICLE = `<!doctype html><html><head><title>Glaciers</title></head><body><article>
<h1>How glaciers shape valleys</h1>
<p>Glaciers are rivers of ice that move slowly downhill under their own weight. As a glacier moves,
it plucks rocks from the bedrock and grinds them along its bed, a process called abrasion.</p>
<p>Over thousands of years this erosion widens and deepens the valley into a U shape, unlike the
V-shaped valleys that rivers cut. When the ice melts, it leaves moraines of rock and sediment.</p>
</article></body></html>`;

async function file(path: string, name = path.split("/").pop()!) {
  return new File([await Bun.file(path).arrayBuffer()], name);
}

function form(parts: { files?: File[]; youtube?: string; web?: string; space?: string }): FormData {
  const f = new FormData();
  for (const x of parts.files ?? []) f.append("files", x, x.name);
  if (parts.youtube !== undefined) f.append("youtube_urls", parts.youtube);
  if (parts.web !== undefined) f.append("web_urls", parts.web);
  if (parts.space !== undefined) f.append("space_id", parts.space);
  return f;
}

const processDocs = (body: FormData, user = ALICE, k = key) =>
  call(srv, "/v2/documents/process", { key: k, user, body });
const query = (json: unknown, user = ALICE, k = key) => call(srv, "/v2/documents/query", { key: k, user, json });
const listDocs = (qs = "", user = ALICE) => call(srv, `/v2/documents${qs}`, { key, user });

beforeAll(async () => {
  web = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(ARTICLE, { headers: { "content-type": "text/html" } }),
  });
  srv = await startApp({
    env: {
      RATE_LIMIT_PER_MINUTE: "1000",
      OUTBOUND_ALLOW: "127.0.0.1",
      YOUTUBE_BASE_URL: "http://127.0.0.1:9",
      TEST_KEY_QUERIES_PER_MONTH: "2",
    },
  });
  key = await srv.createKey("acme", "production");
  testKey = await srv.createKey("acme", "test");
  foreignKey = await srv.createKey("globex", "production");
});
afterAll(async () => {
  web.stop(true);
  await srv.stop();
});

describe("POST /v2/documents/process", () => {
  let pdfId: string;
  let docs: any[];

  beforeAll(async () => {
    const res = await processDocs(
      form({
        files: [
          await file(join(CORPUS, "pdf/tracemonkey.pdf")),
          await file(join(CORPUS, "pptx/docling-powerpoint_sample.pptx")),
          new File(
            ["Moss grows on the north side of trees in damp forests.\n\nLichens are a partnership of fungi and algae."],
            "notes.txt",
          ),
        ],
        web: JSON.stringify([`http://127.0.0.1:${web.port}/glaciers`]),
        youtube: JSON.stringify(["https://www.youtube.com/watch?v=dQw4w9WgXcQ"]),
        space: "nature",
      }),
    );
    expect(res.status).toBe(200);
    docs = res.body.documents;
    pdfId = docs[0].id;
    expect(res.body).toMatchObject({ count: 5, ready: 4, errored: 1 });
  });

  test("every source ends ready with its chunk count, or error with the reason, in request order", () => {
    expect(docs.map((d) => [d.filename, d.source_type, d.status])).toEqual([
      ["tracemonkey.pdf", "file", "ready"],
      ["docling-powerpoint_sample.pptx", "file", "ready"],
      ["notes.txt", "file", "ready"],
      ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "error"],
      [`http://127.0.0.1:${web.port}/glaciers`, "web", "ready"],
    ]);
    for (const d of [...docs.slice(0, 3), docs[4]]) {
      expect(d.chunk_count).toBeGreaterThan(0);
      expect(d.error).toBeUndefined();
      expect(d.space_id).toBe("nature");
    }
    expect(docs[0].chunk_count).toBeGreaterThan(20);
    expect(docs[0].pages).toBe(14);
    expect(docs[3].chunk_count).toBeUndefined();
    expect(docs[3].error).toEqual(expect.any(String));
  });

  test("a query over one document answers from it, citing its passages with cosine scores", async () => {
    const res = await query({
      question: "How does trace-based compilation speed up dynamic languages?",
      document_ids: [pdfId],
      top_k: 4,
    });
    expect(res.status).toBe(200);
    expect(res.body.sources).toHaveLength(4);
    for (const s of res.body.sources) {
      expect(s).toMatchObject({ document_id: pdfId, filename: "tracemonkey.pdf" });
      expect(s.score).toBeGreaterThan(0);
      expect(s.score).toBeLessThanOrEqual(1);
      expect(s.page).toBeGreaterThanOrEqual(1);
      expect(s.text.length).toBeGreaterThan(50);
    }
    expect(res.body.answer).toMatch(/\[[1-4]\]/);
  });

  test("a query over a space reaches every document in it, and a question they do not answer says so", async () => {
    const res = await query({
      question: "What plucks rocks from the bedrock as it moves?",
      space_id: "nature",
      top_k: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.sources[0].filename).toBe(`http://127.0.0.1:${web.port}/glaciers`);
    expect(res.body.answer).toContain("plucks rocks from the bedrock");
    expect(res.body.answer).toContain("[1]");
    const none = await query({ question: "Which football team won the 1998 world cup?", space_id: "nature" });
    expect(none.status).toBe(200);
    expect(none.body.answer).toBe(NOT_ANSWERED);
    const empty = await query({ question: "Why are valleys U-shaped?", space_id: "no-such-space" });
    expect(empty.body).toEqual({ answer: NOT_ANSWERED, sources: [] });
  });

  test("no key is 401; another learner, another tenant or a test key cannot query, list or delete the documents (404)", async () => {
    expect((await processDocs(form({ files: [new File(["Bob's own note."], "bob.txt")] }), "bob")).status).toBe(200);
    const bob = await query({ question: "glaciers", document_ids: [pdfId] }, "bob");
    expect(bob.status).toBe(404);
    expect(errorOf(bob).code).toBe("DOCUMENT_NOT_FOUND");
    const outsiders = { key, user: ALICE, otherTenantKey: foreignKey, testKey, otherUser: "bob" };
    const routes = [
      { method: "POST", path: "/v2/documents/query", json: { question: "glaciers", document_ids: [pdfId] } },
      { method: "DELETE", path: `/v2/documents/${pdfId}` },
    ];
    for (const route of routes) await expectGuarded(srv, route, outsiders);
    const bobSpace = await query({ question: "glaciers valleys", space_id: "nature" }, "bob");
    expect(bobSpace.body.sources).toEqual([]);
    expect((await call(srv, "/v2/documents", { key: foreignKey, user: ALICE })).status).toBe(404);
  });
});

describe("request errors", () => {
  test("an unsupported or mismatched file is 415 for the whole request, and nothing is stored", async () => {
    const before = (await listDocs("?limit=100")).body.data.length;
    const fake = new File(["just some plain text, not a PDF at all"], "paper.pdf");
    const res = await processDocs(form({ files: [new File(["fine"], "ok.txt"), fake] }));
    expect(res.status).toBe(415);
    expect(errorOf(res).message).toContain("paper.pdf");
    expect((await listDocs("?limit=100")).body.data.length).toBe(before);
  });

  test("no source is 400, a malformed URL array 422, more than 10 files 413", async () => {
    expect((await processDocs(form({ space: "x" }))).status).toBe(400);
    const bad = await processDocs(form({ web: "not json" }));
    expect(bad.status).toBe(422);
    expect(errorOf(bad).code).toBe("VALIDATION_ERROR");
    const many = await processDocs(
      form({ files: Array.from({ length: 11 }, (_, i) => new File([`file ${i}`], `f${i}.txt`)) }),
    );
    expect(many.status).toBe(413);
  });

  test("query scope and range rules are 422", async () => {
    const id = crypto.randomUUID();
    const cases: unknown[] = [
      { question: "q", document_ids: [id], space_id: "s" },
      { question: "q" },
      { question: "q", document_ids: [] },
      { question: "q", document_ids: Array.from({ length: 21 }, () => id) },
      { question: "q", space_id: "s", top_k: 0 },
      { question: "q", space_id: "s", top_k: 21 },
      { question: "", space_id: "s" },
      { question: "   ", space_id: "s" },
      { question: "x".repeat(2001), space_id: "s" },
    ];
    for (const body of cases) {
      const res = await query(body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      errorOf(res);
    }
    const missing = await query({ question: "q", document_ids: [id] });
    expect(missing.status).toBe(404);
    expect(errorOf(missing).message).toContain(id);
  });

  test("a test key gets its monthly queries, then 403 TEST_USAGE_LIMIT", async () => {
    // A test key sees only what test keys made (production documents are not its data).
    const mine = await processDocs(
      form({
        files: [new File(["Moss grows on the north side of trees in the nature reserve."], "moss.md")],
        space: "nature",
      }),
      ALICE,
      testKey,
    );
    expect(mine.body.ready).toBe(1);
    for (let i = 0; i < 2; i++)
      expect((await query({ question: "moss", space_id: "nature" }, ALICE, testKey)).status).toBe(200);
    const over = await query({ question: "moss", space_id: "nature" }, ALICE, testKey);
    expect(over.status).toBe(403);
    expect(errorOf(over).code).toBe("TEST_USAGE_LIMIT");
  });
});

describe("GET and DELETE /v2/documents", () => {
  test("lists newest first with keyset pagination and a space filter; delete is 204, then 404", async () => {
    const made = await processDocs(
      form({
        files: ["one", "two", "three"].map((n) => new File([`Document ${n} is about ${n} things.`], `${n}.md`)),
        space: "paging",
      }),
      "carol",
    );
    expect(made.body.ready).toBe(3);
    const ids = made.body.documents.map((d: any) => d.id);

    const page1 = await listDocs("?limit=2&space_id=paging", "carol");
    expect(page1.body.pagination).toMatchObject({ limit: 2, has_more: true });
    const page2 = await listDocs(`?limit=2&space_id=paging&cursor=${page1.body.pagination.next_cursor}`, "carol");
    expect(page2.body.pagination).toEqual({ limit: 2, has_more: false, next_cursor: null });
    const listed = [...page1.body.data, ...page2.body.data].map((d: any) => d.id);
    expect(new Set(listed)).toEqual(new Set(ids));
    expect(page1.body.data[0]).toMatchObject({
      status: "ready",
      source_type: "file",
      space_id: "paging",
      chunk_count: 1,
    });
    expect((await listDocs("?space_id=nature", "carol")).body.data).toEqual([]);
    expect((await listDocs("?cursor=garbage", "carol")).status).toBe(422);

    const del = await call(srv, `/v2/documents/${ids[0]}`, { key, user: "carol", method: "DELETE" });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(srv, `/v2/documents/${ids[0]}`, { key, user: "carol", method: "DELETE" })).status).toBe(404);
    expect((await query({ question: "one things", document_ids: [ids[0]] }, "carol")).status).toBe(404);
    const rest = await query({ question: "Document things", space_id: "paging", top_k: 10 }, "carol");
    expect(rest.body.sources.map((s: any) => s.document_id).sort()).toEqual([ids[1], ids[2]].sort());
  });
});
