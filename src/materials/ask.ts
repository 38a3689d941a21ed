/**
 * Course Q&A: retrieval over the course's chapters and the documents it was built from, then an
 * answer grounded in the passages found. A passage found both in a chapter and in its source counts
 * once. A low-confidence answer is an abstention: when the passages do not answer the question
 * (the model says so, or the question's key terms are not in them, the threshold bench/qa
 * calibrates), the answer is the one sentence saying the course does not answer it and
 * `low_confidence` is true; an answer shown is never flagged, so the text, the field and the
 * console say the same. The best match's cosine alone does not decide it: the built-in lexical
 * embedder scores passages that answer plainly 0.2-0.5, under the spec's 0.5. The question counts
 * toward a test key's monthly query cap whether or not it is answered.
 */
import { type TestCaps, withTestCapCharge } from "../billing/index.ts";
import type { Clock } from "../clock.ts";
import type { CourseHead } from "../courses/read.ts";
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";
import {
  type AnswerPassage,
  answerQuestion,
  distinctPassages,
  EXTRACTIVE_MODEL,
  UsageMeter,
} from "../llm/artefacts.ts";
import type { Llm } from "../llm/types.ts";
import type { Logger } from "../log.ts";
import { type RetrievalDeps, search } from "../retrieval/index.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { isModelFailure, type Maker, makerOf } from "./engine.ts";

export const COURSE_NOT_ANSWERED = "Low confidence: the course's chapters and sources do not answer this question.";
const TOP_K = 5;

export interface AskResult {
  answer: string;
  sources: { text: string; score: number }[];
  low_confidence: boolean;
  engine: string;
  model: string;
}

/** Asking a course: retrieval, the model, the usage ledger and its test-key cap. */
export interface AskDeps extends RetrievalDeps {
  sql: Sql;
  llm: Llm;
  log: Logger;
  cfg: TestCaps;
  clock: Clock;
}

export async function askCourse(
  svc: AskDeps,
  course: CourseHead,
  input: { question: string; auth: AuthContext; userId: string },
): Promise<AskResult> {
  const question = input.question.trim();
  if (!question) throw new AppError("VALIDATION_ERROR", "question must not be blank", { field: "question" });
  const charge = {
    tenantId: input.auth.tenantId,
    userId: input.userId,
    apiKeyId: input.auth.keyId,
    keyEnv: input.auth.keyEnv,
    refId: course.id,
  };
  return withTestCapCharge(svc.sql, "query", svc.cfg, svc.clock.now(), charge, () =>
    answerFromCourse(svc, course, question, input),
  );
}

async function answerFromCourse(
  svc: AskDeps,
  course: CourseHead,
  question: string,
  input: { auth: AuthContext; userId: string },
): Promise<AskResult> {
  // Twice as many as shown, so that TOP_K remain once chapter copies of source passages are merged;
  // as many candidates as a search for TOP_K itself ranks, so the ranking is that search's.
  const found = await search(svc, {
    tenantId: input.auth.tenantId,
    userId: input.userId,
    scope: { courseId: course.id },
    query: question,
    topK: 2 * TOP_K,
    candidates: Math.max(4 * TOP_K, 40),
    roles: TEACHING_ROLE_LIST,
  });
  const hits = distinctPassages(found).slice(0, TOP_K);
  // Headings and roles as document query gives them: a passage's section title holds the question's terms too.
  const passages: AnswerPassage[] = hits.map((h) => ({
    id: h.chunkId,
    text: h.text,
    documentId: h.documentId ?? undefined,
    filename: h.filename ?? undefined,
    heading: h.headingPath.length > 0 ? h.headingPath.join(" › ") : null,
    headingPath: h.headingPath,
    role: h.role,
    score: h.score,
  }));

  const meter = new UsageMeter();
  const reply = await answerQuestion(svc.llm, { question, passages, meter }).catch((err: unknown) => {
    // The spec gives course Q&A no 503: when the model fails, answer from the passages themselves.
    if (!isModelFailure(err)) throw err;
    svc.log.warn("course ask fell back to the extractive engine", { course_id: course.id, reason: err.message });
    return answerQuestion(svc.llm, { question, passages, meter, model: EXTRACTIVE_MODEL });
  });
  // The engine of the last call made the answer; no call at all (nothing found) is the passages' own answer.
  const maker: Maker =
    meter.engine && meter.model ? { engine: meter.engine, model: meter.model } : makerOf(svc.llm, EXTRACTIVE_MODEL);

  return {
    answer: reply.answered ? reply.answer : COURSE_NOT_ANSWERED,
    sources: hits.map((h) => ({ text: h.text, score: h.score })),
    low_confidence: !reply.answered,
    engine: maker.engine,
    model: maker.model,
  };
}
