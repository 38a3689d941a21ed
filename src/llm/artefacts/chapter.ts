import { llmError } from "../errors.ts";
import { usesExtractive } from "../models.ts";
import { bulletList, courseGoal, formatPassages, render, templates } from "../prompts/index.ts";
import { NO_MODEL_MESSAGE } from "../providers/extractive.ts";
import { type ChapterDraft, type ModelChapter, modelChapterSchema } from "../schemas.ts";
import { lexicalSupport, MODEL_SUPPORT, stemSet } from "../support.ts";
import type { Llm, Passage } from "../types.ts";
import { quizProblems } from "./checks.ts";
import { type ArtefactOptions, extractive } from "./common.ts";

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
      ? extractive(input.meter, "extractiveChapter", input)
      : extractive(input.meter, "condensedChapter", { ...input, sectionDepth: input.sectionDepth });
  }
  const handles = input.passages.map((_, i) => `S${i + 1}`);
  const outline = input.courseOutline ?? [input.chapterTitle];
  const index = input.chapterIndex ?? 0;
  const own = input.sectionDepth !== undefined;
  const prompt = render(templates.chapter, {
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
    citing:
      handles.length > 0
        ? "each paragraph lists in `sources` the handles (such as S1) of the passages it is based on: at least one, only handles shown above, and only passages that say what the paragraph says"
        : "there are no passages to cite",
    // The chapter's own sections are its whole material: every part of them gets a share of the budget.
    passages: formatPassages(input.passages, undefined, { evenShare: own, handles: true }),
  });
  const byHandle = new Map(input.passages.map((p, i) => [handles[i]!, { id: p.id, stems: stemSet(p.text) }]));
  const unsupported = (reply: ModelChapter) =>
    reply.sections.flatMap((s, i) =>
      s.paragraphs.flatMap((p, j) => {
        if (!p.sources || p.sources.length === 0) return [];
        const cited = new Set(p.sources.flatMap((h) => [...(byHandle.get(h)?.stems ?? [])]));
        return lexicalSupport(p.text, cited) < MODEL_SUPPORT ? [{ i, j, sources: p.sources }] : [];
      }),
    );
  // Unsupported paragraphs are re-asked once; what is still unsupported after that is dropped.
  let supportAsked = false;
  const reply = await llm.generateObject(modelChapterSchema(handles), prompt, {
    task: "chapter",
    model: input.model,
    meter: input.meter,
    refine: (d) => {
      const problems = quizProblems(d.quiz.questions);
      const weak = unsupported(d);
      if (weak.length > 0 && !supportAsked) {
        supportAsked = true;
        problems.push(
          ...weak.map(
            (w) =>
              `/sections/${w.i}/paragraphs/${w.j}: the passages it cites (${w.sources.join(", ")}) do not say this; write only what they say, or cite the passages that do`,
          ),
        );
      }
      return problems;
    },
  });
  return assemble(reply as ModelChapter, unsupported(reply as ModelChapter), byHandle);
}

/** The model's sections as markdown, unsupported paragraphs left out, each kept paragraph's handles resolved to passage ids. */
function assemble(
  reply: ModelChapter,
  weak: { i: number; j: number }[],
  byHandle: Map<string, { id: string }>,
): ChapterDraft {
  const dropped = new Set(weak.map((w) => `${w.i}:${w.j}`));
  const blocks: string[] = [];
  const grounding: Record<string, number[]> = {};
  reply.sections.forEach((s, i) => {
    const kept = s.paragraphs.filter((_, j) => !dropped.has(`${i}:${j}`));
    if (kept.length === 0) return;
    blocks.push(`## ${s.heading.trim()}`);
    for (const p of kept) {
      for (const h of new Set(p.sources ?? [])) {
        const id = byHandle.get(h)?.id;
        if (id) {
          grounding[id] ??= [];
          grounding[id].push(blocks.length);
        }
      }
      blocks.push(p.text.trim());
    }
  });
  if (blocks.length === 0)
    throw llmError("MODEL_OUTPUT_UNGROUNDED", "No paragraph of the chapter was supported by the passages it cited", {
      reason: "unsupported_output",
    });
  return {
    content: blocks.join("\n\n"),
    key_concepts: reply.key_concepts,
    quiz: reply.quiz,
    citations: Object.keys(grounding),
    grounding,
  };
}
