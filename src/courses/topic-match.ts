/**
 * A topic course draws on the learner's own indexed documents when they are about the topic:
 * passages scoring at least TOPIC_MATCH_MIN_SCORE. With no model configured, they are the only
 * possible material, so a topic without them is refused.
 */
import { AppError } from "../errors.ts";
import type { Passage } from "../llm/artefacts.ts";
import { search } from "../retrieval/index.ts";
import type { Services } from "../services.ts";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";

const TOPIC_PASSAGES = 12;

export interface TopicMatch {
  documentIds: string[];
  passages: Passage[];
}

export function readyDocumentIds(svc: Services, tenantId: string, userId: string): string[] {
  return svc.sqlite
    .query<{ id: string }, [string, string]>(
      "SELECT id FROM documents WHERE tenant_id = ? AND user_id = ? AND kind = 'index' AND status = 'ready' ORDER BY created_at",
    )
    .all(tenantId, userId)
    .map((r) => r.id);
}

export async function matchTopic(svc: Services, owner: { tenantId: string; userId: string }, topic: string): Promise<TopicMatch> {
  const documentIds = readyDocumentIds(svc, owner.tenantId, owner.userId);
  if (documentIds.length === 0) return { documentIds: [], passages: [] };
  const hits = await search(svc, { tenantId: owner.tenantId, userId: owner.userId, scope: { documentIds }, query: topic, topK: TOPIC_PASSAGES, roles: TEACHING_ROLE_LIST });
  const close = hits.filter((h) => h.score >= svc.cfg.topicMatchMinScore);
  return {
    documentIds: [...new Set(close.flatMap((h) => (h.documentId ? [h.documentId] : [])))],
    passages: close.map((h) => ({
      id: h.chunkId,
      text: h.text,
      documentId: h.documentId ?? undefined,
      filename: h.filename ?? undefined,
      page: h.page ?? h.slide ?? null,
      heading: h.headingPath.length > 0 ? h.headingPath.join(" > ") : null,
      score: h.score,
    })),
  };
}

export const noModelForTopic = (topic: string) =>
  new AppError(
    503,
    "MODEL_NOT_CONFIGURED",
    `No language model is configured, and none of your indexed documents match "${topic.slice(0, 80)}". ` +
      "Start Ollama (OLLAMA_HOST, LLM_MODEL) or an OpenAI-compatible server (OPENAI_BASE_URL) and restart with LLM_PROVIDER=auto, " +
      "or build the course from files with POST /v2/courses/generate-from-files, or index documents on the topic first with POST /v2/documents/process.",
  );
