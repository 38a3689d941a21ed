/**
 * What counts as evidence for an answer through HTTP (#29): a question typed without the text's
 * accents is still answered; a "when" question about a dynasty is answered by its years written as
 * a period; a question naming a year the answering sentence does not state is not answered by it;
 * and among sentences sharing the question's words, the one keeping them together is preferred.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keptTogether } from "../../src/llm/extractive/question-alignment.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

const NOT_ANSWERED = "The provided sources do not answer this question.";

const TOWN = `# Riverton

Riverton is a market town on the river Wend. In 1911 the old timber bridge was rebuilt in stone by the county engineers. The market square lies north of the river. Weekly markets have been held in the square since medieval times.

- Town hall architect: a local builder
- Town hall completed: 1923
- Town hall restored: never

## Schools

The École Normale of Riverton was founded by Joseph Lakanal, who wanted teachers trained in the town itself.

## History

Few documents about Riverton survive from the Five Dynasties period (907–960), when traders first reached the river.
`;

let srv: TestApp;
let key: string;
let doc: string;

const query = async (question: string): Promise<string> => {
  const res = await call(srv, "/v2/documents/query", { key, user: "reader", json: { question, document_ids: [doc] } });
  expect(res.status).toBe(200);
  return res.body.answer;
};

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([TOWN], "riverton.md", { type: "text/markdown" }));
  const indexed = await call(srv, "/v2/documents/process", { key, user: "reader", body: form });
  expect(indexed.body.ready).toBe(1);
  doc = indexed.body.documents[0].id;
  // Indexing starts the extraction worker: slow on a loaded machine, and not what is tested.
}, 60_000);
afterAll(() => srv.stop());

describe("evidence for an answer", () => {
  test("a name typed without its accents is the name the text writes with them", async () => {
    expect(await query("Who founded the Ecole Normale of Riverton?")).toContain("Joseph Lakanal");
  });

  test("a when question is answered by years written as a period", async () => {
    expect(await query("When was the Five Dynasties period?")).toContain("907–960");
  });

  test("the year the question names must be the answering sentence's", async () => {
    expect(await query("What happened to the bridge in 1911?")).toContain("rebuilt in stone");
    expect(await query("What happened to the bridge in 1923?")).toBe(NOT_ANSWERED);
  });
});

describe("keeping the question's words together", () => {
  const terms = [
    { term: "harper", weight: 5 },
    { term: "lee", weight: 4 },
    { term: "father", weight: 3 },
    { term: "profess", weight: 4 },
  ];
  const question = ["profess", "harper", "lee", "father"];

  test("a sentence holding the question's neighbouring terms side by side scores above one that scatters them", () => {
    const together = keptTogether(question, terms, ["harper", "lee", "father", "lawyer"]);
    const scattered = keptTogether(question, terms, [
      "harper",
      "lee",
      "hometown",
      "play",
      "perform",
      "annual",
      "father",
    ]);
    expect(together).toBeGreaterThan(scattered);
    expect(keptTogether(question, terms, [])).toBe(0);
  });
});
