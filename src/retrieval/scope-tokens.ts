/**
 * Owner and scope as FTS5 tokens: each chunk's `scope` column lists keys of its owner, document,
 * space and course, so BM25 search filters inside the FTS5 query (intersecting short posting
 * lists) instead of joining every match to retrieval_chunks. Tokens that combine owner and scope
 * (the learner's documents, the learner's space) keep the common searches to one short list. A
 * token is a tag and a decimal 52-bit key, which the porter/unicode61 tokenizer keeps whole. Keys
 * are hashes, so results are re-checked against the chunk rows.
 */
import { keyOf } from "./vector-tables.ts";

export interface ScopeOwner {
  tenantId: string;
  userId: string | null;
  documentId: string | null;
  courseId: string | null;
  spaceId: string | null;
}

const token = (tag: string, ...ids: (string | null)[]) => `${tag}${keyOf(ids.join("|"))}`;

/** The `scope` column of a chunk. */
export function scopeTokens(o: ScopeOwner): string {
  const tokens = [token("t", o.tenantId), token("o", o.tenantId, o.userId)];
  if (o.documentId) {
    tokens.push(token("d", o.documentId), token("td", o.tenantId), token("od", o.tenantId, o.userId));
    if (o.spaceId) tokens.push(token("ts", o.tenantId, o.spaceId), token("os", o.tenantId, o.userId, o.spaceId));
  }
  if (o.courseId) tokens.push(token("c", o.courseId));
  return tokens.join(" ");
}

export interface ScopeFilter {
  tenantId: string;
  userId: string | null;
  documentIds: string[];
  spaceId: string | null;
  courseId: string | null;
  allDocuments: boolean;
}

/** Every document chunk of one learner: topic matching reads the whole library. */
export const everyDocumentOf = (owner: { tenantId: string; userId: string }): ScopeFilter => ({
  tenantId: owner.tenantId,
  userId: owner.userId,
  documentIds: [],
  spaceId: null,
  courseId: null,
  allDocuments: true,
});

/** The FTS5 expression restricting a search to the filter, owner included in every alternative. */
export function scopeExpression(f: ScopeFilter): string {
  const u = f.userId;
  const owner = u !== null ? token("o", f.tenantId, u) : token("t", f.tenantId);
  const parts: string[] = [];
  if (f.allDocuments) parts.push(u !== null ? token("od", f.tenantId, u) : token("td", f.tenantId));
  if (f.documentIds.length > 0)
    parts.push(`((${f.documentIds.map((id) => token("d", id)).join(" OR ")}) AND ${owner})`);
  if (f.spaceId) parts.push(u !== null ? token("os", f.tenantId, u, f.spaceId) : token("ts", f.tenantId, f.spaceId));
  if (f.courseId) parts.push(`(${token("c", f.courseId)} AND ${owner})`);
  return `scope : (${parts.join(" OR ")})`;
}
