/**
 * When the model fails a chapter after its re-asks (#30): by default the course fails with the
 * typed code naming that chapter, and resuming writes only what failed; with LLM_FALLBACK=extractive
 * the built-in engine writes that chapter, the course completes, and the chapter says who wrote it
 * (`generated_by`), in the API and its OpenAPI document.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import { call, errorOf } from "../helpers/server.ts";
import { chapterCalls, filesForm, settle } from "./helpers.ts";

/** Notes of three sections: a three-chapter course, one chapter per section. */
const NOTES = [
  "# Lake weather",
  "",
  "## Seiches",
  "",
  "A seiche is a standing wave that rocks the whole lake from one shore to the other after a strong wind stops. The wind piles water against the downwind shore, and when it eases the water flows back and overshoots.",
  "",
  "## Rip currents",
  "",
  "A rip current is a narrow jet of water that flows straight away from the shore through a gap in the sandbar. A swimmer caught in one should swim parallel to the shore until the pull weakens.",
  "",
  "## Wind shadows",
  "",
  "A wind shadow is the calm patch of water behind an island or a headland, where the wind cannot reach. Boats that sail into a wind shadow lose speed suddenly and should steer around it.",
].join("\n");

const form = () =>
  filesForm({ num_chapters: "3", search_enabled: "false" }, [
    { name: "lake.md", content: NOTES, type: "text/markdown" },
  ]);

const ENV = { CHAPTER_CONCURRENCY: "3" };
let off: ModelServer;
let on: ModelServer;
beforeAll(async () => {
  [off, on] = await Promise.all([
    startModelServer({ env: ENV }),
    startModelServer({ env: { ...ENV, LLM_FALLBACK: "extractive" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([off?.stop(), on?.stop()]);
});

const isChapter2 = (body: Record<string, any>) =>
  JSON.stringify(body.format ?? "").includes("key_concepts") &&
  body.messages.some((m: { content: string }) => m.content.includes("Write chapter 2:"));

/** The model answers every attempt at chapter 2 with prose while `failing()` says so. */
function failChapter2(model: ModelServer, failing: () => boolean) {
  model.fake.respondWith(({ body }) =>
    failing() && isChapter2(body) ? "Here is a chapter about rip currents, written as prose." : undefined,
  );
}

test("off (the default): the chapter the model failed fails the course with its typed code; resume writes only that chapter", async () => {
  let failing = true;
  failChapter2(off, () => failing);
  try {
    const made = await call(off.srv, "/v2/courses/generate-from-files?mode=sync", {
      key: off.key,
      user: "off",
      body: form(),
    });
    expect(made.status).toBe(500);
    const error = errorOf(made);
    expect(error.code).toBe("MODEL_OUTPUT_INVALID");
    expect(error.message).toMatch(/^Chapter 2 \(".+"\): /);
    const courseId = (error.details as { course_id: string }).course_id;

    const failed = await call(off.srv, `/v2/courses/${courseId}/progress`, { key: off.key, user: "off" });
    expect(failed.body.course_status).toBe("failed");
    expect(failed.body.error).toMatchObject({ code: "MODEL_OUTPUT_INVALID", message: error.message });
    expect(failed.body.chapters.map((c: { status: string }) => c.status)).toEqual([
      "completed",
      "pending",
      "completed",
    ]);
    const kept = (await call(off.srv, `/v2/courses/${courseId}`, { key: off.key, user: "off" })).body.chapters;
    expect(kept.map((c: { order_index: number }) => c.order_index)).toEqual([0, 2]);

    // The model recovers; resuming asks it for chapter 2 only and keeps what it wrote before.
    failing = false;
    const before = chapterCalls(off.fake).length;
    const resumed = await call(off.srv, `/v2/courses/${courseId}/resume`, { key: off.key, user: "off", json: {} });
    expect(resumed.status).toBe(200);
    expect(resumed.body.missing_chapters).toEqual([1]);
    const done = await settle(off.srv, off.key, "off", courseId);
    expect(done.course_status).toBe("completed");
    const asked = chapterCalls(off.fake).slice(before);
    // Chapter 2 only (its grounding check may re-ask it once).
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((c) => isChapter2(c.body!))).toBe(true);
    const course = (await call(off.srv, `/v2/courses/${courseId}`, { key: off.key, user: "off" })).body;
    expect(course.chapters).toHaveLength(3);
    for (const k of kept) {
      const now = course.chapters.find((c: { id: string }) => c.id === k.id);
      expect(now).toMatchObject({ content: k.content, completed_at: k.completed_at, generated_by: "model" });
    }
    expect(course.chapters[1]).toMatchObject({ generated_by: "model", engine: "ollama" });
    const guide = await call(off.srv, `/v2/courses/${courseId}/study-guide`, { key: off.key, user: "off" });
    expect(guide.body).toMatchObject({ engine: "ollama", generated_by: "model" });
  } finally {
    off.fake.respondWith(null);
  }
});

const isStudyGuide = (body: Record<string, any>) => JSON.stringify(body.format ?? "").includes('"bullets"');

test("LLM_FALLBACK=extractive: the chapter and study guide the model failed are built by the built-in engine and marked; the others are the model's", async () => {
  on.fake.respondWith(({ body }) =>
    isChapter2(body) || isStudyGuide(body) ? "Here is what you asked for, written as prose." : undefined,
  );
  try {
    const made = await call(on.srv, "/v2/courses/generate-from-files?mode=sync", {
      key: on.key,
      user: "on",
      body: form(),
    });
    expect(made.status).toBe(200);
    const course = (await call(on.srv, `/v2/courses/${made.body.course.id}`, { key: on.key, user: "on" })).body;
    expect(course.status).toBe("completed");
    expect(course.engine).toBe("ollama");
    expect(course.chapters.map((c: { generated_by: string }) => c.generated_by)).toEqual([
      "model",
      "extractive",
      "model",
    ]);
    const fallen = course.chapters[1];
    expect(fallen).toMatchObject({ engine: "extractive", model: "extractive" });
    // Built from chapter 2's own section, not left empty.
    expect(fallen.content).toContain("rip current");
    expect(on.srv.output()).toContain("LLM_FALLBACK=extractive");

    const guide = await call(on.srv, `/v2/courses/${course.id}/study-guide`, { key: on.key, user: "on" });
    expect(guide.body).toMatchObject({ engine: "extractive", generated_by: "extractive" });
    expect(guide.body.study_guide.sections.length).toBeGreaterThan(0);

    const spec = (await call(on.srv, "/openapi.json")).body;
    const schemas = Object.values(spec.components.schemas) as { properties?: Record<string, { enum?: string[] }> }[];
    const chapter = schemas.find((s) => s.properties?.generated_by && s.properties.key_concepts);
    expect(chapter?.properties?.generated_by?.enum).toEqual(["model", "extractive"]);
  } finally {
    on.fake.respondWith(null);
  }
});

const isFlashcards = (body: Record<string, any>) => JSON.stringify(body.format ?? "").includes('"deck_title"');

test("a material the model fails: 503 with its typed code by default, built by the built-in engine and marked with LLM_FALLBACK=extractive", async () => {
  const courseOf = async (model: ModelServer, user: string) => {
    const made = await call(model.srv, "/v2/courses/generate-from-files?mode=sync", {
      key: model.key,
      user,
      body: form(),
    });
    expect(made.status).toBe(200);
    return made.body.course.id as string;
  };
  const [offCourse, onCourse] = await Promise.all([courseOf(off, "cards"), courseOf(on, "cards")]);
  for (const model of [off, on])
    model.fake.respondWith(({ body }) => (isFlashcards(body) ? "No cards today." : undefined));
  try {
    const refused = await call(off.srv, `/v2/courses/${offCourse}/generate-flashcards`, {
      key: off.key,
      user: "cards",
      json: {},
    });
    expect(refused.status).toBe(503);
    expect(errorOf(refused).code).toBe("MODEL_OUTPUT_INVALID");

    const built = await call(on.srv, `/v2/courses/${onCourse}/generate-flashcards`, {
      key: on.key,
      user: "cards",
      json: {},
    });
    expect(built.status).toBe(200);
    expect(built.body).toMatchObject({ engine: "extractive", generated_by: "extractive" });
    expect(built.body.flashcards.cards.length).toBeGreaterThan(0);
  } finally {
    for (const model of [off, on]) model.fake.respondWith(null);
  }
});
