import pLimit from "p-limit";
import { promptWithin } from "../context-budget.ts";
import { usesExtractive } from "../models.ts";
import { notesGoal, notesStyle, render, templates, tutorTone } from "../prompts/index.ts";
import { NotesChapterSchema, type NotesFrame, NotesFrameSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ChapterSummary, NotesGoal, NotesStyle, TutorTone } from "./chapter-summary.ts";
import { type ArtefactOptions, extractive } from "./common.ts";

export interface NotesInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
  learningGoal: NotesGoal;
  learningStyle: NotesStyle;
  tutorTone: TutorTone;
}

// One chapter per call: each sees its whole chapter (not a share of one long prompt; at most this,
// and what the context window leaves beside the reply) and the replies stay short enough that a
// small model finishes them.
const CHAPTER_CHARS = 12_000;
const PARALLEL_CHAPTERS = 2;

/** Markdown notes: an introduction, one section per chapter (in order), and a conclusion. */
export async function writeNotes(llm: Llm, input: NotesInput): Promise<string> {
  if (usesExtractive(llm, input.model)) return extractive(llm, "extractiveNotes", input);
  const tone = tutorTone(input.tutorTone);
  const common = {
    toneRole: tone.role,
    toneVoice: tone.voice,
    courseTitle: input.courseTitle,
    goal: notesGoal(input.learningGoal),
    style: notesStyle(input.learningStyle),
  };
  const options = { task: "notes" as const, model: input.model, meter: input.meter };
  const limit = pLimit(PARALLEL_CHAPTERS);
  const bodies = await Promise.all(
    input.chapters.map((c, i) =>
      limit(async () => {
        const frame = (content: string) =>
          render(templates.notesChapter, {
            ...common,
            outline: input.chapters.map((x, j) => `${j + 1}. ${x.title}`).join("; "),
            chapterNumber: i + 1,
            chapterTitle: c.title,
            keyConcepts: c.key_concepts.join("; "),
            content,
          });
        const prompt = promptWithin(llm, "notes", frame, c.content.trim(), CHAPTER_CHARS);
        return (await llm.generateObject(NotesChapterSchema, prompt, options)).body;
      }),
    ),
  );
  const frame = await llm.generateObject(
    NotesFrameSchema,
    promptWithin(
      llm,
      "notes",
      (chapters) => render(templates.notesFrame, { ...common, chapters }),
      input.chapters.map((c, i) => `${i + 1}. ${c.title}: ${c.key_concepts.join("; ")}`).join("\n"),
    ),
    options,
  );
  return assemble(input.courseTitle, input.chapters, frame, bodies);
}

/** Our headings, not the model's, so every chapter section is present and in order. */
function assemble(courseTitle: string, chapters: ChapterSummary[], frame: NotesFrame, bodies: string[]): string {
  const demote = (md: string) => md.trim().replace(/^(#{1,2})\s/gm, "### ");
  return [
    `# ${courseTitle}: Study Notes`,
    `## Introduction\n\n${demote(frame.introduction)}`,
    ...chapters.map((c, i) => `## Chapter ${i + 1}: ${c.title}\n\n${demote(bodies[i] ?? "")}`),
    `## Conclusion\n\n${demote(frame.conclusion)}`,
  ].join("\n\n");
}
