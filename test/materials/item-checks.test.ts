/**
 * Items a teacher would not be embarrassed by (#29), through the real API with the built-in engine:
 * a course from an uploaded manual whose sentences name years, versions and people, then its
 * quizzes, flashcards and study guide, and an exam of a course of real chapter text, read with the
 * item-checks report's own checks (bench/quality).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  definesCard,
  fragmentPrompt,
  fragmentStatement,
  type Item,
  kindOf,
  type Mcq,
  triviaBlank,
} from "../../bench/quality/item-checks.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";
import { insertRichCourse } from "./fixtures.ts";

const MANUAL = `# Version control with Git

## Commits and history

Git was created by Linus Torvalds in 2005 for the Linux kernel, and Git 2.40 appeared in 2023.
A commit is a snapshot of the project's files that records who changed what and why.
Every commit stores a pointer to its parent commit, so the history forms a chain of snapshots.
The commit message explains the reason for a change in a sentence or two.
A repository is a directory whose history of commits Git tracks from one version to the next.
The history of a repository lets a developer return to any earlier snapshot of the project.
Git compresses the snapshots of a repository, so a long history takes little disk space.
A hash identifies each commit by the contents of its snapshot and the hash of its parent.
The log command lists the commits of the current branch from the newest to the oldest.

## Branches and merging

A branch is a movable pointer to a commit that grows as new commits are added to it.
Because a branch is only a pointer to a commit, creating a branch is cheap and fast.
The main branch holds the history that a team has agreed to publish.
A merge combines the histories of two branches into a single commit with two parents.
A merge conflict is a disagreement between two branches that change the same lines of a file.
The developer resolves a merge conflict by editing the file and recording the result in a new commit.
Rebasing rewrites the commits of a branch so that they start from the newest commit of another branch.
A feature branch keeps unfinished work apart from the main branch until it is reviewed.
Short branches reduce merge conflicts, because fewer lines change while they are apart.

## Sharing work with remotes

A remote is a copy of the repository on another machine that developers push to and pull from.
GitHub, founded in 2008 by Chris Wanstrath, hosts remotes for millions of projects.
Pushing sends the new commits of a local branch to the matching branch of a remote.
Pulling fetches the commits of a remote branch and merges them into the local branch.
A pull request is a proposal to merge the commits of a feature branch into the main branch after review.
The review of a pull request lets other developers comment on each changed line before the merge.
A tag is a fixed name for one commit, such as the commit that a release was built from.

To publish a change to a shared repository:

1. Edit the files in the working directory.
2. Stage the edited files with the add command.
3. Record the staged files in a new commit with a clear message.
4. Push the new commit to the matching branch of the remote.
`;

// Nouns the garden text counts ("a slug", "an onion") and nouns it writes bare ("holds soil").
const GARDEN = `# Growing vegetables at home

## Beds and soil

An allotment is a rented plot of land where a gardener grows vegetables for a household.
A raised bed is a wooden frame filled with soil that drains faster than the ground around it.
An old raised bed holds soil that has lost most of its nitrogen after a few seasons.
The gardener spreads mulch over the soil of an empty raised bed to keep weeds away in winter.
Compost is decayed garden waste that returns nitrogen and structure to tired soil.
An earthworm drags compost from the surface of a raised bed into the soil below it.
A compost heap turns kitchen scraps and garden waste into compost within a year.
An open compost heap needs turning every few weeks so that air reaches its centre.
A seed tray is a shallow box in which seedlings grow before they are planted out.
An unheated greenhouse protects a seed tray from frost during the early spring.

## Water and pests

An irrigation pipe is a hose with small holes that waters a raised bed slowly.
A gardener fills an irrigation pipe from a water butt that collects rain from a roof.
A water butt is a barrel that stores rainwater for dry weeks in summer.
An aphid is a small insect that sucks sap from the young leaves of a plant.
A ladybird eats an aphid colony within a few days, so a gardener welcomes ladybirds.
A slug is a soft animal that eats seedlings at night and hides under a plank by day.
A beer trap is a buried cup of beer in which a slug drowns before it reaches a seedling.
An onion planted beside a carrot row hides the smell of the carrots from the carrot fly.
Netting over a seed tray keeps birds from the seedlings until they are strong.
Mulch keeps water in the soil, because it shades the surface from the sun and the wind.
`;
const COUNTED = [
  "gardener",
  "plank",
  "slug",
  "seedling",
  "onion",
  "aphid",
  "barrel",
  "seed tray",
  "water butt",
  "carrot row",
  "raised bed",
  "irrigation pipe",
  "compost heap",
  "allotment",
  "earthworm",
];
const MASS = ["soil", "compost", "mulch", "rainwater", "nitrogen", "sap"];

// A text that shows code typed at Python's prompt and what it printed.
const SESSIONS = `# Python basics

## Arithmetic

The interpreter evaluates an expression and shows its value. An operator is a special symbol that represents a computation like addition or multiplication. Python provides operators for addition, subtraction, multiplication and division:

\`\`\`
>>> 40 + 2
42
>>> 6 * 7
42
>>> 84 / 2
42.0
\`\`\`

Division always produces a floating-point number, even when both operands are integers. The operator ** performs exponentiation, which raises a number to a power:

\`\`\`
>>> 6**2 + 6
42
\`\`\`

A value is one of the basic things a program works with, like a letter or a number. A type is a category of values such as integers, floating-point numbers and strings.

\`\`\`
>>> type(2)
<class 'int'>
>>> type('Hello, World!')
<class 'str'>
\`\`\`

## Strings

A string is a sequence of characters enclosed in quotation marks. The operator + performs string concatenation, which joins strings by linking them end to end:

\`\`\`
>>> first = 'throat'
>>> second = 'warbler'
>>> first + second
'throatwarbler'
\`\`\`

The operator * also works on strings; it performs repetition. The function len returns the number of characters in a string:

\`\`\`
>>> len('banana')
6
>>> 'Spam' * 3
'SpamSpamSpam'
\`\`\`

A variable is a name that refers to a value. An assignment statement creates a new variable and gives it a value. A statement is a unit of code that the interpreter can execute. A function is a named sequence of statements that performs a computation.
`;

let srv: TestApp;
let key: string;
let courseId: string;
let richCourse: string;
const as = (json?: unknown) => ({ key, user: "learner", json });

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([MANUAL], "git-manual.md", { type: "text/markdown" }));
  form.append("num_chapters", "3");
  const r = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "learner", body: form });
  if (r.status !== 200) throw new Error(`course generation failed: ${r.status} ${r.text}`);
  courseId = r.body.course.id;
  richCourse = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" });
}, 120_000);
afterAll(() => srv.stop());

const chapterQuizzes = async () =>
  (
    (await call(srv, `/v2/courses/${courseId}`, as())).body.chapters as { quiz: { questions: Mcq[]; note?: string } }[]
  ).map((c) => c.quiz);
const quizzes = async (): Promise<Mcq[][]> => (await chapterQuizzes()).map((q) => q.questions);

describe("chapter quizzes", () => {
  test("each mixes at least three kinds of question, and at most 40% are fill-in-the-blank", async () => {
    const all = await quizzes();
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const quiz of all) {
      expect(quiz.length).toBeGreaterThanOrEqual(3);
      expect(new Set(quiz.map(kindOf)).size).toBeGreaterThanOrEqual(3);
      expect(quiz.filter((q) => kindOf(q) === "blank").length).toBeLessThanOrEqual(Math.floor(quiz.length * 0.4));
    }
  });

  test("no blank asks for a year, a version or a name the sentence is not about; prompts are whole questions", async () => {
    const items = (await quizzes()).flat();
    expect(items.filter(triviaBlank).map((q) => q.prompt)).toEqual([]);
    expect(items.map((q) => fragmentPrompt(q.prompt)).filter(Boolean)).toEqual([]);
    // The manual's years, versions and founders are never a choice.
    for (const q of items) for (const c of q.choices) expect(c).not.toMatch(/2005|2008|2023|2\.40|Torvalds|Wanstrath/);
  });
});

test("a quiz the text cannot fill says so", async () => {
  for (const quiz of await chapterQuizzes()) {
    const kinds = new Set(quiz.questions.map(kindOf)).size;
    if (quiz.questions.length < 5)
      expect(quiz.note).toStartWith(`${quiz.questions.length} of the 5 questions asked for`);
    if (kinds < 3) expect(quiz.note).toContain(`${kinds} kind`);
    if (quiz.questions.length >= 5 && kinds >= 3) expect(quiz.note).toBeUndefined();
  }
});

describe("which statement the course makes", () => {
  test("every wrong statement is as grammatical as the true one: counted nouns keep a determiner, mass nouns take none, and a/an fits the word after it", async () => {
    const form = new FormData();
    form.append("files", new File([GARDEN], "vegetables.md", { type: "text/markdown" }));
    form.append("num_chapters", "2");
    const made = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "learner", body: form });
    expect(made.status).toBe(200);
    const id = made.body.course.id;
    const course = await call(srv, `/v2/courses/${id}`, as());
    const over = await call(srv, `/v2/courses/${id}/generate-exam`, as({ exam_size: 50 }));
    const available: number = over.body.error?.details?.available ?? 50;
    const exam = await call(srv, `/v2/courses/${id}/generate-exam`, as({ exam_size: Math.max(10, available) }));
    const items = [
      ...(course.body.chapters as { quiz: { questions: Mcq[] } }[]).flatMap((c) => c.quiz.questions),
      ...((exam.body.exam?.questions ?? []) as Item[]),
    ];
    const statements = items.filter((q): q is Mcq => q.type === "mcq" && kindOf(q) === "true statement");
    expect(statements.length).toBeGreaterThanOrEqual(2);
    const determiner = "(?:a|an|the|its|their|each|every|one|another|this|that|any|no|young|small|old|empty|open)";
    for (const choice of statements.flatMap((q) => q.choices)) {
      expect(choice).not.toMatch(/\ban\s+[b-df-hj-np-tv-z]/i);
      expect(choice).not.toMatch(/\ba\s+[aeio]/i);
      for (const noun of COUNTED)
        expect(choice).not.toMatch(new RegExp(`(?<!${determiner}\\s+(?:[\\w-]+\\s+)?)\\b${noun}\\b(?!s)`, "i"));
      for (const noun of MASS) expect(choice).not.toMatch(new RegExp(`\\ban?\\s+${noun}\\b(?!\\s+(?:heap|row))`, "i"));
    }
  }, 120_000);
});

describe("what the code displays", () => {
  test("where the text shows a line typed at the prompt and what it printed, a question asks for that output among outputs of its kind", async () => {
    const form = new FormData();
    form.append("files", new File([SESSIONS], "python-basics.md", { type: "text/markdown" }));
    form.append("num_chapters", "2");
    const made = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "learner", body: form });
    expect(made.status).toBe(200);
    const id = made.body.course.id;
    const course = await call(srv, `/v2/courses/${id}`, as());
    const exam = await call(srv, `/v2/courses/${id}/generate-exam`, as({ exam_size: 10 }));
    const items = [
      ...(course.body.chapters as { quiz: { questions: Mcq[] } }[]).flatMap((c) => c.quiz.questions),
      ...((exam.body.exam?.questions ?? []) as Item[]),
    ].filter((q): q is Mcq => q.type === "mcq" && kindOf(q) === "code");
    const printed: Record<string, string> = {
      "40 + 2": "42",
      "6 * 7": "42",
      "84 / 2": "42.0",
      "6**2 + 6": "42",
      "len('banana')": "6",
    };
    expect(items.length).toBeGreaterThanOrEqual(1);
    for (const q of items) {
      const code = /`(.+)`/.exec(q.prompt)![1]!;
      expect(q.choices[q.answer]).toBe(printed[code]!);
      for (const c of q.choices) expect(c).toMatch(/^\d+(\.\d+)?$/);
    }
  }, 120_000);
});

describe("exam", () => {
  test("prompts are questions or instructions naming their subject; rubric points are whole statements", async () => {
    const r = await call(srv, `/v2/courses/${richCourse}/generate-exam`, as({ exam_size: 10 }));
    expect(r.status).toBe(200);
    const items = r.body.exam.questions as Item[];
    expect(items.some((q) => q.type === "short_answer")).toBe(true);
    for (const q of items) {
      expect(q.prompt).toMatch(/\?$|^(Explain|Describe|List|Name|State|Compare|Complete)\b/);
      expect(fragmentPrompt(q.prompt)).toBeNull();
      if (q.type === "short_answer") for (const p of q.rubric) expect(fragmentStatement(p)).toBeNull();
      if (q.type === "mcq") expect(triviaBlank(q)).toBe(false);
    }
  }, 60_000);
});

describe("flashcards", () => {
  test("every back says what its front is or does", async () => {
    const r = await call(srv, `/v2/courses/${courseId}/generate-flashcards`, as({}));
    expect(r.status).toBe(200);
    const cards = r.body.flashcards.cards as { front: string; back: string }[];
    expect(cards.length).toBeGreaterThanOrEqual(5);
    expect(cards.filter((c) => !definesCard(c))).toEqual([]);
    expect(cards.map((c) => c.front.toLowerCase())).toEqual(expect.arrayContaining(["branch", "repository"]));
  });
});

describe("study guide", () => {
  test("opens with what the document is about, in its own words", async () => {
    const r = await call(srv, `/v2/courses/${courseId}/study-guide`, as());
    expect(r.status).toBe(200);
    const first = r.body.study_guide.sections[0];
    expect(first.heading).toBe("What this course is about");
    expect(first.body).toContain("A commit is a snapshot");
  });
});
