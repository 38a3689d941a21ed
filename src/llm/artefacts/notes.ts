import { usesExtractive } from "../models.ts";
import { notesGoal, notesStyle, render, templates, tutorTone } from "../prompts/index.ts";
import { notesSchema, type NotesParts } from "../schemas.ts";
import type { Llm } from "../types.ts";
import {
  extractive,
  formatChapters,
  perChapterBudget,
  type ArtefactOptions,
  type ChapterSummary,
  type NotesGoal,
  type NotesStyle,
  type TutorTone,
} from "./common.ts";

export interface NotesInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
  learningGoal: NotesGoal;
  learningStyle: NotesStyle;
  tutorTone: TutorTone;
}

/** Markdown notes: an introduction, one section per chapter (in order), and a conclusion. */
export async function writeNotes(llm: Llm, input: NotesInput): Promise<string> {
  if (usesExtractive(llm, input.model)) return extractive(input.meter, (e) => e.extractiveNotes(input));
  const tone = tutorTone(input.tutorTone);
  const prompt = render(templates.notes, {
    toneRole: tone.role,
    toneVoice: tone.voice,
    courseTitle: input.courseTitle,
    goal: notesGoal(input.learningGoal),
    style: notesStyle(input.learningStyle),
    numChapters: input.chapters.length,
    chapters: formatChapters(input.chapters, perChapterBudget(input.chapters.length)),
  });
  const parts = await llm.generateObject(notesSchema(input.chapters.length), prompt, {
    task: "notes",
    model: input.model,
    meter: input.meter,
  });
  return assemble(input.courseTitle, input.chapters, parts);
}

/** Our headings, not the model's, so every chapter section is present and in order. */
function assemble(courseTitle: string, chapters: ChapterSummary[], parts: NotesParts): string {
  const demote = (md: string) => md.trim().replace(/^(#{1,2})\s/gm, "### ");
  return [
    `# ${courseTitle}: Study Notes`,
    `## Introduction\n\n${demote(parts.introduction)}`,
    ...chapters.map((c, i) => `## Chapter ${i + 1}: ${c.title}\n\n${demote(parts.sections[i]?.body ?? "")}`),
    `## Conclusion\n\n${demote(parts.conclusion)}`,
  ].join("\n\n");
}
