import { splitSentences } from "../../ingest/sentences.ts";
import { type PreparedPassages, plainOf, preparePassages, unsupportedSentences } from "../claim-support.ts";
import { sourceBudget } from "../context-budget.ts";
import { llmError } from "../errors.ts";
import { usesExtractive } from "../models.ts";
import { bulletList, courseGoal, formatPassages, render, templates } from "../prompts/index.ts";
import { NO_MODEL_MESSAGE } from "../providers/extractive.ts";
import { type ChapterDraft, type McqQuestion, type ModelChapter, modelChapterSchema } from "../schemas.ts";
import type { Llm, Passage } from "../types.ts";
import { itemProblems, passing, quizProblems, tellOnce } from "./checks.ts";
import { type ArtefactOptions, extractive } from "./common.ts";
import { condenseToFit, sectionsOf, shownLength } from "./condense.ts";

export interface ChapterInput extends ArtefactOptions {
  courseTitle: string;
  chapterTitle: string;
  objectives: string[];
  learningGoal?: string;
  passages: Passage[];
  /**
   * Set when the passages are the chapter's own sections, in reading order: the heading-path depth
   * of those sections' headings. The extractive engine then condenses them rather than picking
   * sentences by relevance.
   */
  sectionDepth?: number;
  /** Every chapter title of the course in order, and this chapter's index, so chapters neither overlap nor skip. */
  courseOutline?: string[];
  chapterIndex?: number;
}

/** One chapter: markdown content, key concepts, a quiz, and the ids of the passages it used. */
export async function writeChapter(llm: Llm, input: ChapterInput): Promise<ChapterDraft> {
  if (usesExtractive(llm, input.model)) {
    if (input.passages.length === 0) throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
    return input.sectionDepth === undefined
      ? extractive(llm, "extractiveChapter", input)
      : extractive(llm, "condensedChapter", { ...input, sectionDepth: input.sectionDepth });
  }
  const outline = input.courseOutline ?? [input.chapterTitle];
  const index = input.chapterIndex ?? 0;
  const own = input.sectionDepth !== undefined;
  const frame = (passages: string, handled: boolean) =>
    render(templates.chapter, {
      courseTitle: input.courseTitle,
      outline: outline.map((t, i) => `${i + 1}. ${t}${i === index ? "  <- this chapter" : ""}`).join("\n"),
      chapterNumber: index + 1,
      chapterTitle: input.chapterTitle,
      objectives: bulletList(input.objectives),
      goal: courseGoal(input.learningGoal),
      passagesIntro: own
        ? "This chapter's own sections of the sources, in reading order, each with its handle:"
        : "Source passages, each with its handle:",
      grounding: own
        ? "teach these sections in their order, every paragraph grounded in them"
        : "base it on the passages above where they are relevant",
      citing: handled
        ? "each paragraph lists in `sources` the handles (such as S1) of the passages it is based on: at least one, only handles shown above, and only passages that say what the paragraph says"
        : "there are no passages to cite",
      passages,
    });
  const budget = sourceBudget(llm, "chapter", frame("", input.passages.length > 0));
  // The chapter's own sections are its whole material: condensed when they do not fit, never cut.
  const shown = own ? await ownSectionsToFit(llm, input.passages, input) : input.passages;
  const handles = shown.map((_, i) => `S${i + 1}`);
  const prompt = frame(
    formatPassages(shown, budget, { evenShare: own && shownLength(shown) > budget, handles: true }),
    handles.length > 0,
  );
  // A paragraph is checked against the sources a handle stands for, not the notes condensed from them.
  const original = new Map(input.passages.map((p) => [p.id, p.text] as const));
  const byHandle = new Map(
    shown.map((p, i) => {
      const ids = p.sourceIds ?? [p.id];
      return [handles[i]!, { ids, text: ids.map((id) => original.get(id) ?? p.text).join("\n") }] as const;
    }),
  );
  const prepared = new Map<string, PreparedPassages>();
  const cited = (sources: string[]) => {
    const key = [...new Set(sources)].sort().join(",");
    const known = prepared.get(key);
    if (known) return known;
    const p = preparePassages(sources.map((h) => byHandle.get(h)?.text ?? ""));
    prepared.set(key, p);
    return p;
  };
  // Each sentence of a paragraph must be said by the passages the paragraph cites.
  const unsupported = (reply: ModelChapter): Weak[] =>
    reply.sections.flatMap((s, i) =>
      s.paragraphs.flatMap((p, j) => {
        if (!p.sources || p.sources.length === 0) return [];
        const sentences = unsupportedSentences(p.text, cited(p.sources));
        return sentences.length > 0 ? [{ i, j, sources: p.sources, sentences }] : [];
      }),
    );
  // Quiz questions failing the item checks are re-asked once; those still failing are left out.
  const quizItems = tellOnce((qs: McqQuestion[]) => itemProblems(qs, (i) => `/quiz/questions/${i}`));
  // Unsupported paragraphs are re-asked once; what is still unsupported after that is dropped.
  let supportAsked = false;
  const reply = await llm.generateObject(modelChapterSchema(handles), prompt, {
    task: "chapter",
    model: input.model,
    meter: input.meter,
    refine: (d) => {
      const problems = [...quizProblems(d.quiz.questions), ...quizItems(d.quiz.questions)];
      const weak = unsupported(d);
      if (weak.length > 0 && !supportAsked) {
        supportAsked = true;
        problems.push(
          ...weak.map(
            (w) =>
              `/sections/${w.i}/paragraphs/${w.j}: the passages it cites (${w.sources.join(", ")}) do not say ${w.sentences.map((t) => JSON.stringify(t)).join(" nor ")}; write only what they say, or cite the passages that do`,
          ),
        );
      }
      return problems;
    },
  });
  return assemble(reply as ModelChapter, unsupported(reply as ModelChapter), byHandle);
}

// What a chapter prompt's frame takes besides its template: titles, the course's outline, objectives.
const FRAME_CHARS = 2_500;

/**
 * A chapter's own sections condensed to fit its prompt, from the sections alone: the budget leaves
 * FRAME_CHARS for the rest of the prompt rather than measuring this chapter's, so the outline,
 * which reads every chapter's sections before the chapters have titles, condenses them exactly as
 * the chapter will and the chapter reuses its notes (condense.ts). A frame larger than that is
 * met by the prompt's even shares.
 */
export function ownSectionsToFit(llm: Llm, passages: Passage[], opts: ArtefactOptions): Promise<Passage[]> {
  const template = render(templates.chapter, {
    courseTitle: "",
    outline: "",
    chapterNumber: 1,
    chapterTitle: "",
    objectives: "",
    goal: "",
    passagesIntro: "",
    grounding: "",
    citing: "",
    passages: "",
  });
  // The template with FRAME_CHARS standing for what this chapter fills in.
  const frame = { ...template, user: `${template.user}${" ".repeat(FRAME_CHARS)}` };
  return condenseToFit(llm, passages, {
    budget: sourceBudget(llm, "chapter", frame),
    where: sectionsOf(passages),
    meter: opts.meter,
    model: opts.model,
    handles: true,
  });
}

interface Weak {
  i: number;
  j: number;
  sources: string[];
  /** The paragraph's sentences its cited passages do not support. */
  sentences: string[];
}

/** A paragraph without its unsupported sentences; empty when none is left. */
function withoutSentences(text: string, weak: string[]): string {
  if (weak.length === 0) return text.trim();
  return splitSentences(plainOf(text))
    .map((s) => s.trim())
    .filter((s) => s && !weak.includes(s))
    .join(" ");
}

/** The model's sections as markdown, unsupported sentences left out, each kept paragraph's handles resolved to passage ids. */
function assemble(reply: ModelChapter, weak: Weak[], byHandle: Map<string, { ids: string[] }>): ChapterDraft {
  const unsupportedIn = new Map(weak.map((w) => [`${w.i}:${w.j}`, w.sentences]));
  const blocks: string[] = [];
  const grounding: Record<string, number[]> = {};
  reply.sections.forEach((s, i) => {
    const kept = s.paragraphs
      .map((p, j) => ({ ...p, text: withoutSentences(p.text, unsupportedIn.get(`${i}:${j}`) ?? []) }))
      .filter((p) => p.text.length > 0);
    if (kept.length === 0) return;
    blocks.push(`## ${s.heading.trim()}`);
    for (const p of kept) {
      for (const id of new Set((p.sources ?? []).flatMap((h) => byHandle.get(h)?.ids ?? []))) {
        grounding[id] ??= [];
        grounding[id].push(blocks.length);
      }
      blocks.push(p.text);
    }
  });
  if (blocks.length === 0)
    throw llmError("MODEL_OUTPUT_UNGROUNDED", "No paragraph of the chapter was supported by the passages it cited", {
      reason: "unsupported_output",
    });
  return {
    content: blocks.join("\n\n"),
    key_concepts: reply.key_concepts,
    quiz: { questions: passing(reply.quiz.questions) },
    citations: Object.keys(grounding),
    grounding,
  };
}
