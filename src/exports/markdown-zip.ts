/**
 * format=markdown: the chapters, notes and study guide as markdown files, and the podcast audio.
 * Raw HTML from documents is written as text (inertMarkdown), so no viewer runs it.
 */
import type { ExportCourse } from "./course-export.ts";
import { chapterMarkdown, studyGuideMarkdown } from "./course-markdown.ts";
import { inertMarkdown } from "./html.ts";
import { numbered } from "./names.ts";
import type { ZipEntry } from "./zip-stream.ts";

export function* markdownEntries(course: ExportCourse): Iterable<ZipEntry> {
  const chapterFiles = course.chapters.map((c) => `chapters/${numbered(c.index, c.title)}.md`);
  const episodeFile = (e: ExportCourse["episodes"][number]) => `podcast/${numbered(e.chapterIndex, e.title)}.mp3`;
  const contents = [
    ...course.chapters.map((c, i) => `- [${c.title.replace(/[[\]]/g, "")}](${chapterFiles[i]})`),
    "- [Study guide](study-guide.md)",
    ...(course.notes ? ["- [Notes](notes.md)"] : []),
    ...course.episodes.map((e) => `- [Podcast: ${e.title.replace(/[[\]]/g, "")}](${episodeFile(e)})`),
  ];
  yield {
    name: "README.md",
    data: inertMarkdown(
      `# ${course.title}\n\n${course.description ? `${course.description}\n\n` : ""}## Contents\n\n${contents.join("\n")}\n`,
    ),
  };
  for (const [i, c] of course.chapters.entries())
    yield { name: chapterFiles[i]!, data: inertMarkdown(`${chapterMarkdown(c, { quiz: true })}\n`) };
  yield { name: "study-guide.md", data: inertMarkdown(studyGuideMarkdown(course.studyGuide)) };
  if (course.notes) yield { name: "notes.md", data: inertMarkdown(course.notes.notes) };
  for (const e of course.episodes) yield { name: episodeFile(e), data: Bun.file(e.path).stream(), compress: false };
}
