/** Course Q&A through the real server: retrieval over chapters and source documents, confidence, caps. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";
import { indexCourse, insertRichCourse } from "./fixtures.ts";
import { usageRows } from "./ledger.ts";

const SOURCE = `# Field notes on tardigrades

Tardigrades survive extreme desiccation by entering cryptobiosis, a state in which their metabolism nearly stops.
In cryptobiosis a tardigrade curls into a dry "tun" and can revive decades later when water returns.`;

let srv: TestApp;
let key: string;
let testKey: string;
let course: string;

const ask = (question: unknown, k = key, id = course) =>
  call(srv, `/v2/courses/${id}/ask`, { key: k, user: "learner", json: { question } });

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000", TEST_KEY_QUERIES_PER_MONTH: "2" } });
  key = await srv.createKey("acme", "production");
  testKey = await srv.createKey("sandbox", "test");
  course = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" });
  await indexCourse(srv.dataDir, course, { filename: "tardigrades.md", markdown: SOURCE });
});
afterAll(() => srv.stop());

describe("ask", () => {
  test("answers from the course's chapters, with the passages and their cosine scores", async () => {
    const r = await ask("What is osmosis across a selectively permeable membrane?");
    expect(r.status).toBe(200);
    expect(r.body.answer).toMatch(/osmosis/i);
    expect(r.body.sources.length).toBeGreaterThan(0);
    for (const s of r.body.sources) {
      expect(Object.keys(s).sort()).toEqual(["score", "text"]);
      expect(s.score).toBeGreaterThanOrEqual(-1);
      expect(s.score).toBeLessThanOrEqual(1);
    }
    expect(r.body.sources[0].text).toMatch(/osmosis/i);
  });

  test("answers from the documents the course was built from", async () => {
    const r = await ask("How do tardigrades survive desiccation?");
    expect(r.status).toBe(200);
    expect(r.body.sources[0].text).toContain("cryptobiosis");
  });

  test("an unrelated question says confidence is low", async () => {
    const r = await ask("Who won the 1998 football world cup final in Paris?");
    expect(r.status).toBe(200);
    expect(r.body.low_confidence).toBe(true);
    expect(r.body.answer).toMatch(/^Low confidence/);
    expect(r.body.sources.every((s: { score: number }) => s.score < 0.5)).toBe(true);
  });

  test("an empty, blank or over-long question is 422", async () => {
    for (const q of ["", "   ", "x".repeat(2001), 42]) {
      const r = await ask(q);
      expect(r.status).toBe(422);
      errorOf(r);
    }
    expect((await ask("y".repeat(2000))).status).toBe(200);
  });

  test("questions count toward the test key's monthly query cap (403 TEST_USAGE_LIMIT beyond it)", async () => {
    const own = await insertRichCourse(srv.dataDir, { apiKey: testKey, externalUserId: "learner" });
    await indexCourse(srv.dataDir, own);
    const before = usageRows(srv.dataDir, "query").length;
    expect((await ask("What is osmosis?", testKey, own)).status).toBe(200);
    expect((await ask("What is diffusion?", testKey, own)).status).toBe(200);
    const over = await ask("What is active transport?", testKey, own);
    expect(over.status).toBe(403);
    expect(errorOf(over).code).toBe("TEST_USAGE_LIMIT");
    expect(usageRows(srv.dataDir, "query").length - before).toBe(2);
    // Production keys are not capped.
    expect((await ask("What is glycolysis?")).status).toBe(200);
  });
});
