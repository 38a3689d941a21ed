/**
 * Exam questions from a chapter: multiple choice of several kinds (questions.ts), short answers
 * whose rubric points are whole sentences of the source answering the prompt, and worked problems
 * only where the source lists a procedure step by step. The chapter's facts are shared out between
 * the types once, the same way for every batch, so a fact asked as multiple choice is never asked
 * again as a short answer; nothing the chapter quiz asked is asked again. Every item passes the item
 * checks (artefacts/item-checks.ts) or the next candidate is taken.
 */

import type { ChapterSummary } from "../artefacts/chapter-summary.ts";
import { questionProblems } from "../artefacts/item-checks.ts";
import type { ExamQuestion, ExamQuestionType, ShortAnswerQuestion } from "../schemas.ts";
import { leansOnPrevious } from "./back-reference.ts";
import { needsExhibit } from "./exhibits.ts";
import { type ChapterMaterial, chapterMaterial, materialsOf } from "./material.ts";
import { Asked, type Candidate, inlineForm, isBlank, mcqCandidates, poolOf } from "./questions.ts";
import { openingTerm } from "./roles.ts";
import { procedures } from "./steps.ts";
import { withLikeSwaps } from "./subject-role.ts";
import { setsTask } from "./tasks.ts";
import { containsPhrase, pointsElsewhere, type Sentence } from "./text.ts";

interface ShortCandidate {
  question: ShortAnswerQuestion;
  sentence: Sentence;
  fact: string;
}

const MIN_POINTS = 2;
const MAX_POINTS = 4;

/**
 * A sentence that has `term` as its subject: the term opens it (after an article or a determiner)
 * and a verb follows ("A factor is …", "Factors allow …"), so "The Risk Management Framework …" is
 * not about "risk".
 */
const about = (s: Sentence, term: string) =>
  new RegExp(
    `^${openingTerm(term)}\\s+(?:\\([^)]*\\)\\s+)?(?:is|are|was|were|can|may|must|should|will|does|do|has|have|\\p{Ll}+s)\\b`,
    "u",
  ).test(s.text);

/**
 * The rubric: `first`, then the sentences that go on about the same thing (the next ones of its
 * section that name `term` or continue with a pronoun), then other sentences with `term` as their
 * subject; 2-4 whole sentences, or null when the source says too little.
 */
function rubric(m: ChapterMaterial, first: Sentence, term: string): string[] | null {
  const points = [first];
  // A point says something new (a document may print one sentence twice), is no exercise set to the
  // reader, and does not announce a list or an example the rubric cannot show ("… noted below.").
  const usable = (s: Sentence) =>
    !points.some((p) => p === s || p.text === s.text) &&
    !pointsElsewhere(s.text) &&
    !setsTask(s.text) &&
    !needsExhibit(s.text);
  for (let i = first.index + 1; i < m.sentences.length && points.length < MAX_POINTS; i++) {
    const next = m.sentences[i]!;
    if (!next.follows || next.heading !== first.heading) break;
    if (!(containsPhrase(next.text, term) || /^(it|they|this|these|such)\b/i.test(next.text))) break;
    if (usable(next)) points.push(next);
  }
  // A sentence from elsewhere in the chapter is a point only if it does not lean on the one before it.
  for (const s of m.ranked) {
    if (points.length >= MAX_POINTS) break;
    if (about(s, term) && usable(s) && !leansOnPrevious(s.text)) points.push(s);
  }
  if (points.length < MIN_POINTS) return null;
  return points.sort((a, b) => a.index - b.index).map((s) => s.text);
}

function short(sentence: Sentence, fact: string, prompt: string, points: string[] | null): ShortCandidate[] {
  if (!points) return [];
  const question: ShortAnswerQuestion = { type: "short_answer", prompt, answer: points.join(" "), rubric: points };
  return questionProblems(question).length === 0 ? [{ sentence, fact, question }] : [];
}

function shortAnswers(m: ChapterMaterial): ShortCandidate[] {
  const out: ShortCandidate[] = [];
  for (const d of m.definitions) {
    if (d.kind === "acronym") continue;
    const subject = d.article ? `${d.article} ${d.term}` : inlineForm(d.term);
    out.push(
      ...short(
        d.sentence,
        `term:${d.term.toLowerCase()}`,
        `Explain what ${subject} ${d.copula === "are" ? "are" : "is"}, in a few sentences.`,
        rubric(m, d.sentence, d.term),
      ),
    );
  }
  for (const c of m.causes) {
    // "Y because X" asks why Y; "X leads to Y" asks what X leads to: either way a whole clause of the text.
    const prompt =
      c.link === "because"
        ? `Explain why ${inlineForm(c.effect.replace(/[.!]+$/, ""))}.`
        : `Explain what ${inlineForm(c.cause)} ${c.link}, and how.`;
    out.push(...short(c.sentence, `cause:${c.effect.toLowerCase()}`, prompt, rubric(m, c.sentence, c.cause)));
  }
  for (const p of m.phrases.slice(0, 12)) {
    const first = m.ranked.find((s) => about(s, p.phrase) && !pointsElsewhere(s.text));
    if (!first) continue;
    out.push(
      ...short(
        first,
        `term:${p.phrase.toLowerCase()}`,
        `Explain what the course says about ${inlineForm(p.phrase)}.`,
        rubric(m, first, p.phrase),
      ),
    );
  }
  return out;
}

/** A worked problem for each procedure the chapter lists: its steps in order. */
function workedProblems(m: ChapterMaterial): ExamQuestion[] {
  return procedures(m.chapter.content).map((p) => ({
    type: "worked_problem",
    prompt: `Describe, step by step, how to carry out “${p.title}” as the course sets it out.`,
    steps: p.steps,
    answer: p.steps.at(-1)!,
  }));
}

/**
 * Candidates in their order, but a blank waits while blanks would pass 40% of those taken so far, as
 * in a quiz; the waiting blanks follow the others. A teacher sets an exam of mixed kinds where the
 * chapter and its sections offer them, and blanks only where they do not.
 */
function blanksSpread(candidates: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  const waiting: Candidate[] = [];
  let blanks = 0;
  for (const c of candidates) {
    if (!isBlank(c)) out.push(c);
    else if (blanks + 1 <= MAX_BLANK_SHARE * (out.length + 1)) {
      out.push(c);
      blanks++;
    } else waiting.push(c);
  }
  return [...out, ...waiting];
}
const MAX_BLANK_SHARE = 0.4;

/**
 * The chapter's questions by type, from its own text first and then from the sections it was
 * condensed from: facts shared out three multiple choice to two short answers, after what its quiz asked. Deterministic, so every batch of one exam sees the same split.
 */
function examPlan(own: ChapterMaterial[], course: ChapterMaterial[]): Record<ExamQuestionType, ExamQuestion[]> {
  const m = own[0]!;
  const asked = Asked.from(m.chapter.quiz ?? []);
  const pool = poolOf(course);
  // Wrong statements swap like for like into a subject (subject-role.ts): checked against the course's text.
  const text = course.flatMap((x) => [x.chapter.content, ...(x.chapter.sources ?? []).map((s) => s.text)]).join("\n");
  const mcq = blanksSpread(
    own.flatMap((x) =>
      mcqCandidates(x, pool).flatMap((c) => {
        const question = withLikeSwaps(c.question, text);
        return question ? [{ ...c, question }] : [];
      }),
    ),
  );
  const short = own.flatMap(shortAnswers);
  const plan: Record<ExamQuestionType, ExamQuestion[]> = {
    mcq: [],
    short_answer: [],
    worked_problem: workedProblems(m),
  };
  const take = (list: (Candidate | ShortCandidate)[], into: ExamQuestion[]) => {
    while (list.length > 0) {
      const c = list.shift()!;
      if (!asked.allows(c.sentence.text, c.fact, c.question.prompt)) continue;
      asked.add(c.sentence.text, c.fact, c.question.prompt);
      into.push(c.question);
      return true;
    }
    return false;
  };
  for (let progress = true; progress; ) {
    progress = false;
    for (const turn of ["mcq", "short_answer", "mcq", "short_answer", "mcq"] as const) {
      progress = take(turn === "mcq" ? mcq : short, plan[turn]) || progress;
    }
  }
  return plan;
}

export function extractiveExamQuestions(input: {
  chapter: ChapterSummary;
  /** Every chapter of the course, for distractors of the same kind from across it. */
  course?: ChapterSummary[];
  count: number;
  types: ExamQuestionType[];
  avoidPrompts?: string[];
}): ExamQuestion[] {
  const chapters = input.course ?? [input.chapter];
  const at = Math.max(
    0,
    chapters.findIndex((c) => c.title === input.chapter.title && c.content === input.chapter.content),
  );
  const plan = examPlan(
    materialsOf(input.chapter, at),
    chapters.map((c, i) => chapterMaterial(i === at ? input.chapter : c, i)),
  );
  const avoid = Asked.from((input.avoidPrompts ?? []).map((prompt) => ({ prompt })));
  const out: ExamQuestion[] = [];
  // Round-robin over the requested types so the mix follows the request.
  for (let progress = true; out.length < input.count && progress; ) {
    progress = false;
    for (const type of input.types) {
      if (out.length >= input.count) break;
      const pool = plan[type];
      let q = pool.shift();
      while (q && !avoid.allows("", "", q.prompt)) q = pool.shift();
      if (!q) continue;
      avoid.add("", "", q.prompt);
      out.push(q);
      progress = true;
    }
  }
  return out;
}
