/**
 * A multiple-choice question never offers the same choice twice (#29): a reader found "What does
 * ASVS stand for?" offering "Cascading Style Sheets" twice, in a handbook that spells CSS out in
 * two places. Through the API with the built-in engine, and the storing check that refuses any
 * question, whoever wrote it, whose choices repeat one another.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { choicesProblem } from "../../src/llm/artefacts/item-checks.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

const SPELLED_OUT = [
  "Cascading Style Sheets (CSS) describe how the elements of a web page are laid out and coloured.",
  "Hypertext Transfer Protocol (HTTP) carries requests from a browser to a server and their responses back.",
  "Document Object Model (DOM) is the tree of objects a browser builds from the markup of a page.",
  "Application Security Verification Standard (ASVS) lists the checks a team runs before it ships an application.",
  "Transport Layer Security (TLS) encrypts the connection between the browser and the server.",
];

const TEXT = `# Building for the web

## Pages and styles

${SPELLED_OUT.slice(0, 3).join("\n")}
A stylesheet is a file of rules that select elements and give them properties such as colours and margins.
A selector is the part of a rule that says which elements of the page the rule applies to.
The cascade is the order in which the browser applies rules when several of them select one element.
A browser downloads the markup first, then every stylesheet the markup links to, then the scripts.

## Security of applications

${SPELLED_OUT.slice(3).join("\n")}
Cascading Style Sheets (CSS) can also hide content, so a review reads the styles as well as the markup.
A verification level is the depth of testing that an application must pass for the risk it carries.
A threat model is a description of the attackers an application faces and of what they could reach.
A penetration test is an attempt by a tester to break into an application the way an attacker would.
An audit is a review of an application's code and configuration against the requirements it claims.
`;

let srv: TestApp;
let choices: string[][] = [];

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  const key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([TEXT], "web.md", { type: "text/markdown" }));
  form.append("num_chapters", "2");
  const made = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "learner", body: form });
  if (made.status !== 200) throw new Error(`course generation failed: ${made.status} ${made.text}`);
  const id = made.body.course.id;
  const as = (json?: unknown) => ({ key, user: "learner", json });
  const course = await call(srv, `/v2/courses/${id}`, as());
  const exam = await call(srv, `/v2/courses/${id}/generate-exam`, as({ exam_size: 10 }));
  const questions = [
    ...(course.body.chapters as { quiz: { questions: { type: string; choices?: string[] }[] } }[]).flatMap(
      (c) => c.quiz.questions,
    ),
    ...((exam.body.exam?.questions ?? []) as { type: string; choices?: string[] }[]),
  ];
  choices = questions.filter((q) => q.type === "mcq").map((q) => q.choices!);
}, 300_000);
afterAll(() => srv.stop());

test("the course asks what its abbreviations stand for, each choice offered once", () => {
  const standFor = choices.filter((c) => c.some((choice) => SPELLED_OUT.some((s) => s.startsWith(`${choice} (`))));
  expect(standFor.length).toBeGreaterThan(0);
  for (const c of choices) expect(new Set(c.map((choice) => choice.toLowerCase())).size).toBe(c.length);
});

test("the storing check refuses a question whose choices repeat one another", () => {
  const q = {
    type: "mcq" as const,
    prompt: "What does ASVS stand for?",
    choices: [
      "Cascading Style Sheets",
      "Application Security Verification Standard",
      "Hypertext Transfer Protocol",
      "Cascading  Style Sheets",
    ],
    answer: 1,
    explanation: "The standard's own name.",
  };
  expect(choicesProblem(q)).toContain("twice");
  expect(choicesProblem({ ...q, choices: [...q.choices.slice(0, 3), "Document Object Model"] })).toBeNull();
});
