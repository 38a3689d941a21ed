/**
 * Exam questions from a chapter: multiple choice of several kinds (questions.ts), short answers
 * whose rubric points are the source's own clauses, and worked problems that walk through a
 * passage. The chapter's facts are shared out between the types once, the same way for every
 * batch, so a fact asked as multiple choice is never asked again as a short answer; nothing the
 * chapter quiz asked is asked again.
 */
import type { ChapterSummary } from "../artefacts/chapter-summary.ts";
import type { ExamQuestion, ExamQuestionType, ShortAnswerQuestion } from "../schemas.ts";
import { type ChapterMaterial, chapterMaterial, materialsOf, sentenceAbout } from "./material.ts";
import { Asked, type Candidate, choiceText, inlineForm, mcqCandidates, poolOf } from "./questions.ts";
import { containsPhrase, type Sentence, wordCount } from "./text.ts";

interface ShortCandidate {
  question: ShortAnswerQuestion;
  sentence: Sentence;
  fact: string;
}

const MIN_POINTS = 2;
const MAX_POINTS = 4;

/** 2-4 rubric points: the clauses of `texts`, each as the source words it. */
function rubric(texts: string[]): string[] | null {
  const clauses = texts.flatMap((t) =>
    t
      .replace(/[.!]+$/, "")
      .split(/,\s+(?=(?:which|and|but|so|while|where|whereas|because|thus)\b)|;\s+|\s+—\s+|:\s+/)
      .map((c) => c.replace(/^(which|and|but|so|while|where|whereas|because|thus)\s+/i, "").trim())
      .filter((c) => wordCount(c) >= 3),
  );
  const points = [...new Set(clauses.map((c) => `Says that ${choiceText(c.charAt(0).toLowerCase() + c.slice(1))}`))];
  return points.length >= MIN_POINTS ? points.slice(0, MAX_POINTS) : null;
}

/** The sentence after `s` in the chapter, when it goes on about the same thing. */
function continuation(m: ChapterMaterial, s: Sentence, term: string): Sentence | undefined {
  const next = m.sentences[s.index + 1];
  return next &&
    next.heading === s.heading &&
    (containsPhrase(next.text, term) || /^(it|they|this|these|such)\b/i.test(next.text))
    ? next
    : undefined;
}

function shortAnswers(m: ChapterMaterial): ShortCandidate[] {
  const out: ShortCandidate[] = [];
  for (const d of m.definitions) {
    if (d.kind === "acronym") continue;
    const next = continuation(m, d.sentence, d.term);
    const texts = [d.predicate, ...(next ? [next.text] : [])];
    const points = rubric(texts);
    if (!points) continue;
    const subject = d.article ? `${d.article} ${d.term}` : inlineForm(d.term);
    out.push({
      sentence: d.sentence,
      fact: `term:${d.term.toLowerCase()}`,
      question: {
        type: "short_answer",
        prompt: `In a few sentences, explain what ${subject} ${d.copula === "are" ? "are" : "is"}.`,
        answer: [d.sentence.text, ...(next ? [next.text] : [])].join(" "),
        rubric: points,
      },
    });
  }
  for (const c of m.causes) {
    const points = rubric([c.cause, c.effect]);
    if (!points) continue;
    out.push({
      sentence: c.sentence,
      fact: `cause:${c.effect.toLowerCase()}`,
      question: {
        type: "short_answer",
        prompt: `The course states: “${choiceText(c.effect)}”. Explain why.`,
        answer: c.sentence.text,
        rubric: points,
      },
    });
  }
  for (const p of m.phrases.slice(0, 12)) {
    const first = sentenceAbout(m, p.phrase);
    if (!first) continue;
    const second = sentenceAbout(m, p.phrase, new Set([first.index]));
    if (!second) continue;
    const pair = [first, second].sort((a, b) => a.index - b.index);
    const points = rubric(pair.map((s) => s.text));
    if (!points) continue;
    out.push({
      sentence: first,
      fact: `term:${p.phrase.toLowerCase()}`,
      question: {
        type: "short_answer",
        prompt: `Explain ${p.phrase} as the course describes it.`,
        answer: pair.map((s) => s.text).join(" "),
        rubric: points,
      },
    });
  }
  return out;
}

function workedProblems(m: ChapterMaterial): ExamQuestion[] {
  const out: ExamQuestion[] = [];
  for (const p of m.phrases) {
    const s = sentenceAbout(m, p.phrase);
    if (!s) continue;
    // The sentence and the ones that follow it in the text, as the reasoning to reproduce.
    const steps = m.sentences
      .filter((x) => x.index >= s.index)
      .slice(0, 3)
      .map((x) => x.text);
    out.push({
      type: "worked_problem",
      prompt: `Work through, step by step, how ${p.phrase} is applied in "${m.chapter.title}".`,
      steps,
      answer: steps[steps.length - 1]!,
    });
  }
  return out;
}

/**
 * The chapter's questions by type, from its own text first and then from the sections it was
 * condensed from: facts shared out three multiple choice to two short answers, after what its quiz asked. Deterministic, so every batch of one exam sees the same split.
 */
function examPlan(own: ChapterMaterial[], course: ChapterMaterial[]): Record<ExamQuestionType, ExamQuestion[]> {
  const m = own[0]!;
  const asked = Asked.from(m.chapter.quiz ?? []);
  const pool = poolOf(course);
  const mcq = own.flatMap((x) => mcqCandidates(x, pool));
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
