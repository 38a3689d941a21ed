/** The settings indexing off the server's thread needs (worker-index.ts): a document's, or a chapter's. */
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import type { IndexJob } from "../ingest/types.ts";
import type { IndexChapterInput } from "./index-chunks.ts";
import type { ChapterIndexJob } from "./worker-index.ts";

export type IndexSettings = Pick<
  Config,
  "dataDir" | "embedder" | "embeddingModel" | "modelsDir" | "ollamaHost" | "llmTimeoutMs" | "llmKeepAlive"
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

export function indexJob(
  svc: { sqlite: Database; cfg: IndexSettings },
  doc: Pick<IndexJob, "tenantId" | "userId" | "documentId">,
): IndexJob {
  const spaceId =
    svc.sqlite
      .query<{ space_id: string | null }, [string]>("SELECT space_id FROM documents WHERE id = ?")
      .get(doc.documentId)?.space_id ?? null;
  return { dataDir: svc.cfg.dataDir, embedder: embedderSettings(svc.cfg), spaceId, ...doc };
}

/** A written chapter, indexed in the extractive engine's thread (its `indexChapter` work). */
export function chapterIndexJob(svc: { cfg: IndexSettings }, chapter: IndexChapterInput): ChapterIndexJob {
  return { dataDir: svc.cfg.dataDir, embedder: embedderSettings(svc.cfg), chapter };
}
