/**
 * POST /v2/documents/extract, the domain part: every source of a request extracted (a bounded
 * number at once), each recorded as a document with chunk_count 0, its original kept as a blob,
 * and each successful one billed to the usage ledger. A failing source becomes that document's
 * error; only an unsupported file type (415) fails the whole request, before any work is done.
 */
import pLimit from "p-limit";
import { extractionCharge, recordUsage } from "../billing/index.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/index.ts";
import { documents } from "../db/schema/index.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { putBlob } from "../media/blob-store.ts";
import type { MediaUrls } from "../media/signed-url.ts";
import type { KeyEnv } from "../tenants/keys.ts";
import { newId, nowIso } from "../util.ts";
import { collectAfterLargeText } from "./large-text.ts";
import { extractSource, failureMessage, type RequestSource, requestSources } from "./request-sources.ts";
import type { ExtractResult } from "./types.ts";

export interface ExtractRequester {
  tenantId: string;
  userId: string | null;
  apiKeyId: string;
  keyEnv: KeyEnv;
}

export interface ExtractInput {
  files: { path: string; filename: string; size: number }[];
  youtubeUrls: string[];
  webUrls: string[];
  spaceId: string | null;
}

export interface ExtractedDocument {
  id: string;
  filename: string;
  sourceType: "file" | "youtube" | "web";
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

interface Outcome {
  result: (ExtractResult & { sourceType: "file" | "youtube" | "web" }) | null;
  error: string | null;
  blobKey: string | null;
  mimeType: string | null;
}

export interface ExtractDeps {
  db: Db;
  cfg: Config;
  media: MediaUrls;
  log: Logger;
}

async function runSource(deps: ExtractDeps, source: RequestSource, tenant: string): Promise<Outcome> {
  const detected = source.type === "file" && !(source.detected instanceof AppError) ? source.detected : null;
  // The original is kept even when it fails to parse, so it can be downloaded and inspected.
  const blobKey =
    source.type === "file" && detected ? (await putBlob(deps.cfg, source.path, { ext: detected.kind })).key : null;
  try {
    const result = await extractSource(source, deps.cfg, { tenant, markdownOnly: true });
    return { result, error: null, blobKey, mimeType: detected?.mimeType ?? result.mimeType };
  } catch (err) {
    return {
      result: null,
      error: failureMessage(err, deps.log, source),
      blobKey,
      mimeType: detected?.mimeType ?? null,
    };
  }
}

function record(
  deps: ExtractDeps,
  who: ExtractRequester,
  input: ExtractInput,
  source: RequestSource,
  outcome: Outcome,
): ExtractedDocument {
  const { result } = outcome;
  const id = newId();
  const createdAt = nowIso();
  const sourceType = result?.sourceType ?? (source.type === "file" ? "file" : source.type);
  const filename = source.type === "file" ? source.filename : source.url;
  const charge = extractionCharge({
    sourceType,
    mimeType: outcome.mimeType,
    pages: result?.pages ?? null,
    ok: result !== null,
  });
  const billedMicros = charge?.amountMicros ?? 0;
  const doc: ExtractedDocument = {
    id,
    filename,
    sourceType,
    sourceUrl: outcome.blobKey ? deps.media.url(deps.cfg, outcome.blobKey) : source.type === "file" ? null : source.url,
    mimeType: outcome.mimeType,
    pages: result ? result.pages : null,
    charCount: result?.markdown.length ?? 0,
    billedMicros,
    status: result ? "ready" : "error",
    errorMessage: outcome.error,
    createdAt,
  };
  deps.db.transaction((tx) => {
    tx.insert(documents)
      .values({
        id,
        tenantId: who.tenantId,
        userId: who.userId,
        spaceId: input.spaceId,
        kind: "extract",
        filename,
        sourceType,
        sourceUrl: source.type === "file" ? null : source.url,
        blobKey: outcome.blobKey,
        mimeType: doc.mimeType,
        pages: doc.pages,
        charCount: doc.charCount,
        markdown: result?.markdown ?? null,
        status: doc.status,
        error: doc.errorMessage,
        chunkCount: 0,
        billedMicros,
        createdAt,
      })
      .run();
    if (charge) {
      recordUsage(tx, {
        tenantId: who.tenantId,
        userId: who.userId,
        apiKeyId: who.apiKeyId,
        keyEnv: who.keyEnv,
        operation: charge.operation,
        quantity: charge.quantity,
        amountMicros: charge.amountMicros,
        refId: id,
      });
    }
  });
  return doc;
}

export async function extractSources(
  deps: ExtractDeps,
  who: ExtractRequester,
  input: ExtractInput,
): Promise<ExtractedDocument[]> {
  const sources = await requestSources(input);
  const limit = pLimit(deps.cfg.ingestConcurrency);
  return Promise.all(
    sources.map((source) =>
      limit(async () => {
        const doc = record(deps, who, input, source, await runSource(deps, source, who.tenantId));
        collectAfterLargeText(doc.charCount);
        return doc;
      }),
    ),
  );
}

/** A recorded document's markdown, read back one document at a time as the response is written. */
export function extractedMarkdown(db: Db, id: string): string {
  return (
    db.$client.query<{ markdown: string | null }, [string]>("SELECT markdown FROM documents WHERE id = ?").get(id)
      ?.markdown ?? ""
  );
}
