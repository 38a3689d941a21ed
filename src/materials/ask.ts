/**
 * Course Q&A: retrieval over the course's chapters and the documents it was built from, then an
 * answer grounded in the passages found. A best match under 0.5 (cosine) says so in the answer.
 * The question counts toward a test key's monthly query cap whether or not it is answered.
 */
import { assertWithinTestCap, OPERATIONS, recordUsage } from "../billing/index.ts";
import { validation } from "../errors.ts";
import { answerQuestion, EXTRACTIVE_MODEL, type Passage } from "../llm/artefacts.ts";
import { search } from "../retrieval/index.ts";
import type { Services } from "../services.ts";
import type { AuthContext } from "../tenants/keys.ts";
import type { CourseHead } from "./course-content.ts";
import { isModelFailure, makerOf } from "./engine.ts";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";

export const LOW_CONFIDENCE_SCORE = 0.5;
const TOP_K = 5;

export interface AskResult {
  answer: string;
  sources: { text: string; score: number }[];
  low_confidence: boolean;
  engine: string;
  model: string;
}

export async function askCourse(
  svc: Services,
  course: CourseHead,
  input: { question: string; auth: AuthContext; userId: string },
): Promise<AskResult> {
  const question = input.question.trim();
  if (!question) throw validation("question must not be blank", { field: "question" });
  assertWithinTestCap(svc.db, input.auth, "query", svc.cfg);
  recordUsage(svc.db, {
    tenantId: input.auth.tenantId,
    userId: input.userId,
    apiKeyId: input.auth.keyId,
    keyEnv: input.auth.keyEnv,
    operation: OPERATIONS.query,
    refId: course.id,
  });

  const hits = await search(svc, { tenantId: input.auth.tenantId, userId: input.userId, scope: { courseId: course.id }, query: question, topK: TOP_K, roles: TEACHING_ROLE_LIST });
  const passages: Passage[] = hits.map((h) => ({
    id: h.chunkId,
    text: h.text,
    documentId: h.documentId ?? undefined,
    filename: h.filename ?? undefined,
    score: h.score,
  }));
  const top = hits.reduce((best, h) => Math.max(best, h.score), 0);
  const lowConfidence = hits.length === 0 || top < LOW_CONFIDENCE_SCORE;

  let maker = makerOf(svc.llm);
  const reply = await answerQuestion(svc.llm, { question, passages }).catch((err: unknown) => {
    // The spec gives course Q&A no 503: when the model fails, answer from the passages themselves.
    if (!isModelFailure(err)) throw err;
    svc.log.warn("course ask fell back to the extractive engine", { course_id: course.id, reason: err.message });
    maker = makerOf(svc.llm, EXTRACTIVE_MODEL);
    return answerQuestion(svc.llm, { question, passages, model: EXTRACTIVE_MODEL });
  });
  if (hits.length === 0) maker = makerOf(svc.llm, EXTRACTIVE_MODEL);

  const answer = lowConfidence ? `${lowConfidenceNote(hits.length, top)} ${reply.answer}` : reply.answer;
  return {
    answer,
    sources: hits.map((h) => ({ text: h.text, score: h.score })),
    low_confidence: lowConfidence,
    engine: maker.engine,
    model: maker.model,
  };
}

function lowConfidenceNote(hits: number, top: number): string {
  if (hits === 0) return "Low confidence: nothing in this course's chapters or sources matches the question.";
  return `Low confidence: the closest course passage only loosely matches the question (similarity ${top.toFixed(2)}, below ${LOW_CONFIDENCE_SCORE}), so treat this answer with caution.`;
}
