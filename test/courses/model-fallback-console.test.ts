/**
 * The console's note on a chapter the built-in engine wrote in the model's place (#30,
 * LLM_FALLBACK=extractive), in a real browser against a real server: the model fails chapter 2
 * after its re-asks, the course completes, and that chapter's page says so while the model's
 * chapters carry no such note. The server runs in this process, listening for the browser.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { type Browser, launchBrowser } from "../helpers/browser.ts";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import { call } from "../helpers/server.ts";
import { filesForm, settle } from "./helpers.ts";

setDefaultTimeout(300_000);

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
const LEARNER = "fallback-reader";
const NOTE = "The model failed this chapter, so it was built from the sources by the built-in extractive engine.";

let model: ModelServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  model = await startModelServer({
    env: { LLM_FALLBACK: "extractive", CHAPTER_CONCURRENCY: "3" },
    server: { listen: true },
  });
  // Chapter 2 is answered with prose on every attempt: the model fails it after its re-asks.
  model.fake.respondWith(({ body }) =>
    JSON.stringify(body.format ?? "").includes("key_concepts") &&
    body.messages.some((m: { content: string }) => m.content.includes("Write chapter 2:"))
      ? "Here is a chapter about rip currents, written as prose."
      : undefined,
  );
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
});
afterAll(async () => {
  await browser?.close();
  await model?.stop();
});

test("a fallen-back chapter carries the console's note; the model's chapters do not", async () => {
  const { srv, key } = model;
  const made = await call(srv, "/v2/courses/generate-from-files", {
    key,
    user: LEARNER,
    body: filesForm({ num_chapters: "3", search_enabled: "false" }, [
      { name: "lake.md", content: NOTES, type: "text/markdown" },
    ]),
  });
  expect(made.status).toBe(202);
  const courseId = made.body.course_id as string;
  await settle(srv, key, LEARNER, courseId);
  const course = (await call(srv, `/v2/courses/${courseId}`, { key, user: LEARNER })).body;
  expect(course.status).toBe("completed");
  expect(course.chapters.map((c: { generated_by: string }) => c.generated_by)).toEqual([
    "model",
    "extractive",
    "model",
  ]);

  await page.goto(`${srv.url}/app/`);
  await page.getByLabel("API key").fill(key);
  await page.getByLabel("Learner id").fill(LEARNER);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Your courses" }).waitFor();

  const noteOn = async (order: number) => {
    await page.goto(`${srv.url}/app/courses/${courseId}/chapters/${order}`);
    await page.getByRole("heading", { level: 2, name: new RegExp(`^Chapter ${order + 1}:`) }).waitFor();
    return page.getByRole("note").filter({ hasText: NOTE }).count();
  };
  expect(await noteOn(1)).toBe(1);
  expect(await noteOn(0)).toBe(0);
  expect(await noteOn(2)).toBe(0);
});
