/** No model configured: courses from a real PDF by the extractive engine, and the topic-course rules. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { call, errorOf } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, filesForm, postForm, settle } from "./helpers.ts";

// Each test drives a real server through whole generations.
setDefaultTimeout(300_000);

const PDF = "/work/shared/corpus/pdf/dpr-paper-multi-column.pdf";

let env: CourseEnv;

beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

test("a course from a real PDF is built end to end from the document itself", async () => {
  const pdf = new Uint8Array(await Bun.file(PDF).arrayBuffer());
  const r = await postForm(
    env.srv,
    "/v2/courses/generate-from-files?mode=sync",
    env.key,
    "eve",
    filesForm({ num_chapters: "3", search_enabled: "false" }, [
      { name: "dpr-paper-multi-column.pdf", content: pdf, type: "application/pdf" },
    ]),
  );
  expect(r.status).toBe(200);
  expect(r.body.usage.engine).toBe("extractive");
  expect(r.body.usage.prompt_tokens).toBe(0);
  const course = (await call(env.srv, `/v2/courses/${r.body.course.id}`, { key: env.key, user: "eve" })).body;
  expect(course.status).toBe("completed");
  expect(course.engine).toBe("extractive");
  expect(course.topic.length).toBeGreaterThan(2);
  expect(course.chapters).toHaveLength(3);
  const text = course.chapters
    .map((c: any) => c.content)
    .join("\n")
    .toLowerCase();
  expect(text).toContain("passage");
  expect(text).toContain("retrieval");
  for (const ch of course.chapters) {
    expect(ch.content.length).toBeGreaterThan(200);
    expect(ch.key_concepts.length).toBeGreaterThan(0);
    expect(ch.sources.length).toBeGreaterThan(0);
    for (const s of ch.sources) {
      expect(s.filename).toBe("dpr-paper-multi-column.pdf");
      expect(s.page).toBeGreaterThanOrEqual(1);
      expect(s.page).toBeLessThanOrEqual(13);
      expect(s.chunk_id).toBeTruthy();
      expect(s.excerpt.length).toBeGreaterThan(0);
    }
    for (const q of ch.quiz.questions) {
      expect(q.answer).toBeGreaterThanOrEqual(0);
      expect(q.answer).toBeLessThan(q.choices.length);
    }
  }
  const guide = await call(env.srv, `/v2/courses/${course.id}/study-guide`, { key: env.key, user: "eve" });
  expect(guide.body.study_guide.sections.length).toBeGreaterThan(0);
});

test("a topic with no model and no matching documents is refused at once, saying how to configure one", async () => {
  const r = await call(env.srv, "/v2/courses/generate", {
    key: env.key,
    user: "newcomer",
    json: { topic: "Medieval castle sieges" },
  });
  expect(r.status).toBe(503);
  const e = errorOf(r);
  expect(e.code).toBe("MODEL_NOT_CONFIGURED");
  expect(e.message).toContain("OLLAMA_HOST");
  expect(e.message).toContain("OPENAI_BASE_URL");
  // Nothing was stored, not even the learner the refused request named.
  const list = await call(env.srv, "/v2/courses", { key: env.key, user: "newcomer" });
  expect(list.status).toBe(404);
});

test("a topic matching the learner's indexed documents is built from them", async () => {
  const r = await call(env.srv, "/v2/courses/generate", {
    key: env.key,
    user: "eve",
    json: { topic: "Dense passage retrieval for open-domain question answering", num_chapters: 2 },
  });
  expect(r.status).toBe(202);
  const done = await settle(env.srv, env.key, "eve", r.body.course_id);
  expect(done.course_status).toBe("completed");
  const course = (await call(env.srv, `/v2/courses/${r.body.course_id}`, { key: env.key, user: "eve" })).body;
  expect(course.source_type).toBe("topic");
  for (const ch of course.chapters) {
    expect(ch.sources.length).toBeGreaterThan(0);
    expect(ch.sources.every((s: any) => s.filename === "dpr-paper-multi-column.pdf")).toBe(true);
  }
  // The learner's documents do not make every topic possible: only a topic they match.
  const unrelated = await call(env.srv, "/v2/courses/generate", {
    key: env.key,
    user: "eve",
    json: { topic: "Medieval castle sieges" },
  });
  expect(unrelated.status).toBe(422);
  expect(errorOf(unrelated).code).toBe("TOPIC_NOT_COVERED");
  // Another learner's documents are not theirs to build from.
  const other = await call(env.srv, "/v2/courses/generate", {
    key: env.key,
    user: "mallory",
    json: { topic: "Dense passage retrieval for open-domain question answering" },
  });
  expect(other.status).toBe(503);
});
