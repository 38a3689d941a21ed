/** Markdown of a course's parts, shared by the markdown zip and (rendered to HTML) by the LMS packages. */
import type { StudyGuide } from "../llm/artefacts.ts";
import type { ExportChapter, ExportSource } from "./course-export.ts";
import { safeMarkdownLinks } from "./markdown-links.ts";

/** A citation as a reader wants it: the document and page, or the page title and URL, then the excerpt. */
export function citationText(s: ExportSource): string {
  const where = [s.title ?? s.filename, s.page != null ? `p. ${s.page}` : null, s.url].filter(Boolean).join(", ");
  return s.excerpt ? `${where || "Source"}: “${s.excerpt.trim()}”` : where || "Source";
}

/**
 * Markdown list items never start a new block from text: line breaks in model or document text are
 * folded, and links are limited as in chapter text.
 */
const oneLine = (text: string) => safeMarkdownLinks(text.replace(/\s+/g, " ").trim());

function keyConceptsMarkdown(chapter: ExportChapter): string {
  return chapter.keyConcepts.length
    ? `## Key concepts\n\n${chapter.keyConcepts.map((k) => `- ${oneLine(k)}`).join("\n")}\n`
    : "";
}

function citationsMarkdown(chapter: ExportChapter): string {
  return chapter.sources.length
    ? `## Sources\n\n${chapter.sources.map((s, i) => `${i + 1}. ${oneLine(citationText(s))}`).join("\n")}\n`
    : "";
}

function quizMarkdown(chapter: ExportChapter): string {
  if (chapter.quiz.length === 0) return "";
  const letters = "ABCDE";
  const items = chapter.quiz.map((q, i) => {
    const choices = q.choices.map((c, j) => `   - ${letters[j]}. ${oneLine(c)}`).join("\n");
    return `${i + 1}. ${oneLine(q.prompt)}\n${choices}\n\n   Answer: ${letters[q.answer]}. ${oneLine(q.explanation)}`;
  });
  return `## Quiz\n\n${items.join("\n\n")}\n`;
}

/** The chapter page: its text, then key concepts, quiz and sources. */
export function chapterMarkdown(chapter: ExportChapter, opts: { quiz: boolean }): string {
  const body = safeMarkdownLinks(chapter.content.trim());
  // Chapters usually open with their own heading; one is added when the text has none.
  const head = /^#\s/.test(body) ? "" : `# ${oneLine(chapter.title)}\n\n`;
  return [head + body, keyConceptsMarkdown(chapter), opts.quiz ? quizMarkdown(chapter) : "", citationsMarkdown(chapter)]
    .filter(Boolean)
    .join("\n\n");
}

export function studyGuideMarkdown(guide: StudyGuide): string {
  const sections = guide.sections.map((s) => {
    if ("items" in s)
      return `## ${oneLine(s.heading)}\n\n${s.items.map((it) => `- **${oneLine(it.term)}**: ${oneLine(it.definition)}`).join("\n")}`;
    if ("bullets" in s) return `## ${oneLine(s.heading)}\n\n${s.bullets.map((b) => `- ${oneLine(b)}`).join("\n")}`;
    return `## ${oneLine(s.heading)}\n\n${safeMarkdownLinks(s.body.trim())}`;
  });
  return `# ${oneLine(guide.title)}\n\n${sections.join("\n\n")}\n`;
}
