/**
 * The extractive engine's course builders in a worker thread (thread.ts): tagging and ranking a
 * book's chapters takes seconds of CPU, which on the server's thread stalled every other tenant's
 * requests (a 3.8 MB source held it for 105 s). Finding a document's repeats and planning a course
 * from its sources read the whole text too, and run here as well, on a read-only connection to the
 * database, as do matching a topic to the learner's documents, a topic course's chapters and which
 * paragraphs of a written chapter each passage grounds, and its indexing. build.ts lists this file as an entry point.
 */
import { parentPort } from "node:worker_threads";
import { groundParagraphs } from "../../courses/grounding.ts";
import { sectionPassages } from "../../courses/section-reads.ts";
import { prepareSourcePlan, type SourcePlanInput } from "../../courses/source-plan.ts";
import type { ChapterPart } from "../../courses/store.ts";
import { readTopicMatch } from "../../courses/topic-match.ts";
import { topicChapters } from "../../courses/topic-plan.ts";
import { readOnlySql } from "../../db/read-only.ts";
import { detectRepeats } from "../../documents/repeated-sections.ts";
import { type ChapterIndexJob, indexChapterInThread } from "../../retrieval/worker-index.ts";
import type { Passage } from "../artefacts.ts";
import {
  condensedChapter,
  extractiveChapter,
  extractiveExamQuestions,
  extractiveFlashcards,
  extractiveNotes,
  extractiveOutline,
  extractivePodcast,
  extractiveStudyGuide,
} from "./engine.ts";
import { keepTags } from "./tagging.ts";

// A course's builders tag the same sentences (the outline, each chapter, the study guide): the
// thread keeps what it tagged, about two long books' worth (a 300-page book tags ~0.5 M characters).
keepTags(1_500_000);

/** The builders run here: every one but answers (see thread.ts). */
const BUILDERS = {
  condensedChapter,
  extractiveChapter,
  extractiveExamQuestions,
  extractiveFlashcards,
  extractiveNotes,
  extractiveOutline,
  extractivePodcast,
  extractiveStudyGuide,
};
export type Builders = typeof BUILDERS;

/** Reads of a whole source, on this thread's own connection to the database (read-only on SQLite). */
const SOURCE_READS = {
  documentRepeats: (input: { database: string; documentId: string }) =>
    detectRepeats(readOnlySql(input.database), input.documentId),
  prepareSourcePlan: (input: SourcePlanInput) => prepareSourcePlan(readOnlySql(input.database), input),
  sectionPassages: (input: { database: string; parts: ChapterPart[] }) =>
    sectionPassages(readOnlySql(input.database), input.parts),
  matchTopic: (input: { database: string; owner: { tenantId: string; userId: string }; topic: string }) =>
    readTopicMatch(readOnlySql(input.database), input.owner, input.topic),
  topicChapters: (input: { database: string; passages: Passage[]; count: number }) =>
    topicChapters(readOnlySql(input.database), input.passages, input.count),
  groundParagraphs: (input: { content: string; passages: { id: string; text: string }[] }) =>
    groundParagraphs(input.content, input.passages),
  // Not a read: a written chapter's chunks embedded and stored, on the thread's own writing connection.
  indexChapter: (job: ChapterIndexJob) => indexChapterInThread(job),
};
export type SourceReads = typeof SOURCE_READS;

const WORK = { ...BUILDERS, ...SOURCE_READS };

export interface BuildRequest {
  id: number;
  name: keyof typeof WORK;
  input: unknown;
}

export type BuildReply =
  | { id: number; out: unknown }
  | { id: number; error: { message: string; code?: string; details?: unknown } };

parentPort?.on("message", async ({ id, name, input }: BuildRequest) => {
  let reply: BuildReply;
  try {
    reply = { id, out: await (WORK[name] as (input: unknown) => unknown)(input) };
  } catch (err) {
    const e = err as { message?: string; code?: string; details?: unknown };
    reply = { id, error: { message: e?.message ?? String(err), code: e?.code, details: e?.details } };
  }
  parentPort?.postMessage(reply);
});
