/** The settings an extraction process needs to index a document itself (worker-index.ts). */
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import type { IndexJob } from "../ingest/types.ts";

export function indexJob(
  svc: {
    sqlite: Database;
    cfg: Pick<
      Config,
      "dataDir" | "embedder" | "embeddingModel" | "modelsDir" | "ollamaHost" | "llmTimeoutMs" | "llmKeepAlive"
    >;
  },
  doc: Pick<IndexJob, "tenantId" | "userId" | "documentId">,
): IndexJob {
  const { embedder, embeddingModel, modelsDir, ollamaHost, llmTimeoutMs, llmKeepAlive } = svc.cfg;
  const spaceId =
    svc.sqlite
      .query<{ space_id: string | null }, [string]>("SELECT space_id FROM documents WHERE id = ?")
      .get(doc.documentId)?.space_id ?? null;
  return {
    dataDir: svc.cfg.dataDir,
    embedder: { embedder, embeddingModel, modelsDir, ollamaHost, llmTimeoutMs, llmKeepAlive },
    spaceId,
    ...doc,
  };
}
