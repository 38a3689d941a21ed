/**
 * One tenant's backlog does not hold another tenant's course (#32): with one job at a time, a
 * tenant that queued five courses and another that then asks for one take turns, so the second
 * tenant's course is built right after the one running when it asked, not after all five.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";
import { filesForm, tidesNotes } from "./helpers.ts";

let srv: TestApp;
let acme: string;
let globex: string;

const NOTES = (n: number) => tidesNotes(`Tides ${n}`);

beforeAll(async () => {
  srv = await startApp({
    env: { JOB_CONCURRENCY: "1", LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "10000" },
  });
  acme = await srv.createKey("acme", "production");
  globex = await srv.createKey("globex", "production");
});
afterAll(() => srv?.stop());

async function requestCourse(key: string, n: number): Promise<string> {
  const r = await call(srv, "/v2/courses/generate-from-files", {
    key,
    user: "learner",
    body: filesForm({ num_chapters: "1" }, [{ name: `tides-${n}.md`, content: NOTES(n), type: "text/markdown" }]),
  });
  expect(r.status).toBe(202);
  return r.body.course_id ?? r.body.course?.id;
}

test("another tenant's course is built next, not after the whole backlog", async () => {
  const backlog: string[] = [];
  for (let n = 1; n <= 5; n++) backlog.push(await requestCourse(acme, n));
  const other = await requestCourse(globex, 99);
  const finished: string[] = [];
  const pending = new Map([...backlog.map((id) => [id, acme] as const), [other, globex] as const]);
  const deadline = Date.now() + 240_000;
  while (pending.size > 0 && Date.now() < deadline) {
    for (const [id, key] of pending) {
      const p = await call(srv, `/v2/courses/${id}/progress`, { key, user: "learner" });
      if (p.body.course_status !== "generating") {
        expect(p.body.course_status).toBe("completed");
        finished.push(id);
        pending.delete(id);
      }
    }
    await Bun.sleep(50);
  }
  expect(pending.size).toBe(0);
  // At most the courses already taken when it asked (the running one, and one claimed alongside) come first.
  expect(finished.indexOf(other)).toBeLessThanOrEqual(2);
  expect(finished.slice(-2).every((id) => backlog.includes(id))).toBe(true);
});
