/**
 * What an answer says through HTTP (#29): a low-confidence course answer is the abstention and
 * nothing else, in the text and in the fields alike; an answer never stops at a colon that
 * introduces what it leaves out: it quotes the list after the colon, or another sentence.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";
import { indexCourse, insertRichCourse } from "../materials/fixtures.ts";

const COURSE_NOT_ANSWERED = "Low confidence: the course's chapters and sources do not answer this question.";
const NOT_ANSWERED = "The provided sources do not answer this question.";

const WORKSPACE = `# The workspace

The entities that R creates and manipulates are known as objects. During an R session, objects are created and stored by name.

To remove objects the function rm is available:

\`\`\`r
> rm(x, y, z, ink, junk, temp, foo, bar)
\`\`\`

All objects created during an R session can be stored permanently in a file for use in future R sessions.

## Loops

R offers three kinds of loops:

- for loops, which run once for each element of a vector
- while loops, which run until their condition fails
- repeat loops, which run until a break statement

Loops are slower than the vectorised functions in most cases.
`;

const SOURCE = `# Field notes on tardigrades

Tardigrades survive extreme desiccation by entering cryptobiosis, a state in which their metabolism nearly stops.
In cryptobiosis a tardigrade curls into a dry "tun" and can revive decades later when water returns.`;

let srv: TestApp;
let key: string;
let doc: string;
let course: string;

const query = (question: string) =>
  call(srv, "/v2/documents/query", { key, user: "reader", json: { question, document_ids: [doc] } });
const ask = (question: string) => call(srv, `/v2/courses/${course}/ask`, { key, user: "learner", json: { question } });
/** The quoted text without its [n] marker. */
const quoted = (answer: string) => answer.replace(/\s*\[\d+\]$/, "");

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([WORKSPACE], "workspace.md", { type: "text/markdown" }));
  const indexed = await call(srv, "/v2/documents/process", { key, user: "reader", body: form });
  expect(indexed.body.ready).toBe(1);
  doc = indexed.body.documents[0].id;
  course = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" });
  await indexCourse(srv.dataDir, course, { filename: "tardigrades.md", markdown: SOURCE });
});
afterAll(() => srv.stop());

describe("an answer never ends at a colon that introduces what it leaves out", () => {
  test("a sentence announcing a code block is quoted with the code, not with the sentence after it", async () => {
    const r = await query("How do I remove objects from the workspace?");
    expect(r.status).toBe(200);
    expect(quoted(r.body.answer)).toBe(
      "To remove objects the function rm is available: `> rm(x, y, z, ink, junk, temp, foo, bar)`",
    );
  });

  test("a sentence announcing a list is quoted with the list", async () => {
    const r = await query("What kinds of loops does R offer?");
    expect(r.status).toBe(200);
    const text = quoted(r.body.answer);
    expect(text).toStartWith("R offers three kinds of loops:");
    for (const item of ["for loops", "while loops", "repeat loops"]) expect(text).toContain(item);
    expect(text).not.toMatch(/:$/);
  });

  test("every answer ends a sentence", async () => {
    for (const q of ["What are objects in R?", "How can objects be stored permanently?", "Which loops does R have?"]) {
      const r = await query(q);
      expect(r.status).toBe(200);
      if (r.body.answer !== NOT_ANSWERED) expect(quoted(r.body.answer)).toMatch(/[.!?)"'”’`]$/);
    }
  });
});

describe("a low-confidence course answer is an abstention", () => {
  test("low_confidence is true exactly when the answer is the abstention sentence", async () => {
    const questions = [
      "How do tardigrades survive desiccation?",
      "Who won the 1998 football world cup final in Paris?",
      "How long can tardigrades stay in a tun?",
      "What does the sodium-potassium pump consume?",
    ];
    const seen = new Set<boolean>();
    for (const q of questions) {
      const r = await ask(q);
      expect(r.status).toBe(200);
      expect(r.body.low_confidence).toBe(r.body.answer === COURSE_NOT_ANSWERED);
      seen.add(r.body.low_confidence);
    }
    expect([...seen].sort()).toEqual([false, true]);
  });

  test("a plain answer whose passage scores under 0.5 is shown as an answer, not flagged", async () => {
    const r = await ask("What absorbs red and blue light?");
    expect(r.status).toBe(200);
    expect(Math.max(...r.body.sources.map((s: { score: number }) => s.score))).toBeLessThan(0.5);
    expect(r.body.answer).toContain("Chlorophyll is the green pigment that absorbs red and blue light");
    expect(r.body.low_confidence).toBe(false);
  });
});
