/** The settings indexing off the server's thread needs (worker-index.ts): a document's, or a chapter's. */
import type { Config } from "../config.ts";
import { type Sql, sql } from "../db/sql.ts";
import type { IndexJob } from "../ingest/types.ts";
import type { IndexChapterInput } from "./index-chunks.ts";
import type { ChapterIndexJob } from "./worker-index.ts";

export type IndexSettings = Pick<
  Config,
  | "dataDir"
  | "databaseUrl"
  | "embedder"
  | "embeddingModel"
  | "modelsDir"
  | "ollamaHost"
  | "llmTimeoutMs"
  | "llmKeepAlive"
>;

const embedderSettings = ({
  embedder,
  embeddingModel,
  modelsDir,
  ollamaHost,
  llmTimeoutMs,
  llmKeepAlive,
}: IndexSettings) => ({
  embedder,
  embeddingModel,
  modelsDir,
  ollamaHost,
  llmTimeoutMs,
  llmKeepAlive,
});

export async function indexJob(
  svc: { sql: Sql; cfg: IndexSettings },
  doc: Pick<IndexJob, "tenantId" | "userId" | "documentId">,
): Promise<IndexJob> {
  const spaceId =
    (await svc.sql.get<{ space_id: string | null }>(sql`SELECT space_id FROM documents WHERE id = ${doc.documentId}`))
      ?.space_id ?? null;
  const { dataDir, databaseUrl } = svc.cfg;
  return { dataDir, databaseUrl, embedder: embedderSettings(svc.cfg), spaceId, ...doc };
}

/** A written chapter, indexed in the extractive engine's thread (its `indexChapter` work). */
export function chapterIndexJob(svc: { cfg: IndexSettings }, chapter: IndexChapterInput): ChapterIndexJob {
  const { dataDir, databaseUrl } = svc.cfg;
  return { dataDir, databaseUrl, embedder: embedderSettings(svc.cfg), chapter };
}
