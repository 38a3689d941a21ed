/**
 * Exam questions from a chapter: cloze MCQs, short answers from definitions or key sentences, and
 * worked problems that walk through a passage's sentences in order.
 */
import type { ChapterSummary } from "../artefacts/common.ts";
import type { ExamQuestion, ExamQuestionType } from "../schemas.ts";
import { clozeQuestions } from "./cloze.ts";
import { findDefinitions } from "./definitions.ts";
import { overlaps } from "./keyphrases.ts";
import { chapterMaterial, sentenceAbout, type ChapterMaterial } from "./material.ts";
import { containsPhrase } from "./text.ts";

function shortAnswers(m: ChapterMaterial): ExamQuestion[] {
  const out: ExamQuestion[] = [];
  const rubricFor = (text: string, main: string) => [
    `Identifies ${main}`,
    ...m.phrases.filter((p) => p.phrase !== main && !overlaps(p.phrase, main) && containsPhrase(text, p.phrase)).slice(0, 2).map((p) => `Mentions ${p.phrase}`),
  ];
  for (const d of findDefinitions(m.sentences)) {
    out.push({ type: "short_answer", prompt: `What is ${d.term}?`, answer: d.definition, rubric: rubricFor(d.definition, d.term) });
  }
  for (const p of m.phrases) {
    const s = sentenceAbout(m, p.phrase);
    if (!s) continue;
    out.push({
      type: "short_answer",
      prompt: `In the context of "${m.chapter.title}", explain ${p.phrase}.`,
      answer: s.text,
      rubric: rubricFor(s.text, p.phrase),
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
    const steps = m.sentences.filter((x) => x.index >= s.index).slice(0, 3).map((x) => x.text);
    out.push({
      type: "worked_problem",
      prompt: `Work through, step by step, how ${p.phrase} fits into "${m.chapter.title}".`,
      steps,
      answer: steps[steps.length - 1]!,
    });
  }
  return out;
}

export function extractiveExamQuestions(input: {
  chapter: ChapterSummary;
  count: number;
  types: ExamQuestionType[];
  avoidPrompts?: string[];
}): ExamQuestion[] {
  const m = chapterMaterial(input.chapter, 0);
  const avoid = new Set(input.avoidPrompts ?? []);
  const pools: Record<ExamQuestionType, ExamQuestion[]> = {
    mcq: input.types.includes("mcq") ? clozeQuestions(m.ranked, m.phrases, input.count, avoid).map((c) => c.question) : [],
    short_answer: input.types.includes("short_answer") ? shortAnswers(m) : [],
    worked_problem: input.types.includes("worked_problem") ? workedProblems(m) : [],
  };
  const out: ExamQuestion[] = [];
  const prompts = new Set(avoid);
  // Round-robin over the requested types so the mix follows the request.
  for (let progress = true; out.length < input.count && progress; ) {
    progress = false;
    for (const type of input.types) {
      if (out.length >= input.count) break;
      const pool = pools[type];
      let q = pool.shift();
      while (q && prompts.has(q.prompt)) q = pool.shift();
      if (!q) continue;
      prompts.add(q.prompt);
      out.push(q);
      progress = true;
    }
  }
  return out;
}
