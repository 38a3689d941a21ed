/**
 * What the answer quotes when a question's focus is not all in one sentence, and how the names a
 * question asks about are found in the text (#29), through HTTP: a question whose key terms the
 * text splits across two sentences is answered with both; a name the text writes in another form
 * ("Indian" for "India") is the name, a different name that begins alike ("Austrian", "Australia") is not.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

const NOT_ANSWERED = "The provided sources do not answer this question.";

const TEXT = `# Chopin in Paris

Chopin settled in Paris in the autumn of 1831, after the November Uprising had failed.
The move came at the age of twenty-one, and he never returned to his homeland.
His first Paris concert was given at the Salle Pleyel in February 1832.

# Reception

In India the recordings of his nocturnes sold forty thousand copies in their first year.
Critics in Vienna praised the nocturnes for their singing melodies.`;

let srv: TestApp;
let key: string;
let doc: string;

const query = (question: string) =>
  call(srv, "/v2/documents/query", { key, user: "reader", json: { question, document_ids: [doc] } });

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([TEXT], "chopin.md", { type: "text/markdown" }));
  const indexed = await call(srv, "/v2/documents/process", { key, user: "reader", body: form });
  expect(indexed.body.ready).toBe(1);
  doc = indexed.body.documents[0].id;
}, 60_000);
afterAll(() => srv.stop());

describe("a question's focus split across two sentences", () => {
  test("is answered with both sentences", async () => {
    const r = await query("At what age did Chopin move to Paris?");
    expect(r.status).toBe(200);
    expect(r.body.answer).toContain("Chopin settled in Paris in the autumn of 1831");
    expect(r.body.answer).toContain("at the age of twenty-one");
  });

  test("a question one sentence answers whole gets that sentence alone", async () => {
    const r = await query("Where was Chopin's first Paris concert given?");
    expect(r.status).toBe(200);
    expect(r.body.answer).toContain("Salle Pleyel");
    expect(r.body.answer).not.toContain("twenty-one");
  });
});

describe("the names a question asks about", () => {
  test("a name the text writes in another form is found", async () => {
    const r = await query("How many copies of the nocturnes were sold in the Indian market?");
    expect(r.status).toBe(200);
    expect(r.body.answer).toContain("forty thousand copies");
  });

  test("a name that only begins like one of the text's is not", async () => {
    const r = await query("How many copies of the nocturnes were sold in the Austrian market?");
    expect(r.status).toBe(200);
    expect(r.body.answer).toBe(NOT_ANSWERED);
  });
});
