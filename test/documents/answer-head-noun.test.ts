/**
 * A "which/what X" question asks for what its head noun names (#29): "Which actor plays Mr.
 * Hinx?" asks for a person, as "who" does, so the answer is the sentence that names one beside the
 * question's terms, not the one that repeats the question's words without naming anybody new.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

const FILM = `# The film's villains

Mr. Hinx plays a silent, cruel part in the long fight aboard the night train.

The new cast members include Dave Bautista as Mr. Hinx, a hired assassin of the organisation.

The train fight was filmed over three weeks in Morocco.
`;

let srv: TestApp;
let key: string;
let doc: string;

const query = (question: string) =>
  call(srv, "/v2/documents/query", { key, user: "reader", json: { question, document_ids: [doc] } });

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([FILM], "film.md", { type: "text/markdown" }));
  const indexed = await call(srv, "/v2/documents/process", { key, user: "reader", body: form });
  expect(indexed.body.ready).toBe(1);
  doc = indexed.body.documents[0].id;
});
afterAll(() => srv.stop());

describe("a question's head noun sets the kind of answer", () => {
  for (const question of ["Which actor plays Mr. Hinx?", "What performer plays Mr. Hinx?"])
    test(`"${question}" is answered with the sentence naming the actor`, async () => {
      const r = await query(question);
      expect(r.status).toBe(200);
      expect(r.body.answer).toContain("Dave Bautista");
    });
});
