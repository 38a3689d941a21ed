/**
 * Short answers of a model's exam are marked by that model: the real server against the fake
 * Ollama over HTTP (prompt, schema-checked reply, re-ask, 503 when the model is down).
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import type { ShortAnswerQuestion } from "../../src/llm/artefacts.ts";
import { markAgainstRubric } from "../../src/progress/rubric-coverage.ts";
import type { TestApp } from "../helpers/app.ts";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import type { FakeOllama } from "../helpers/fake-ollama.ts";
import { call, errorOf } from "../helpers/server.ts";
import { insertRichCourse } from "../materials/fixtures.ts";
import { cacheExam, EXAM } from "./fixtures.ts";

let model: ModelServer;
let fake: FakeOllama;
let srv: TestApp;
let key: string;
let course: string;
/** Replies still to send with one mark too few (a schema violation). */
let shortReplies = 0;

/** A paraphrase sharing almost no words with the rubric: what a model recognises and rubric coverage cannot. */
const PARAPHRASE = "It takes up liquid until it pops.";
const ANSWERS = [0, "Stuff spreads out from crowded places to empty ones, for free.", PARAPHRASE, ""];

/** The fake model's marks for each answer it is shown. */
const MARKS: Record<string, string[]> = {
  [ANSWERS[1] as string]: ["yes", "partly"],
  [PARAPHRASE]: ["yes", "yes"],
};

const gradings = () => fake.generations().filter((c) => c.body?.format?.properties?.points);
const attempt = () =>
  call(srv, `/v2/courses/${course}/exam-attempts`, {
    key,
    user: "learner",
    json: { exam_size: 12, answers: ANSWERS },
  });

beforeAll(async () => {
  model = await startModelServer({ env: { LLM_MODEL: "llama3.2", LLM_MAX_RETRIES: "1" } });
  ({ fake, srv, key } = model);
  course = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" }, { model: "llama3.2" });
  await cacheExam(srv.dataDir, course, { size: 12, model: "llama3.2", engine: "ollama" });
});
afterAll(() => model.stop());
beforeEach(() => {
  fake.behave("ok");
  shortReplies = 0;
  fake.respondWith(({ body, prompt }) => {
    if (!body.format?.properties?.points) return undefined;
    const answer = /<<<\n([\s\S]*?)\n>>>/.exec(prompt)?.[1] ?? "";
    const marks = (MARKS[answer] ?? ["no", "no"]).slice(0, shortReplies-- > 0 ? 1 : undefined);
    return JSON.stringify({
      points: marks.map((met, i) => ({ met, comment: `Point ${i + 1} judged ${met}.` })),
      feedback: `Model feedback on: ${answer}`,
    });
  });
});

test("the exam's model marks each free-text answer against its rubric; mcq and blanks never reach it", async () => {
  const before = gradings().length;
  const r = await attempt();
  expect(r.status).toBe(200);
  expect(r.body.grader).toEqual({ engine: "ollama", model: "llama3.2" });
  const [mcq, spread, paraphrase, blank] = r.body.results;
  expect(mcq).toMatchObject({ correct: true, score: 1 });
  expect(spread.rubric.map((p: any) => [p.met, p.credit, p.comment])).toEqual([
    ["yes", 1, "Point 1 judged yes."],
    ["partly", 0.5, "Point 2 judged partly."],
  ]);
  expect(spread).toMatchObject({ score: 0.75, correct: true, explanation: `Model feedback on: ${ANSWERS[1]}` });
  expect(paraphrase).toMatchObject({ score: 1, correct: true });
  // The built-in grader would not have seen the paraphrase.
  const { prompt, rubric } = EXAM[2] as ShortAnswerQuestion;
  expect(markAgainstRubric(prompt, rubric, PARAPHRASE).points.some((p) => p.met === "yes")).toBe(false);
  expect(blank).toMatchObject({ type: "worked_problem", score: 0 });
  expect([r.body.score, r.body.total]).toEqual([2.75, 4]);

  const calls = gradings().slice(before);
  expect(calls).toHaveLength(2);
  const prompts = calls.map((c) => c.body!.messages.map((m: { content: string }) => m.content).join("\n"));
  const shown = prompts.find((p) => p.includes(PARAPHRASE))!;
  expect(shown).toContain("1. Osmosis moves water into the cell\n2. The cell swells and may burst");
  expect(shown).toContain("Question: What happens to a red blood cell placed in pure water?");
  expect(calls.every((c) => c.body!.model === "llama3.2")).toBe(true);
});

test("a reply with a mark missing breaks the schema, is asked again, and the attempt is graded", async () => {
  const before = gradings().length;
  shortReplies = 1;
  const r = await attempt();
  expect(r.status).toBe(200);
  expect(r.body.score).toBe(2.75);
  expect(gradings().length - before).toBe(3);
});

test("with the model down the attempt is 503 with the model's code, and nothing is stored", async () => {
  const progress = () => call(srv, `/v2/courses/${course}/learner-progress`, { key, user: "learner" });
  const stored = (await progress()).body.exams.attempts;
  fake.behave("down");
  const r = await attempt();
  expect(r.status).toBe(503);
  expect(errorOf(r).code).toMatch(/^LLM_/);
  fake.behave("ok");
  expect((await progress()).body.exams.attempts).toBe(stored);
});
