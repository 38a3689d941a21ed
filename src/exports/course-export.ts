/**
 * What an export holds: a completed course's chapters (content, key concepts, quiz, citations) and
 * the materials generated for it so far. Nothing is generated here except the study guide, which a
 * completed course already has (it is built at completion; one missing is built now, as GET
 * study-guide does). Notes, flashcards and an exam are included when they have been generated:
 * the newest of each.
 */
import { existsSync } from "node:fs";
import type { Clock } from "../clock.ts";
import { type CourseOwner, loadCourseOf, readCourse } from "../courses/read.ts";
import type { Sql } from "../db/sql.ts";
import type { FlashcardDeck, McqQuestion, StudyGuide } from "../llm/artefacts.ts";
import { assertCompleted } from "../materials/assert-completed.ts";
import { asUnavailable, type MaterialDeps } from "../materials/engine.ts";
import { type Exam, findExam } from "../materials/exam.ts";
import { findDeck } from "../materials/flashcards.ts";
import { findLatestNotes, type StoredNotes } from "../materials/notes.ts";
import { buildStudyGuide, readStudyGuide } from "../materials/study-guide.ts";
import { blobPath } from "../media/blob-store.ts";
import { courseEpisodes } from "../podcasts/episodes.ts";

export interface ExportSource {
  filename: string | null;
  page: number | null;
  url: string | null;
  title: string | null;
  excerpt: string | null;
}

export interface ExportChapter {
  id: string;
  index: number;
  title: string;
  /** Markdown, from documents: untrusted wherever it is rendered. */
  content: string;
  keyConcepts: string[];
  quiz: McqQuestion[];
  sources: ExportSource[];
}

export interface ExportEpisode {
  chapterIndex: number;
  title: string;
  /** The MP3 file, read as the package is streamed. */
  path: string;
}

export interface ExportCourse {
  id: string;
  title: string;
  description: string | null;
  slug: string;
  completedAt: string;
  chapters: ExportChapter[];
  studyGuide: StudyGuide;
  notes: StoredNotes | null;
  flashcards: FlashcardDeck | null;
  exam: Exam | null;
  episodes: ExportEpisode[];
}

/** An export reads the course's materials (building a missing study guide) and its episodes' audio. */
export type ExportDeps = MaterialDeps & { cfg: { blobDir: string }; clock: Clock; sql: Sql };

/** The caller's completed course, with its materials: 404 when not theirs, 409 while not completed. */
export async function loadExportCourse(svc: ExportDeps, owner: CourseOwner, courseId: string): Promise<ExportCourse> {
  const db = svc.sql;
  const head = await loadCourseOf(db, owner, courseId);
  assertCompleted(head);
  let studyGuide = await readStudyGuide(db, head.id);
  if (!studyGuide) {
    await buildStudyGuide(svc, head.id).catch((err: unknown) => {
      throw asUnavailable(err);
    });
    studyGuide = (await readStudyGuide(db, head.id))!;
  }
  const course = await readCourse(db, owner, head.id);
  const chapters: ExportChapter[] = course.chapters.map((c, index) => ({
    id: c.id,
    index,
    title: c.title,
    content: c.content,
    keyConcepts: c.key_concepts,
    quiz: c.quiz.questions
      .filter((q) => q.type === "mcq")
      .map((q) => ({
        type: "mcq" as const,
        prompt: q.prompt,
        choices: q.choices,
        answer: q.answer as number,
        explanation: q.explanation ?? "",
      })),
    sources: c.sources.map((s) => ({
      filename: s.filename,
      page: s.page,
      url: s.url,
      title: s.title,
      excerpt: s.excerpt,
    })),
  }));
  const indexOf = new Map(chapters.map((c) => [c.id, c.index]));
  const episodes = (await courseEpisodes(db, head.id))
    // An episode whose audio file is gone is left out rather than breaking the zip halfway through.
    .filter(
      (e) =>
        e.status === "ready" &&
        e.blob_key &&
        indexOf.has(e.chapter_id) &&
        existsSync(blobPath(svc.cfg.blobDir, e.blob_key)),
    )
    .map((e) => ({
      chapterIndex: indexOf.get(e.chapter_id)!,
      title: e.title,
      path: blobPath(svc.cfg.blobDir, e.blob_key!),
    }));
  return {
    id: course.id,
    title: course.title,
    description: course.description,
    slug: course.slug,
    completedAt: course.completed_at ?? course.created_at,
    chapters,
    studyGuide: studyGuide.guide,
    notes: await findLatestNotes(db, head.id),
    flashcards: (await findDeck(db, head.id))?.deck ?? null,
    exam: (await findExam(db, head.id))?.exam ?? null,
    episodes,
  };
}
