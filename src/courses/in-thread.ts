/**
 * The steps of course generation that read a whole source, and a written chapter's indexing, run in
 * the extractive engine's thread (src/engine-thread.ts serves them), each read on the thread's own
 * read-only connection to the database: planning a course from its sources, a chapter's own
 * sections, matching a topic to the learner's documents and a topic course's chapters, which
 * paragraphs each passage grounds. The server calls them through `CourseThread`, handed down
 * from the composition root.
 */
import { readOnlySql } from "../db/read-only.ts";
import type { Passage } from "../llm/artefacts.ts";
import { type ChapterIndexJob, indexChapterInThread } from "../retrieval/worker-index.ts";
import type { Calls } from "../thread-calls.ts";
import { groundParagraphs } from "./grounding.ts";
import { sectionPassages } from "./section-reads.ts";
import { prepareSourcePlan, type SourcePlanInput } from "./source-plan.ts";
import type { ChapterPart } from "./store.ts";
import { readTopicMatch, type TopicMatch } from "./topic-match.ts";
import { topicChapters } from "./topic-plan.ts";

export const COURSE_WORK = {
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

/** Course generation's calls into the engine's thread. */
export type CourseThread = Calls<typeof COURSE_WORK>;

/** The learner's sections that cover the topic (topic-match.ts), read in the engine's thread, off the server's. */
export const matchTopic = (
  svc: { databaseAddress: string; engineThread: Pick<CourseThread, "matchTopic"> },
  owner: { tenantId: string; userId: string },
  topic: string,
): Promise<TopicMatch> => svc.engineThread.matchTopic({ database: svc.databaseAddress, owner, topic });
