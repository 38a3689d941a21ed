/** Materials made by a model: the real server against the fake Ollama (caching keys, single flight, 503s). */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import type { FakeOllama } from "../helpers/fake-ollama.ts";
import { call, errorOf } from "../helpers/server.ts";
import { examResponder } from "./exam-responder.ts";
import { BIOLOGY, indexCourse, insertRichCourse } from "./fixtures.ts";
import { usageRows } from "./ledger.ts";

let model: ModelServer;
let fake: FakeOllama;
let srv: TestApp;
let key: string;

const as = (json?: unknown) => ({ key, user: "learner", json });
const newCourse = () =>
  insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" }, { model: "llama3.2" });
const post = (id: string, path: string, json: unknown = {}) => call(srv, `/v2/courses/${id}/${path}`, as(json));

beforeAll(async () => {
  model = await startModelServer({ env: { LLM_MODEL: "llama3.2", LLM_MAX_RETRIES: "0" } });
  ({ fake, srv, key } = model);
});
afterAll(() => model.stop());
beforeEach(() => {
  fake.behave("ok");
  fake.setLatency(0);
  fake.respondWith(examResponder());
});

describe("with a model", () => {
  test("the study guide is written by the course's model", async () => {
    const id = await newCourse();
    const r = await call(srv, `/v2/courses/${id}/study-guide`, as());
    expect(r.status).toBe(200);
    expect([r.body.engine, r.body.model]).toEqual(["ollama", "llama3.2"]);
    expect(r.body.study_guide.sections.length).toBeGreaterThanOrEqual(2);
  });

  test("flashcards: cached per model; another model_key gives a fresh deck; concurrent calls make one", async () => {
    const id = await newCourse();
    const n0 = fake.generations().length;
    fake.setLatency(100);
    const trio = await Promise.all([1, 2, 3].map(() => post(id, "generate-flashcards")));
    expect(trio.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(trio.map((r) => r.body.from_cache).sort()).toEqual([false, true, true]);
    expect(fake.generations().length - n0).toBe(1);
    expect(trio[0]!.body.model).toBe("llama3.2");
    const deck = trio[0]!.body.flashcards;
    expect(deck.total).toBe(deck.cards.length);
    const fronts = deck.cards.map((c: { front: string }) => c.front.toLowerCase());
    expect(new Set(fronts).size).toBe(fronts.length);
    expect(new Set(deck.cards.map((c: { back: string }) => c.back.toLowerCase())).size).toBe(deck.cards.length);

    const other = await post(id, "generate-flashcards", { model_key: "qwen2.5:7b" });
    expect(other.body).toMatchObject({ from_cache: false, model: "qwen2.5:7b", engine: "ollama" });
    expect(fake.generations().at(-1)!.body!.model).toBe("qwen2.5:7b");
    const n1 = fake.generations().length;
    const same = await post(id, "generate-flashcards", { model_key: "llama3.2:latest" });
    expect(same.body.from_cache).toBe(true);
    expect(same.body.flashcards).toEqual(deck);
    expect(fake.generations().length).toBe(n1);
  });

  test("notes: concurrent first calls generate once and charge once", async () => {
    const id = await newCourse();
    const before = usageRows(srv.dataDir, "notes").length;
    const n0 = fake.generations().length;
    fake.setLatency(100);
    const trio = await Promise.all([1, 2, 3].map(() => post(id, "generate-notes", { tutor_tone: "mentor" })));
    expect(trio.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(trio.map((r) => r.body.cached).sort()).toEqual([false, true, true]);
    // One call per chapter and one for the introduction and conclusion, made once for all three requests.
    expect(fake.generations().length - n0).toBe(BIOLOGY.length + 1);
    expect(usageRows(srv.dataDir, "notes").length - before).toBe(1);
    expect(trio[0]!.body).toMatchObject({ engine: "ollama", model: "llama3.2" });
    BIOLOGY.forEach((ch, i) => {
      expect(trio[0]!.body.notes).toContain(`## Chapter ${i + 1}: ${ch.title}`);
    });
  });

  test("exam: exactly 50 over HTTP; concurrent identical requests share one generation; size change is fresh", async () => {
    const id = await newCourse();
    const n0 = fake.generations().length;
    fake.setLatency(50);
    const trio = await Promise.all([1, 2, 3].map(() => post(id, "generate-exam", { exam_size: 50 })));
    expect(trio.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(trio.map((r) => r.body.from_cache).sort()).toEqual([false, true, true]);
    // 3 chapters x (mcq, short_answer) in batches of at most 5: 12 calls for one exam, not 36.
    expect(fake.generations().length - n0).toBe(12);
    const { exam } = trio[0]!.body;
    expect(exam.total).toBe(50);
    expect(new Set(exam.questions.map((q: { prompt: string }) => q.prompt)).size).toBe(50);
    const fresh = await post(id, "generate-exam", { exam_size: 40 });
    expect(fresh.body.from_cache).toBe(false);
    expect(fresh.body.exam.total).toBe(40);
  });

  test("503 with the structured reason when the model is down or refuses; nothing charged or cached", async () => {
    const id = await newCourse();
    const before = usageRows(srv.dataDir, "notes").length;
    for (const mode of ["down", "refuse"] as const) {
      fake.behave(mode);
      for (const path of ["generate-exam", "generate-notes", "generate-flashcards"]) {
        const r = await post(id, path, path === "generate-exam" ? { exam_size: 10 } : {});
        expect(`${mode} ${path} ${r.status}`).toBe(`${mode} ${path} 503`);
        const e = errorOf(r);
        expect(e.code).toBe(mode === "down" ? "LLM_UNAVAILABLE" : "LLM_REFUSED");
        expect((e.details as { reason: { code: string } }).reason.code).toBe(e.code);
      }
    }
    fake.behave("ok");
    expect(usageRows(srv.dataDir, "notes").length).toBe(before);
    expect((await post(id, "generate-flashcards")).body.from_cache).toBe(false);
  });

  test("ask uses the model, and answers from the passages alone (engine extractive) when the model is down", async () => {
    const id = await newCourse();
    await indexCourse(srv.dataDir, id);
    const question = { question: "What is osmosis across a selectively permeable membrane?" };
    const ok = await post(id, "ask", question);
    expect(ok.status).toBe(200);
    expect([ok.body.engine, ok.body.model]).toEqual(["ollama", "llama3.2"]);
    expect(ok.body.sources[0].text).toMatch(/osmosis/i);
    fake.behave("down");
    const down = await post(id, "ask", question);
    expect(down.status).toBe(200);
    expect([down.body.engine, down.body.model]).toEqual(["extractive", "extractive"]);
    expect(down.body.answer).toMatch(/osmosis/i);
  });
});
