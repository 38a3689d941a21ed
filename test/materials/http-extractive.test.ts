/** Every material endpoint through the real server with no LLM: the extractive engine makes them. */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answerLeaks, nearDuplicate, promptStems } from "../../src/llm/artefacts/checks.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { expectGuarded } from "../helpers/route-cases.ts";
import { call, errorOf } from "../helpers/server.ts";
import { BIOLOGY, insertRichCourse } from "./fixtures.ts";
import { usageRows } from "./ledger.ts";

let srv: TestApp;
let key: string;
let otherTenantKey: string;
let testKey: string;
let completed: string;
let generating: string;
let failed: string;

const owner = () => ({ apiKey: key, externalUserId: "learner" });
const as = (json?: unknown, user = "learner", k = key) => ({ key: k, user, json });

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  otherTenantKey = await srv.createKey("globex", "production");
  testKey = await srv.createKey("acme", "test");
  completed = await insertRichCourse(srv.dataDir, owner());
  generating = await insertRichCourse(srv.dataDir, owner(), { status: "generating" });
  failed = await insertRichCourse(srv.dataDir, owner(), { status: "failed" });
  await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "someone-else" });
  await insertRichCourse(srv.dataDir, { apiKey: otherTenantKey, externalUserId: "learner" });
});
afterAll(() => srv.stop());

describe("ownership: every material endpoint hides courses the caller does not own", () => {
  const endpoints: [string, string, unknown][] = [
    ["GET", "study-guide", undefined],
    ["GET", "notes", undefined],
    ["POST", "generate-notes", {}],
    ["POST", "generate-flashcards", {}],
    ["POST", "generate-exam", { exam_size: 10 }],
    ["POST", "ask", { question: "What is osmosis?" }],
  ];
  test("no key is 401; another learner's, another tenant's, a test key's, unknown and malformed ids are 404", async () => {
    for (const [method, path, json] of endpoints) {
      await expectGuarded(
        srv,
        { method, path: `/v2/courses/${completed}/${path}`, json },
        { key, user: "learner", otherTenantKey, testKey, otherUser: "someone-else" },
      );
      const cases = [
        call(srv, `/v2/courses/${crypto.randomUUID()}/${path}`, { method, ...as(json) }),
        call(srv, `/v2/courses/not-a-uuid/${path}`, { method, ...as(json) }),
      ];
      for (const r of await Promise.all(cases)) {
        expect(`${path} ${r.status}`).toBe(`${path} 404`);
        expect(errorOf(r).message).toBe("Course not found");
      }
    }
    expect(usageRows(srv.dataDir, "notes")).toHaveLength(0);
  });
});

describe("study guide", () => {
  test("a completed course's guide: title and sections with items, bullets or body, made by the extractive engine", async () => {
    const r = await call(srv, `/v2/courses/${completed}/study-guide`, as());
    expect(r.status).toBe(200);
    const g = r.body.study_guide;
    expect(g.title).toContain("Cell Biology");
    expect(g.sections.length).toBeGreaterThanOrEqual(2);
    for (const s of g.sections) {
      expect(typeof s.heading).toBe("string");
      expect(["items", "bullets", "body"].filter((k) => k in s)).toHaveLength(1);
    }
    for (const ch of BIOLOGY)
      expect(g.sections.some((s: { heading: string }) => s.heading.includes(ch.title))).toBe(true);
    expect([r.body.engine, r.body.model]).toEqual(["extractive", "extractive"]);
    const again = await call(srv, `/v2/courses/${completed}/study-guide`, as());
    expect(again.body).toEqual(r.body);
  });

  test("while generating, and after a failure, study_guide is null with a message", async () => {
    for (const id of [generating, failed]) {
      const r = await call(srv, `/v2/courses/${id}/study-guide`, as());
      expect(r.status).toBe(200);
      expect(r.body.study_guide).toBeNull();
      expect(r.body.message).toMatch(id === generating ? /still generating/ : /resume/);
    }
  });
});

describe("notes", () => {
  test("first generation is charged 0.05 USD once; the cached repeat is free", async () => {
    const first = await call(srv, `/v2/courses/${completed}/generate-notes`, as({}));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      course_id: completed,
      cached: false,
      engine: "extractive",
      model: "extractive",
      options: { learning_goal: "exams", learning_style: "clear_structured", tutor_tone: "professor" },
    });
    const md: string = first.body.notes;
    expect(md).toContain("## Introduction");
    expect(md).toContain("## Conclusion");
    BIOLOGY.forEach((ch, i) => {
      expect(md).toContain(`## Chapter ${i + 1}: ${ch.title}`);
    });
    const repeat = await call(srv, `/v2/courses/${completed}/generate-notes`, as({ learning_goal: "exams" }));
    expect(repeat.body.cached).toBe(true);
    expect(repeat.body.notes).toBe(md);
    const rows = usageRows(srv.dataDir, "notes");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount_micros).toBe(50_000);
  });

  test("other options are another set of notes, charged once more; GET returns the newest or the one asked for", async () => {
    const peer = await call(
      srv,
      `/v2/courses/${completed}/generate-notes`,
      as({ learning_style: "concise", tutor_tone: "peer", learning_goal: "practical" }),
    );
    expect(peer.body.cached).toBe(false);
    expect(peer.body.notes).toContain("cheat sheet");
    expect(usageRows(srv.dataDir, "notes")).toHaveLength(2);

    const latest = await call(srv, `/v2/courses/${completed}/notes`, as());
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({
      course_id: completed,
      notes: peer.body.notes,
      options: { tutor_tone: "peer" },
      model: "extractive",
      engine: "extractive",
    });
    expect(typeof latest.body.created_at).toBe("string");
    const professor = await call(srv, `/v2/courses/${completed}/notes?tutor_tone=professor`, as());
    expect(professor.body.options.tutor_tone).toBe("professor");
    const none = await call(srv, `/v2/courses/${completed}/notes?tutor_tone=mentor`, as());
    expect(none.status).toBe(404);
    expect(usageRows(srv.dataDir, "notes")).toHaveLength(2);
  });

  test("GET is 404 before any notes; 409 while generating; 422 for bad options or an unknown model_key", async () => {
    const other = await insertRichCourse(srv.dataDir, owner());
    const none = await call(srv, `/v2/courses/${other}/notes`, as());
    expect(none.status).toBe(404);
    expect(errorOf(none).code).toBe("NOTES_NOT_FOUND");
    const busy = await call(srv, `/v2/courses/${generating}/generate-notes`, as({}));
    expect(busy.status).toBe(409);
    expect(errorOf(busy).code).toBe("COURSE_GENERATING");
    expect((await call(srv, `/v2/courses/${failed}/generate-notes`, as({}))).status).toBe(409);
    for (const body of [
      { learning_goal: "career" },
      { learning_style: "poetic" },
      { tutor_tone: "drill" },
      { model_key: "gpt-17" },
    ]) {
      const r = await call(srv, `/v2/courses/${other}/generate-notes`, as(body));
      expect(r.status).toBe(422);
      errorOf(r);
    }
    expect(usageRows(srv.dataDir, "notes")).toHaveLength(2);
  });
});

describe("flashcards", () => {
  test("a deck of the terms the chapters define, no two cards alike front or back; the repeat comes from the cache", async () => {
    const r = await call(srv, `/v2/courses/${completed}/generate-flashcards`, as({}));
    expect(r.status).toBe(200);
    const deck = r.body.flashcards;
    expect(r.body.from_cache).toBe(false);
    expect([r.body.engine, r.body.model]).toEqual(["extractive", "extractive"]);
    expect(deck.deck_title).toContain("Cell Biology");
    expect(deck.total).toBe(deck.cards.length);
    const fronts = deck.cards.map((c: { front: string }) => c.front.toLowerCase());
    expect(new Set(fronts).size).toBe(fronts.length);
    expect(new Set(deck.cards.map((c: { back: string }) => c.back.toLowerCase())).size).toBe(deck.cards.length);
    // Every term the chapters define ("Osmosis is the diffusion of water …") has its card, its definition on the back.
    for (const term of ["osmosis", "diffusion", "photosynthesis", "chlorophyll", "calvin cycle", "krebs cycle"]) {
      const card = deck.cards.find((c: { front: string }) => c.front.toLowerCase() === term);
      expect(card?.back.toLowerCase()).toMatch(new RegExp(`^(the )?${term} is `));
    }
    // No body at all is the same request as an empty object.
    const again = await call(srv, `/v2/courses/${completed}/generate-flashcards`, {
      key,
      user: "learner",
      method: "POST",
    });
    expect(again.status).toBe(200);
    expect(again.body.from_cache).toBe(true);
    expect(again.body.flashcards).toEqual(deck);
  });

  test("409 while generating, 422 for an unknown model", async () => {
    expect((await call(srv, `/v2/courses/${generating}/generate-flashcards`, as({}))).status).toBe(409);
    const bad = await call(srv, `/v2/courses/${completed}/generate-flashcards`, as({ model_key: "llama3.2" }));
    expect(bad.status).toBe(422);
    expect(errorOf(bad).details).toMatchObject({ known: ["extractive"] });
  });
});

describe("exam", () => {
  test("never padded: a size the course cannot supply is 422 saying how many it can; that many come back distinct, spread over the chapters", async () => {
    const over = await call(srv, `/v2/courses/${completed}/generate-exam`, as({ exam_size: 50 }));
    expect(over.status).toBe(422);
    const error = errorOf(over);
    expect(error.code).toBe("EXAM_SIZE_UNAVAILABLE");
    const available = (error.details as { available: number }).available;
    expect(available).toBeGreaterThanOrEqual(10);
    expect(available).toBeLessThan(50);
    expect(error.message).toContain(`at most ${available}`);
    for (const size of [10, available]) {
      const r = await call(srv, `/v2/courses/${completed}/generate-exam`, as({ exam_size: size }));
      expect(r.status).toBe(200);
      const { exam } = r.body;
      expect(r.body.from_cache).toBe(false);
      expect(r.body.engine).toBe("extractive");
      expect(exam.total).toBe(size);
      expect(exam.questions).toHaveLength(size);
      expect(exam.title).toContain("Cell Biology");
      expect(exam.instructions).toContain(String(size));
      const stems = exam.questions.map((q: { prompt: string }) => promptStems(q.prompt));
      stems.forEach((a: Set<string>, i: number) => {
        stems.slice(0, i).forEach((b: Set<string>) => {
          expect(nearDuplicate(a, b)).toBe(false);
        });
      });
      expect(new Set(exam.questions.map((q: { type: string }) => q.type))).toEqual(new Set(["mcq", "short_answer"]));
      // Every chapter is asked about: each question quotes or answers from one chapter's text.
      for (const chapter of BIOLOGY) {
        const text = chapter.content.replace(/\s+/g, " ");
        expect(
          exam.questions.some((q: { explanation?: string; answer: unknown }) =>
            text.includes(/“(.+?)” \(/.exec(q.explanation ?? "")?.[1] ?? String(q.answer)),
          ),
        ).toBe(true);
      }
      for (const q of exam.questions) {
        if (q.type === "mcq") {
          expect(q.choices.length).toBeGreaterThanOrEqual(3);
          expect(q.answer).toBeLessThan(q.choices.length);
          expect(answerLeaks(q.prompt, q.choices[q.answer])).toBe(false);
          expect(q.explanation).toMatch(/^The source says: “.+” \(.+\)$/);
        } else {
          expect(q.answer.length).toBeGreaterThan(0);
          expect(q.rubric.length).toBeGreaterThanOrEqual(2);
          expect(q.rubric.length).toBeLessThanOrEqual(4);
        }
      }
    }
    const cached = await call(srv, `/v2/courses/${completed}/generate-exam`, as({ exam_size: 10 }));
    expect(cached.body.from_cache).toBe(true);
  });

  test("the size a 422 names does not depend on the size asked: every larger size names it, and it is built", async () => {
    const availableFor = async (size: number) => {
      const r = await call(srv, `/v2/courses/${completed}/generate-exam`, as({ exam_size: size }));
      expect(r.status).toBe(422);
      return (errorOf(r).details as { available: number }).available;
    };
    const available = await availableFor(50);
    expect(available).toBeGreaterThanOrEqual(10);
    for (const size of [available + 1, Math.ceil((available + 51) / 2)])
      expect(await availableFor(size)).toBe(available);
    const r = await call(srv, `/v2/courses/${completed}/generate-exam`, as({ exam_size: available }));
    expect(r.status).toBe(200);
    expect(r.body.exam.questions).toHaveLength(available);
    // Every chapter's questions are built whatever the size: slow on a loaded machine, not wrong.
  }, 60_000);

  test("exam_size outside 10-50 or not an integer is 422; 409 while generating", async () => {
    for (const exam_size of [9, 51, 12.5, "thirty"]) {
      const r = await call(srv, `/v2/courses/${completed}/generate-exam`, as({ exam_size }));
      expect(r.status).toBe(422);
      errorOf(r);
    }
    const busy = await call(srv, `/v2/courses/${generating}/generate-exam`, as({ exam_size: 10 }));
    expect(busy.status).toBe(409);
  });
});

test("the OpenAPI document lists every material endpoint", async () => {
  const { body } = await call(srv, "/openapi.json");
  const base = "/v2/courses/{course_id}";
  expect(body.paths[`${base}/study-guide`].get).toBeDefined();
  expect(body.paths[`${base}/notes`].get).toBeDefined();
  for (const p of ["generate-notes", "generate-flashcards", "generate-exam", "ask"])
    expect(body.paths[`${base}/${p}`].post).toBeDefined();
});
