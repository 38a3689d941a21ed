/**
 * Quizzes, exams and flashcards on real documents, checked as a learner or a teacher would, with
 * the built-in engine. Usage: bun bench/quality/assessments.ts [--only tracemonkey] [--exam 30]
 *
 * Builds a 4-chapter course from each corpus document through a real server, then its exam
 * (`--exam` questions, or as many as the course says it can supply), flashcards and study guide,
 * and measures, with checks written here rather than borrowed from the generator:
 *   - mcq: multiple-choice questions in the quizzes and the exam
 *   - common answers: correct choices that are one everyday English word (among the ~4,000 most
 *     frequent of SUBTLEX-US, Zipf ≥ 4.2); goal ≤ 10%
 *   - leaked: correct choices written in their own prompt, or all of a multi-word answer's words
 *     there; goal 0
 *   - near-dup: questions (quizzes + exam) whose prompt shares ≥ 60% of its words (Jaccard, stopwords
 *     aside) with another's; goal ≤ 2%
 *   - kinds: how many multiple-choice questions of each kind (definition, term, acronym, figure,
 *     cause, cloze), by the prompt's form
 *   - cited page: explanations that quote a sentence and name a page (PDFs) or a file
 *   - rubric 2-4: short answers whose rubric has 2 to 4 points
 *   - cards, defines: flashcards whose front is a term and whose back is a sentence stating what
 *     that term is (the term followed within a few words by is/are/refers to/means/stands for…,
 *     or "called/known as <term>"), or an abbreviation's expansion whose initials spell it; goal ≥ 70%
 *   - shared backs: cards whose back is another card's back; goal 0
 *   - terms: key terms of the study guide with a definition that names them
 * Every question and card is written to a markdown file per document for reading.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { stopExtractionWorkers } from "../../src/ingest/index.ts";
import { isCommonWord } from "../../src/llm/extractive/background.ts";
import { isStopword } from "../../src/llm/extractive/text.ts";
import { call, startServer, tempDir } from "../../test/helpers/server.ts";
import { CORPUS, documents } from "./documents.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    only: { type: "string" },
    exam: { type: "string", default: "30" },
    chapters: { type: "string", default: "4" },
  },
});
const DOCUMENTS = documents(values.only);

interface Mcq {
  type: "mcq";
  prompt: string;
  choices: string[];
  answer: number;
  explanation: string;
}
interface Short {
  type: "short_answer";
  prompt: string;
  answer: string;
  rubric: string[];
}
type Question = Mcq | Short | { type: "worked_problem"; prompt: string; steps: string[]; answer: string };

const wordsOf = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const content = (s: string) => new Set(wordsOf(s).filter((w) => !isStopword(w)));
const normal = (s: string) => ` ${wordsOf(s).join(" ")} `;

function leaked(q: Mcq): boolean {
  const right = q.choices[q.answer]!;
  if (normal(q.prompt).includes(normal(right))) return true;
  const answerWords = [...content(right)];
  const prompt = content(q.prompt);
  return answerWords.length >= 2 && answerWords.every((w) => prompt.has(w));
}

const commonAnswer = (q: Mcq) => {
  const right = q.choices[q.answer]!.trim();
  return /^\p{L}+$/u.test(right) && isCommonWord(right);
};

function nearDuplicates(prompts: string[]): number {
  const sets = prompts.map(content);
  let n = 0;
  sets.forEach((a, i) => {
    const dup = sets.some((b, j) => {
      if (i === j || a.size === 0 || b.size === 0) return false;
      const shared = [...a].filter((w) => b.has(w)).length;
      return shared / (a.size + b.size - shared) >= 0.6;
    });
    if (dup) n++;
  });
  return n;
}

function kindOf(q: Mcq): string {
  if (/^What does \S+ stand for\?$/.test(q.prompt)) return "acronym";
  if (/^Which term /.test(q.prompt)) return "term";
  if (/_{3,}/.test(q.prompt))
    return /^[\d.,]+\s*(%|x|×|percent|times)?$/.test(q.choices[q.answer]!.trim()) ? "figure" : "cloze";
  if (
    /^(What|Why) (is|are|does|do)\b/.test(q.prompt) &&
    !/what does .+ (lead to|result in|cause|allow|enable)\?$/i.test(q.prompt)
  )
    return "definition";
  if (/reason|lead to|result in|cause|allow|enable/.test(q.prompt)) return "cause";
  return "other";
}

const DEFINING = "(?:is|are|was|were|refers? to|means|denotes|stands for|describes)";
function defines(card: { front: string; back: string }): boolean {
  const stand = /^What does (\S+) stand for\?$/.exec(card.front);
  if (stand) {
    const initials = card.back
      .split(/[\s-]+/)
      .map((w) => w[0]?.toUpperCase() ?? "")
      .join("");
    return initials.startsWith(stand[1]!.replace(/s$/, "").slice(0, 2));
  }
  if (/\?$/.test(card.front)) return false;
  const term = card.front.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return (
    new RegExp(`\\b${term}\\b(?:\\W+\\w+){0,3}?\\W+${DEFINING}\\b`, "i").test(card.back) ||
    new RegExp(`\\b(?:called|known as|termed|we call)\\s+(?:an?\\s+|the\\s+)?["“]?${term}\\b`, "i").test(card.back)
  );
}

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
const outDir = mkdtempSync(join(tmpdir(), "cf-assessments-"));
const srv = await startServer({
  dataDir: tempDir("cf-assess-"),
  env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "10000" },
});
const key = await srv.createKey("assess", "production");
const rows: string[][] = [];
try {
  for (const doc of DOCUMENTS) {
    const path = join(CORPUS, doc);
    const form = new FormData();
    form.append("files", new Blob([await Bun.file(path).arrayBuffer()]), path.split("/").pop()!);
    form.append("num_chapters", values.chapters!);
    const made = await call(srv.url, "/v2/courses/generate-from-files?mode=sync", { key, user: "reader", body: form });
    if (made.status !== 200) {
      rows.push([doc, `HTTP ${made.status}`]);
      continue;
    }
    const id = made.body.course.id as string;
    const course = await call(srv.url, `/v2/courses/${id}`, { key, user: "reader" });
    const quizzes = (course.body.chapters as { quiz: { questions: Mcq[] } }[]).flatMap((c) => c.quiz.questions);
    let size = Number(values.exam);
    let exam = await call(srv.url, `/v2/courses/${id}/generate-exam`, {
      key,
      user: "reader",
      json: { exam_size: size },
    });
    if (exam.status === 422 && exam.body.error?.details?.available >= 10) {
      size = exam.body.error.details.available;
      exam = await call(srv.url, `/v2/courses/${id}/generate-exam`, { key, user: "reader", json: { exam_size: size } });
    }
    const examQs: Question[] = exam.status === 200 ? exam.body.exam.questions : [];
    const cards = (await call(srv.url, `/v2/courses/${id}/generate-flashcards`, { key, user: "reader", json: {} })).body
      .flashcards.cards as { front: string; back: string }[];
    const guide = (await call(srv.url, `/v2/courses/${id}/study-guide`, { key, user: "reader" })).body.study_guide;
    const terms = (guide?.sections ?? []).find((s: { heading: string }) => s.heading === "Key terms")?.items ?? [];

    const mcqs = [...quizzes, ...examQs.filter((q): q is Mcq => q.type === "mcq")];
    const shorts = examQs.filter((q): q is Short => q.type === "short_answer");
    const kinds = new Map<string, number>();
    for (const q of mcqs) kinds.set(kindOf(q), (kinds.get(kindOf(q)) ?? 0) + 1);
    const backs = new Map<string, number>();
    for (const c of cards) backs.set(c.back.trim().toLowerCase(), (backs.get(c.back.trim().toLowerCase()) ?? 0) + 1);
    const sharedBacks = [...backs.values()].filter((n) => n > 1).reduce((a, n) => a + n, 0);
    const allPrompts = [...quizzes.map((q) => q.prompt), ...examQs.map((q) => q.prompt)];

    rows.push([
      doc.split("/").pop()!,
      String(mcqs.length),
      pct(mcqs.filter(commonAnswer).length, mcqs.length),
      String(mcqs.filter(leaked).length),
      pct(nearDuplicates(allPrompts), allPrompts.length),
      [...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(", "),
      pct(mcqs.filter((q) => /“.+”\s*\((.+)\)/.test(q.explanation)).length, mcqs.length),
      exam.status === 200
        ? `${examQs.length} of ${values.exam}`
        : `${exam.status}: ${exam.body.error?.details?.available ?? "?"} available`,
      pct(shorts.filter((q) => q.rubric.length >= 2 && q.rubric.length <= 4).length, shorts.length),
      String(cards.length),
      pct(cards.filter(defines).length, cards.length),
      String(sharedBacks),
      `${String(
        terms.filter(
          (t: { term: string; definition: string }) =>
            t.definition.toLowerCase().includes(t.term.toLowerCase()) || /stands for|^[A-Z]/.test(t.definition),
        ).length,
      )}/${terms.length}`,
    ]);

    const lines = [
      `# ${doc}`,
      "",
      "## Quizzes",
      ...quizzes.map(show),
      "",
      `## Exam (${examQs.length})`,
      ...examQs.map(show),
      "",
      "## Flashcards",
      ...cards.map((c) => `- **${c.front}** — ${c.back}`),
      "",
      "## Study guide key terms",
      ...terms.map((t: { term: string; definition: string }) => `- **${t.term}**: ${t.definition}`),
    ];
    await Bun.write(join(outDir, `${doc.split("/").pop()}.md`), lines.join("\n"));
    console.error(`${doc}: done`);
  }
} finally {
  await srv.stop();
  stopExtractionWorkers();
}

function show(q: Question): string {
  if (q.type === "mcq")
    return `- [${kindOf(q)}] ${q.prompt}\n${q.choices.map((c, i) => `  ${i === q.answer ? "*" : "-"} ${c}`).join("\n")}\n  > ${q.explanation}`;
  if (q.type === "short_answer")
    return `- [short] ${q.prompt}\n  answer: ${q.answer}\n${q.rubric.map((r) => `  + ${r}`).join("\n")}`;
  return `- [worked] ${q.prompt}\n${q.steps.map((s) => `  1. ${s}`).join("\n")}`;
}

const header = [
  "document",
  "mcq",
  "common answers",
  "leaked",
  "near-dup",
  "kinds",
  "cited",
  "exam",
  "rubric 2-4",
  "cards",
  "defines",
  "shared backs",
  "guide terms",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (r: string[]) => r.map((c, i) => (c ?? "").padEnd(widths[i]!)).join("  ");
console.log(
  `Built-in engine, ${values.chapters} chapters per course, exam of ${values.exam} (or what the course can supply)`,
);
console.log(line(header));
for (const r of rows) console.log(line(r));
console.log("goals: common answers ≤ 10%, leaked 0, near-dup ≤ 2%, defines ≥ 70%, shared backs 0");
console.log(`questions and cards: ${outDir}`);
