import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { courseHead } from "../../src/courses/read.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { generateExam } from "../../src/materials/exam.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import type { FakeOllama } from "../helpers/fake-ollama.ts";
import { cleanup } from "../helpers/server.ts";
import { examResponder } from "./exam-responder.ts";
import { BIOLOGY, insertRichCourse, PROBABILITY } from "./fixtures.ts";
import { localServices } from "./services.ts";

let model: FakeModel;
let fake: FakeOllama;
let svc: Awaited<ReturnType<typeof localServices>>;
let apiKey: string;

beforeAll(async () => {
  model = startFakeModel({ env: { LLM_MODEL: "llama3.2", EXAM_BATCH_SIZE: "5", EXAM_CONCURRENCY: "4" } });
  fake = model.fake;
  svc = await localServices(model.env);
  apiKey = (await createKey(sqliteSql(svc.sqlite), { tenant: "acme", env: "test" })).key;
});
afterAll(async () => {
  svc.sqlite.close();
  cleanup(svc.dataDir);
  await model.stop();
});
beforeEach(() => {
  fake.behave("ok");
  fake.setLatency(0);
  fake.respondWith(examResponder());
});

const newCourse = async (chapters = BIOLOGY) =>
  courseHead(
    sqliteSql(svc.sqlite),
    await insertRichCourse(svc.dataDir, { apiKey, externalUserId: "u1" }, { chapters, model: "llama3.2" }),
  );
const prompts = (qs: { prompt: string }[]) => qs.map((q) => q.prompt.toLowerCase());

describe("exam against the fake Ollama", () => {
  test("exactly 10 and exactly 50 questions, spread across chapters, mixed types, no duplicates", async () => {
    const course = await newCourse();
    for (const size of [10, 50]) {
      const { exam, from_cache, engine, model } = await generateExam(svc, course, { examSize: size });
      expect(from_cache).toBe(false);
      expect([engine, model]).toEqual(["ollama", "llama3.2"]);
      expect(exam.total).toBe(size);
      expect(exam.questions).toHaveLength(size);
      expect(new Set(prompts(exam.questions)).size).toBe(size);
      const types = new Set(exam.questions.map((q) => q.type));
      expect(types.has("mcq") && types.has("short_answer")).toBe(true);
      expect(types.has("worked_problem")).toBe(false);
      for (const ch of BIOLOGY) {
        const n = exam.questions.filter((q) => q.prompt.includes(ch.title)).length;
        expect(n).toBeGreaterThanOrEqual(Math.floor(size / BIOLOGY.length));
      }
      for (const q of exam.questions) if (q.type === "mcq") expect(q.answer).toBeLessThan(q.choices.length);
      expect(exam.instructions).toContain(`Answer all ${size} questions`);
    }
  });

  test("a quantitative course gets worked problems", async () => {
    const { exam } = await generateExam(svc, await newCourse(PROBABILITY), { examSize: 20 });
    expect(exam.questions.filter((q) => q.type === "worked_problem").length).toBeGreaterThanOrEqual(2);
    expect(exam.total).toBe(20);
  });

  test("duplicates from the model are replaced: still exactly 50 distinct prompts", async () => {
    fake.respondWith(examResponder({ repeatEvery: 6 }));
    const { exam } = await generateExam(svc, await newCourse(), { examSize: 50 });
    expect(exam.questions).toHaveLength(50);
    expect(new Set(prompts(exam.questions)).size).toBe(50);
  });

  test("chapters run in parallel, the batches of one chapter in turn, each told what was asked; concurrent identical requests share one generation", async () => {
    const course = await newCourse();
    fake.setLatency(150);
    const before = fake.generations().length;
    const results = await Promise.all([1, 2, 3].map(() => generateExam(svc, course, { examSize: 50 })));
    const calls = fake.generations().slice(before);
    // 50 questions over 3 chapters in single-type batches of 5: 12 model calls for one exam.
    expect(calls).toHaveLength(12);
    expect(results.map((r) => r.from_cache).sort()).toEqual([false, true, true]);
    expect(results[1]!.exam).toEqual(results[0]!.exam);
    // The 3 chapters side by side (the third call arrives while the first two are answered), the
    // batches of one chapter in turn (never more than one call per chapter in flight).
    expect(calls[2]!.beside).toBe(2);
    expect(Math.max(...calls.map((c) => c.beside))).toBe(2);
    // A later batch lists the prompts the earlier batches of the course wrote, so it can avoid them.
    const lastPrompt = calls.at(-1)!.body!.messages.at(-1).content as string;
    expect(lastPrompt).toContain("Already asked in this course");
    expect(lastPrompt).toMatch(/- How do vor\w+, mel\w+, tesk\w+ relate in/);
  });

  test("cache keys: same size is cached, another size or model is a fresh exam", async () => {
    const course = await newCourse();
    await generateExam(svc, course, { examSize: 10 });
    const n0 = fake.generations().length;
    expect((await generateExam(svc, course, { examSize: 10 })).from_cache).toBe(true);
    expect(fake.generations().length).toBe(n0);
    const bigger = await generateExam(svc, course, { examSize: 12 });
    expect(bigger.from_cache).toBe(false);
    expect(bigger.exam.total).toBe(12);
    const n1 = fake.generations().length;
    expect(n1).toBeGreaterThan(n0);
    const other = await generateExam(svc, course, { examSize: 10, modelKey: "qwen2.5:7b" });
    expect([other.from_cache, other.model]).toEqual([false, "qwen2.5:7b"]);
    expect(
      fake
        .generations()
        .slice(n1)
        .every((c) => c.body?.model === "qwen2.5:7b"),
    ).toBe(true);
  });

  test("the model down is a 503 with the structured reason; nothing is cached", async () => {
    const course = await newCourse();
    fake.behave("down");
    const err = await generateExam(svc, course, { examSize: 10 }).catch((e) => e);
    expect(err.status).toBe(503);
    expect(err.code).toBe("LLM_UNAVAILABLE");
    expect(err.details.reason.code).toBe("LLM_UNAVAILABLE");
    fake.behave("ok");
    expect((await generateExam(svc, course, { examSize: 10 })).from_cache).toBe(false);
  });

  test("an unknown model_key is a 422 listing the known models", async () => {
    const err = await generateExam(svc, await newCourse(), { examSize: 10, modelKey: "no-such-model" }).catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.details.known).toContain("llama3.2");
  });
});
