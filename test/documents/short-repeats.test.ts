/**
 * A short document's repeats are found as a long one's are (#28): its check runs in the extraction
 * process that wrote its chunks, from the chunks in hand, instead of waiting in the extractive
 * engine's thread behind any course being built, and the document's details say the same thing. A note whose
 * second section copies its first names that copy; the same note without it names none.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { filesForm } from "../courses/helpers.ts";
import { LIGHT_REACTIONS } from "../courses/sources.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
}, 120_000);
afterAll(() => srv?.stop());

async function detailsOf(name: string, markdown: string) {
  const res = await call(srv, "/v2/documents/process", {
    key,
    user: "reader",
    body: filesForm({}, [{ name, content: markdown, type: "text/markdown" }]),
  });
  expect(res.status).toBe(200);
  const [doc] = res.body.documents;
  expect(doc.status).toBe("ready");
  expect(doc.chunk_count).toBeLessThanOrEqual(8);
  return (await call(srv, `/v2/documents/${doc.id}`, { key, user: "reader" })).body.details;
}

test("a short note that copies its own section names the copy; without it, nothing", async () => {
  const body = LIGHT_REACTIONS.replace(/^# .*\n/, "");
  const copied = await detailsOf("twice.md", `# Light\n\n## First reading\n\n${body}\n\n## Again\n\n${body}\n`);
  expect(copied.repeated_section_count).toBe(1);
  expect(copied.repeated_words / copied.words).toBeCloseTo(1 / 2, 1);
  const once = await detailsOf("once.md", `# Light\n\n## First reading\n\n${body}\n`);
  expect(once.repeated_section_count).toBe(0);
}, 120_000);
