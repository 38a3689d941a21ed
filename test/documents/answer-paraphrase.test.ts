/**
 * A question worded unlike the text (#29): "Who does Bond meet…?" is answered by the sentence in
 * which he "encounters" someone, a word WordNet gives as another for "meet", not by the sentence
 * that merely repeats the question's other words.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

const STORY = `# The last act

Bond returns alone to the ruined building after the funeral.

Inside the ruined building he encounters a disfigured Blofeld, who has wired it with explosives.

Bond escapes by boat before the building is demolished.

Bond later resigns from the service.
`;

let srv: TestApp;
let key: string;
let doc: string;

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([STORY], "story.md", { type: "text/markdown" }));
  const indexed = await call(srv, "/v2/documents/process", { key, user: "reader", body: form });
  expect(indexed.body.ready).toBe(1);
  doc = indexed.body.documents[0].id;
});
afterAll(() => srv.stop());

test("a question's word is found in the sentence as a word WordNet relates to it", async () => {
  const r = await call(srv, "/v2/documents/query", {
    key,
    user: "reader",
    json: { question: "Who does Bond meet in the ruined building?", document_ids: [doc] },
  });
  expect(r.status).toBe(200);
  expect(r.body.answer).toContain("he encounters a disfigured Blofeld");
});
