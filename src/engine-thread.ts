/**
 * The extractive engine's thread: its course builders, and the work of other domains that reads a
 * whole source (courses/in-thread.ts, documents/repeated-sections.ts). Tagging and ranking a book's
 * chapters takes seconds of CPU, which on the server's thread stalled every other tenant's requests
 * (a 3.8 MB source held it for 105 s). The composition root (compose.ts) starts the thread and hands
 * its calls (thread-calls.ts) down; each domain declares the calls it makes, so this entry imports
 * the domains and none of them imports it. Answers to questions stay on the server's thread
 * (llm/artefacts/answer.ts): they read a few passages, and must not wait behind another tenant's
 * course. build.ts lists this file as an entry point.
 */
import { COURSE_WORK } from "./courses/in-thread.ts";
import { DOCUMENT_WORK } from "./documents/repeated-sections.ts";
import * as engine from "./llm/extractive/engine.ts";
import { keepTags } from "./llm/extractive/tagging.ts";
import { serveCalls } from "./thread-calls.ts";

// A course's builders tag the same sentences (the outline, each chapter, the study guide): the
// thread keeps what it tagged, about two long books' worth (a 300-page book tags ~0.5 M characters).
keepTags(1_500_000);

// The builders run here: every one but answers.
const { extractiveAnswer: _answers, ...BUILDERS } = engine;

const WORK = { ...BUILDERS, ...COURSE_WORK, ...DOCUMENT_WORK };
/** What the engine's thread runs, by name. */
export type EngineWork = typeof WORK;

serveCalls(WORK);
