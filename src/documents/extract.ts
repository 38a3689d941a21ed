/**
 * POST /v2/documents/extract, the domain part: every source of a request ingested without
 * indexing (chunk_count 0), its original kept as a blob, and each successful one billed to the
 * usage ledger in the transaction that records it. A failing source becomes that document's
 * error; only an unsupported file type (415) fails the whole request, before any work is done.
 */
import { addUsage, extractionCharge } from "../billing/index.ts";
import { type Sql, sql } from "../db/sql.ts";
import type { MediaUrls } from "../media/signed-url.ts";
import type { KeyEnv } from "../tenants/keys.ts";
import type { IngestDeps } from "./ingest.ts";
import { ingestUploads, type UploadInput } from "./ingest-request.ts";
import { loadDocument, type SourceType, setBilledMicros } from "./records.ts";

/** Extracting: ingestion, and the ledger and media URLs for what it returns. */
export type ExtractDeps = IngestDeps & { media: MediaUrls };

export interface ExtractRequester {
  tenantId: string;
  userId: string | null;
  apiKeyId: string;
  keyEnv: KeyEnv;
}

export interface ExtractedDocument {
  id: string;
  filename: string;
  sourceType: SourceType;
  sourceUrl: string | null;
  mimeType: string | null;
  pages: number | null;
  charCount: number;
  /** Not held here: ten 50 MB texts would be 500 MB in the server. Read it with `extractedMarkdown`. */
  billedMicros: number;
  status: "ready" | "error";
  errorMessage: string | null;
  createdAt: string;
}

async function loadExtracted(svc: Pick<ExtractDeps, "sql" | "cfg" | "media">, id: string): Promise<ExtractedDocument> {
  const row = await loadDocument(svc.sql, id);
  return {
    id: row.id,
    filename: row.filename,
    sourceType: row.source_type,
    sourceUrl: row.blob_key ? svc.media.url(svc.cfg, row.blob_key) : row.source_url,
    mimeType: row.mime_type,
    pages: row.status === "ready" ? row.pages : null,
    charCount: row.char_count,
    billedMicros: row.billed_micros,
    status: row.status === "ready" ? "ready" : "error",
    errorMessage: row.error,
    createdAt: row.created_at,
  };
}

export async function extractSources(
  svc: ExtractDeps,
  who: ExtractRequester,
  input: UploadInput,
): Promise<ExtractedDocument[]> {
  const ids = await ingestUploads(svc, who, input, {
    kind: "extract",
    index: false,
    onReady: async (tx, id, ready) => {
      const charge = extractionCharge({ ...ready, ok: true });
      if (!charge) return;
      await setBilledMicros(tx, id, charge.amountMicros);
      await addUsage(tx, {
        tenantId: who.tenantId,
        userId: who.userId,
        apiKeyId: who.apiKeyId,
        keyEnv: who.keyEnv,
        operation: charge.operation,
        quantity: charge.quantity,
        amountMicros: charge.amountMicros,
        refId: id,
      });
    },
  });
  return Promise.all(ids.map((id) => loadExtracted(svc, id)));
}

/** A recorded document's markdown, read back one document at a time as the response is written. */
export async function extractedMarkdown(db: Sql, id: string): Promise<string> {
  return (
    (await db.get<{ markdown: string | null }>(sql`SELECT markdown FROM documents WHERE id = ${id}`))?.markdown ?? ""
  );
}
