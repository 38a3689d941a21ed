/**
 * POST /v2/documents/query, the domain part: hybrid search over the caller's documents (a list of
 * ids, or a space), near-copies merged (overlapping chunks), then an answer grounded in the
 * passages found, citing them as [n], or one sentence saying they do not answer the question. A
 * test key may make TEST_KEY_QUERIES_PER_MONTH of these a month.
 */
import { type TestCaps, withTestCapCharge } from "../billing/index.ts";
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { QUERY_ROLES } from "../ingest/document.ts";
import { type AnswerPassage, answerQuestion, distinctPassages } from "../llm/artefacts.ts";
import type { Llm } from "../llm/types.ts";
import { type RetrievalDeps, search } from "../retrieval/index.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { assertOwnedDocuments, type DocumentOwner } from "./records.ts";

export const MAX_QUERY_DOCUMENTS = 20;

export interface QueryInput {
  question: string;
  documentIds?: string[];
  spaceId?: string;
  topK: number;
}

/** Querying documents: retrieval, the model, the usage ledger and its test-key cap. */
export interface QueryDeps extends RetrievalDeps {
  sql: Sql;
  llm: Llm;
  cfg: TestCaps;
  clock: Clock;
}

export async function queryDocuments(
  svc: QueryDeps,
  auth: Pick<AuthContext, "tenantId" | "keyId" | "keyEnv">,
  owner: DocumentOwner,
  input: QueryInput,
) {
  const question = input.question.trim();
  if (!question) throw new AppError("VALIDATION_ERROR", "question must not be empty");
  const byIds = input.documentIds !== undefined;
  const bySpace = input.spaceId !== undefined;
  if (byIds === bySpace) throw new AppError("VALIDATION_ERROR", "Give exactly one of document_ids and space_id");
  if (byIds && input.documentIds!.length === 0)
    throw new AppError("VALIDATION_ERROR", `document_ids must hold 1 to ${MAX_QUERY_DOCUMENTS} ids`);
  if (byIds) await assertOwnedDocuments(svc.sql, owner, input.documentIds!);
  const charge = { tenantId: auth.tenantId, userId: owner.userId, apiKeyId: auth.keyId, keyEnv: auth.keyEnv };
  return withTestCapCharge(svc.sql, "query", svc.cfg, svc.clock.now(), charge, () =>
    answerFromDocuments(
      svc,
      owner,
      question,
      byIds ? { documentIds: input.documentIds } : { spaceId: input.spaceId },
      input.topK,
    ),
  );
}

async function answerFromDocuments(
  svc: QueryDeps,
  owner: DocumentOwner,
  question: string,
  scope: { documentIds?: string[]; spaceId?: string },
  topK: number,
) {
  // Twice as many as shown, so that top_k remain once near-copies are merged; as many candidates
  // as a search for top_k itself ranks, so the ranking is that search's.
  const found = await search(svc, {
    tenantId: owner.tenantId,
    userId: owner.userId,
    scope,
    query: question,
    topK: 2 * topK,
    candidates: Math.max(4 * topK, 40),
    roles: QUERY_ROLES,
  });
  const hits = distinctPassages(found).slice(0, topK);
  // Passage n is cited as [n]: the order of `sources` is the order the answer cites.
  const passages: AnswerPassage[] = hits.map((h) => ({
    id: h.chunkId,
    text: h.text,
    documentId: h.documentId ?? undefined,
    filename: h.filename ?? undefined,
    page: h.page ?? h.slide ?? null,
    heading: h.headingPath.length > 0 ? h.headingPath.join(" › ") : null,
    headingPath: h.headingPath,
    role: h.role,
    score: h.score,
  }));
  const { answer } = await answerQuestion(svc.llm, { question, passages });

  return {
    answer,
    sources: hits.map((h) => ({
      document_id: h.documentId!,
      filename: h.filename!,
      text: h.text,
      score: h.score,
      chunk_id: h.chunkId,
      page: h.page,
      slide: h.slide,
      timestamp_seconds: h.timestamp,
      heading_path: h.headingPath,
      role: h.role,
    })),
  };
}
