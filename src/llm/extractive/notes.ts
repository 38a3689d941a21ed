/** Study notes in markdown, shaped by goal, style and tone through fixed phrasings. */
import type { ChapterSummary, NotesGoal, NotesStyle, TutorTone } from "../artefacts/chapter-summary.ts";
import { findDefinitions } from "./definitions.ts";
import { type ChapterMaterial, chapterMaterial } from "./material.ts";
import { topSentences } from "./rank.ts";

const OPENING: Record<TutorTone, (course: string) => string> = {
  professor: (c) => `These notes set out the essential material of "${c}" in a systematic manner.`,
  mentor: (c) => `You're about to work through "${c}", and these notes will guide you step by step.`,
  peer: (c) => `Here's my cheat sheet for "${c}": the stuff that actually matters.`,
};
const PURPOSE: Record<NotesGoal, string> = {
  exams: "They focus on definitions and facts worth memorising for an exam.",
  interviews: "They focus on what you should be able to explain clearly in an interview.",
  practical: "They focus on what you need to apply the material in practice.",
};
const CLOSING: Record<TutorTone, string> = {
  professor: "Review each section until you can reproduce its main arguments without the text.",
  mentor: "Take it one chapter at a time; revisiting these notes regularly will make the ideas stick.",
  peer: "Go over these a couple of times and you'll be fine. Good luck!",
};
const GOAL_LABEL: Record<NotesGoal, string> = {
  exams: "Remember",
  interviews: "Be ready to explain",
  practical: "Put into practice",
};

function chapterSection(m: ChapterMaterial, i: number, goal: NotesGoal, style: NotesStyle): string {
  const count = style === "concise" ? 3 : 6;
  const points = topSentences(m.sentences, count, { query: m.chapter.title }).map((s) => s.text);
  const body = style === "narrative" ? points.join(" ") : points.map((p) => `- ${p}`).join("\n");
  const concepts = m.chapter.key_concepts.join(", ");
  const focus =
    goal === "exams"
      ? findDefinitions(m.sentences)
          .slice(0, 3)
          .map((d) => `**${d.term}**: ${d.definition}`)
          .join("\n\n")
      : "";
  const lines = [`## Chapter ${i + 1}: ${m.chapter.title}`, ""];
  if (style === "clear_structured" && concepts) lines.push(`**Key concepts:** ${concepts}`, "");
  lines.push(body || `This chapter introduces ${concepts || m.chapter.title}.`);
  if (focus) lines.push("", focus);
  if (concepts && style !== "clear_structured") lines.push("", `**${GOAL_LABEL[goal]}:** ${concepts}`);
  else if (concepts && goal !== "exams") lines.push("", `**${GOAL_LABEL[goal]}:** ${concepts}`);
  return lines.join("\n");
}

export function extractiveNotes(input: {
  courseTitle: string;
  chapters: ChapterSummary[];
  learningGoal: NotesGoal;
  learningStyle: NotesStyle;
  tutorTone: TutorTone;
}): string {
  const materials = input.chapters.map(chapterMaterial);
  const titles = input.chapters.map((c) => c.title);
  const intro = [
    OPENING[input.tutorTone](input.courseTitle),
    PURPOSE[input.learningGoal],
    `The course has ${titles.length} chapter${titles.length === 1 ? "" : "s"}: ${titles.join("; ")}.`,
  ].join(" ");
  const takeaways = materials.map((m) => m.ranked[0]?.text).filter((t): t is string => Boolean(t));
  const conclusion = [
    takeaways.length > 0 ? `The main takeaways:\n\n${takeaways.map((t) => `- ${t}`).join("\n")}\n` : "",
    CLOSING[input.tutorTone],
  ].join("\n");
  return [
    `# ${input.courseTitle}: Study Notes`,
    `## Introduction\n\n${intro}`,
    ...materials.map((m, i) => chapterSection(m, i, input.learningGoal, input.learningStyle)),
    `## Conclusion\n\n${conclusion.trim()}`,
  ].join("\n\n");
}
