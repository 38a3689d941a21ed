/** One export request: the course's package in the asked format, as a stream with its type and file name. */
import type { CourseOwner } from "../courses/read.ts";
import { AppError } from "../errors.ts";
import { slugify } from "../util.ts";
import { apkgEntries } from "./apkg.ts";
import { type ExportCourse, type ExportDeps, loadExportCourse } from "./course-export.ts";
import { imsccEntries } from "./imscc.ts";
import { markdownEntries } from "./markdown-zip.ts";
import { attachment } from "./names.ts";
import { scormEntries } from "./scorm12.ts";
import { type ZipEntry, zipStream } from "./zip-stream.ts";

export const EXPORT_FORMATS = ["imscc", "scorm12", "apkg", "markdown"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const FORMATS: Record<
  ExportFormat,
  { contentType: string; suffix: string; entries: (c: ExportCourse, now: Date) => Iterable<ZipEntry> }
> = {
  imscc: { contentType: "application/vnd.ims.imsccv1p3", suffix: ".imscc", entries: imsccEntries },
  scorm12: { contentType: "application/zip", suffix: "-scorm12.zip", entries: scormEntries },
  apkg: { contentType: "application/apkg", suffix: ".apkg", entries: apkgEntries },
  markdown: { contentType: "application/zip", suffix: "-markdown.zip", entries: markdownEntries },
};

export async function exportPackage(svc: ExportDeps, owner: CourseOwner, courseId: string, format: ExportFormat) {
  const course = await loadExportCourse(svc, owner, courseId);
  if (format === "apkg" && !course.flashcards?.cards.length) {
    const message = course.flashcards
      ? "The course's flashcard deck has no cards, so there is nothing to put in an Anki package"
      : "No flashcards have been generated for this course yet; POST /v2/courses/{course_id}/generate-flashcards first";
    throw new AppError("FLASHCARDS_NOT_GENERATED", message);
  }
  const f = FORMATS[format];
  return {
    body: zipStream(f.entries(course, svc.clock.now())),
    contentType: f.contentType,
    disposition: attachment(`${slugify(course.slug)}${f.suffix}`),
  };
}
