/**
 * A model that misbehaves fails a course with a typed code a user can act on, never INTERNAL (#30):
 * output that never fits the structure (MODEL_OUTPUT_INVALID), paragraphs none of whose cited
 * passages support them (MODEL_OUTPUT_UNGROUNDED), a model the server does not have
 * (MODEL_NOT_FOUND). A chapter's failure names its chapter in the message and `details.chapter`,
 * in the sync answer, in progress and in the course.failed reason.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import { call, errorOf } from "../helpers/server.ts";
import { filesForm, tidesNotes } from "./helpers.ts";

const TIDES = tidesNotes();

let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer();
});
afterAll(() => model?.stop());

const isChapterCall = (body: Record<string, any>) => JSON.stringify(body.format ?? "").includes("key_concepts");

/** A course from the tides notes, in sync mode, as the caller sees its answer. */
const generate = (user: string) =>
  call(model.srv, "/v2/courses/generate-from-files?mode=sync", {
    key: model.key,
    user,
    body: filesForm({ num_chapters: "1" }, [{ name: "tides.md", content: TIDES, type: "text/markdown" }]),
  });

async function failedCourse(user: string) {
  const r = await generate(user);
  expect(r.status).toBe(500);
  const error = errorOf(r);
  expect(error.code).not.toBe("INTERNAL");
  const courseId = r.body.error.details.course_id as string;
  const progress = await call(model.srv, `/v2/courses/${courseId}/progress`, { key: model.key, user });
  expect(progress.body.course_status).toBe("failed");
  expect(progress.body.error.code).toBe(error.code);
  return { error, progress: progress.body };
}

test("a chapter reply that never fits its structure is MODEL_OUTPUT_INVALID naming the chapter", async () => {
  model.fake.respondWith(({ body }) => (isChapterCall(body) ? '{"sections": [ {"heading": "Tides"' : undefined));
  try {
    const { error, progress } = await failedCourse("invalid");
    expect(error.code).toBe("MODEL_OUTPUT_INVALID");
    expect(error.message).toMatch(/^Chapter 1 \(".+"\): The model's reply did not match the expected structure/);
    expect(progress.error.message).toBe(error.message);
  } finally {
    model.fake.respondWith(null);
  }
});

test("paragraphs their citations do not support are MODEL_OUTPUT_UNGROUNDED", async () => {
  model.fake.respondWith(({ body }) => {
    if (!isChapterCall(body)) return undefined;
    const handle = /"const":"(S\d+)"/.exec(JSON.stringify(body.format))?.[1] ?? "S1";
    const invented = (n: number) => ({
      text: `Volcanic eruptions on the far side of Jupiter's moon Io, observed in ${1990 + n}, set the price of wheat in medieval Flanders.`,
      sources: [handle],
    });
    const q = (prompt: string) => ({
      type: "mcq",
      prompt,
      choices: ["One", "Two", "Three"],
      answer: 1,
      explanation: "Said so.",
    });
    return JSON.stringify({
      sections: [{ heading: "Io", paragraphs: [invented(1), invented(2)] }],
      key_concepts: ["Io", "wheat", "Flanders"],
      quiz: { questions: [q("How many moons?"), q("How many wheats?"), q("How many fields?")] },
    });
  });
  try {
    const { error } = await failedCourse("ungrounded");
    expect(error.code).toBe("MODEL_OUTPUT_UNGROUNDED");
    expect(error.message).toContain("Chapter 1");
  } finally {
    model.fake.respondWith(null);
  }
});

test("a model the server does not have is MODEL_NOT_FOUND with the model's name", async () => {
  const missing = await startModelServer({ env: { LLM_MODEL: "no-such-model" } });
  try {
    const r = await call(missing.srv, "/v2/courses/generate?mode=sync", {
      key: missing.key,
      user: "missing-model",
      json: { topic: "Tides and their causes", num_chapters: 1 },
    });
    expect(r.status).toBe(500);
    expect(errorOf(r).code).toBe("MODEL_NOT_FOUND");
    expect(errorOf(r).message).toContain("no-such-model");
  } finally {
    await missing.stop();
  }
});
