/**
 * No model configured: which topic courses a learner's indexed documents (the DPR paper and the
 * TraceMonkey paper) can carry, through the real server and corpus. A topic is accepted only when
 * its rarer words are covered together in one document's section, and the course then cites only
 * that document.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { topicTerms } from "../../src/courses/topic-coverage.ts";
import { call, errorOf } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, settle } from "./helpers.ts";

setDefaultTimeout(300_000);

const CORPUS = "/work/shared/corpus/pdf";
const DPR = "dpr-paper-multi-column.pdf";
const TRACEMONKEY = "tracemonkey.pdf";
const LEARNER = "lea";

let env: CourseEnv;

const generate = (topic: string, user = LEARNER) =>
  call(env.srv, "/v2/courses/generate", { key: env.key, user, json: { topic, num_chapters: 2 } });

beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  const form = new FormData();
  for (const name of [DPR, TRACEMONKEY]) {
    form.append(
      "files",
      new File([await Bun.file(join(CORPUS, name)).arrayBuffer()], name, { type: "application/pdf" }),
    );
  }
  const r = await call(env.srv, "/v2/documents/process", { key: env.key, user: LEARNER, body: form });
  expect(r.status).toBe(200);
  expect(r.body.documents.map((d: any) => d.status)).toEqual(["ready", "ready"]);
}, 300_000);
afterAll(() => env.stop());

describe("topic terms", () => {
  test("stopwords and words naming the kind of course are dropped; rarer words weigh more", async () => {
    const terms = await topicTerms("Introduction to cooking pasta");
    expect(terms.map((t) => t.stem)).toEqual(["cook", "pasta"]);
    const [cooking, pasta] = terms;
    expect(pasta!.weight).toBeGreaterThan(cooking!.weight);
    expect((await topicTerms("Open-domain question answering")).map((t) => t.word)).toEqual([
      "open",
      "domain",
      "question",
      "answering",
    ]);
    // Jargon the frequency list lacks weighs most.
    const js = await topicTerms("Just-in-time compilation of JavaScript");
    expect(js.find((t) => t.word === "javascript")!.weight).toBe(Math.max(...js.map((t) => t.weight)));
  });
});

describe("topics the documents do not cover", () => {
  for (const topic of ["Introduction to cooking pasta", "Medieval castle architecture", "Photosynthesis in plants"]) {
    test(`"${topic}" is refused at once with 422, saying how to fix it`, async () => {
      const r = await generate(topic);
      expect(r.status).toBe(422);
      const e = errorOf(r);
      expect(e.code).toBe("TOPIC_NOT_COVERED");
      expect(e.message).toContain("do not cover");
      expect(e.message).toContain("POST /v2/documents/process");
      expect(e.message).toContain("OLLAMA_HOST");
      const details = e.details as {
        coverage: number;
        required_coverage: number;
        missing_terms: string[];
        documents_searched: number;
      };
      expect(details.coverage).toBeLessThan(details.required_coverage);
      expect(details.missing_terms.length).toBeGreaterThan(0);
      expect(details.documents_searched).toBe(2);
    });
  }

  test("the words of a topic appearing apart, in an unrelated example, are not coverage", async () => {
    // The DPR paper's appendix has "body of water" and "British Cycling" in one example.
    const r = await generate("The water cycle");
    expect(r.status).toBe(422);
    expect(errorOf(r).message).toContain("never used together");
  });

  test("a refusal leaves no course behind", async () => {
    const list = await call(env.srv, "/v2/courses?limit=100", { key: env.key, user: LEARNER });
    expect(list.body.data).toHaveLength(0);
  });

  test("a learner with no documents at all lacks a model rather than documents on the topic: 503", async () => {
    const r = await generate("Dense passage retrieval", "newcomer");
    expect(r.status).toBe(503);
    expect(errorOf(r).code).toBe("MODEL_NOT_CONFIGURED");
    expect(errorOf(r).message).toContain("OLLAMA_HOST");
  });
});

describe("topics the documents cover", () => {
  const cases: [string, string][] = [
    ["Dense passage retrieval for question answering", DPR],
    ["Open-domain question answering", DPR],
    // The DPR paper is about learning a retriever: "learning" and "retrieval" are used together throughout.
    ["Machine learning for retrieval", DPR],
    ["Just-in-time compilation of JavaScript", TRACEMONKEY],
    ["Trace trees", TRACEMONKEY],
  ];
  for (const [topic, source] of cases) {
    test(`"${topic}" is built from ${source} alone`, async () => {
      const r = await generate(topic);
      expect(r.status).toBe(202);
      const done = await settle(env.srv, env.key, LEARNER, r.body.course_id, 240_000);
      expect(done.course_status).toBe("completed");
      const course = (await call(env.srv, `/v2/courses/${r.body.course_id}`, { key: env.key, user: LEARNER })).body;
      expect(course.chapters).toHaveLength(2);
      for (const ch of course.chapters) {
        expect(ch.sources.length).toBeGreaterThan(0);
        expect(new Set(ch.sources.map((s: any) => s.filename))).toEqual(new Set([source]));
      }
    });
  }
});
