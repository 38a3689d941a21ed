/** HTML of a course's pages for the LMS packages: text escaped, markdown rendered and sanitised. */
import type { ExportChapter, ExportCourse } from "./course-export.ts";
import { citationText, studyGuideMarkdown } from "./course-markdown.ts";
import { escapeHtml, markdownToHtml } from "./html.ts";

/** The chapter's body: its text, key concepts and citations (quizzes are assessments of their own). */
export function chapterBodyHtml(chapter: ExportChapter): string {
  const concepts = chapter.keyConcepts.length
    ? `<h2>Key concepts</h2>\n<ul class="concepts">${chapter.keyConcepts.map((k) => `<li>${escapeHtml(k)}</li>`).join("")}</ul>`
    : "";
  const sources = chapter.sources.length
    ? `<h2>Sources</h2>\n<ol class="sources">${chapter.sources.map((s) => `<li>${escapeHtml(citationText(s))}</li>`).join("")}</ol>`
    : "";
  const body = chapter.content.trim();
  const heading = /^#\s/.test(body) ? "" : `<h1>${escapeHtml(chapter.title)}</h1>\n`;
  return [heading + markdownToHtml(body), concepts, sources].filter(Boolean).join("\n");
}

export const studyGuideBodyHtml = (course: ExportCourse) => markdownToHtml(studyGuideMarkdown(course.studyGuide));

/** A standalone page; `head` carries links to the package's own style sheet. */
export function htmlPage(title: string, body: string, opts: { stylesheet?: string; script?: string } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${opts.stylesheet ? `\n<link rel="stylesheet" href="${escapeHtml(opts.stylesheet)}">` : ""}
</head>
<body>
${body}${opts.script ? `\n<script src="${escapeHtml(opts.script)}"></script>` : ""}
</body>
</html>
`;
}

/** JSON for a `<script type="application/json">` block: `<` is escaped so no text can close the element. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
