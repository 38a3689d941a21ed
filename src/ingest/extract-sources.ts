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
import { AppError, badRequest } from "../errors.ts";
import type { Logger } from "../log.ts";
import { putBlob } from "../media/blob-store.ts";
import { signedMediaUrl } from "../media/signed-url.ts";
import type { KeyEnv } from "../tenants/keys.ts";
import { newId, nowIso } from "../util.ts";
import { assertExtractable, detectFileKind } from "./detect.ts";
import { extractFile, extractUrl } from "./index.ts";
import type { DetectedKind, ExtractResult } from "./types.ts";
import { extractYoutube } from "./youtube.ts";

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
  markdown: string;
  billedMicros: number;
  status: "ready" | "error";
  errorMessage: string | null;
  createdAt: string;
}

type Source =
  | { type: "file"; path: string; filename: string; detected: DetectedKind | AppError }
  | { type: "youtube" | "web"; url: string };

interface Outcome {
  result: (ExtractResult & { sourceType: "file" | "youtube" | "web" }) | null;
  error: string | null;
  blobKey: string | null;
  mimeType: string | null;
}

export interface ExtractDeps {
  db: Db;
  cfg: Config;
  log: Logger;
}

/** Detects every file first: an unsupported type is a 415 for the request; other problems (an empty file) stay with that file. */
async function detectAll(files: ExtractInput["files"]): Promise<Source[]> {
  return Promise.all(
    files.map(async (f): Promise<Source> => {
      try {
        const detected = await detectFileKind(f.path, f.filename);
        assertExtractable(detected.kind, f.filename);
        return { type: "file", path: f.path, filename: f.filename, detected };
      } catch (err) {
        if (err instanceof AppError && err.status !== 415) return { type: "file", path: f.path, filename: f.filename, detected: err };
        throw err;
      }
    }),
  );
}

function messageOf(err: unknown, deps: ExtractDeps, source: string): string {
  if (err instanceof AppError) return err.message;
  deps.log.error("extraction failed unexpectedly", { source, error: err instanceof Error ? err.message : String(err) });
  return `"${source}" could not be extracted because of an internal error`;
}

async function runSource(deps: ExtractDeps, source: Source): Promise<Outcome> {
  const { cfg } = deps;
  if (source.type === "file") {
    if (source.detected instanceof AppError) return { result: null, error: source.detected.message, blobKey: null, mimeType: null };
    const { kind, mimeType } = source.detected;
    const blob = await putBlob(cfg, source.path, { ext: kind });
    try {
      const result = await extractFile(source.path, source.filename, cfg, { kind: source.detected });
      return { result: { ...result, sourceType: "file" }, error: null, blobKey: blob.key, mimeType };
    } catch (err) {
      return { result: null, error: messageOf(err, deps, source.filename), blobKey: blob.key, mimeType };
    }
  }
  try {
    const result = source.type === "youtube" ? { ...(await extractYoutube(source.url, cfg)), sourceType: "youtube" as const } : await extractUrl(source.url, cfg);
    return { result, error: null, blobKey: null, mimeType: result.mimeType };
  } catch (err) {
    return { result: null, error: messageOf(err, deps, source.url), blobKey: null, mimeType: null };
  }
}

function record(deps: ExtractDeps, who: ExtractRequester, input: ExtractInput, source: Source, outcome: Outcome): ExtractedDocument {
  const { result } = outcome;
  const id = newId();
  const createdAt = nowIso();
  const sourceType = result?.sourceType ?? (source.type === "file" ? "file" : source.type);
  const filename = source.type === "file" ? source.filename : source.url;
  const charge = extractionCharge({ sourceType, mimeType: outcome.mimeType, pages: result?.pages ?? null, ok: result !== null });
  const billedMicros = charge?.amountMicros ?? 0;
  const doc: ExtractedDocument = {
    id,
    filename,
    sourceType,
    sourceUrl: outcome.blobKey ? signedMediaUrl(deps.cfg, outcome.blobKey) : source.type === "file" ? null : source.url,
    mimeType: outcome.mimeType,
    pages: result ? result.pages : null,
    charCount: result?.markdown.length ?? 0,
    markdown: result?.markdown ?? "",
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

export async function extractSources(deps: ExtractDeps, who: ExtractRequester, input: ExtractInput): Promise<ExtractedDocument[]> {
  if (input.files.length + input.youtubeUrls.length + input.webUrls.length === 0) {
    throw badRequest("No source given: send at least one of files, youtube_urls or web_urls");
  }
  const sources: Source[] = [
    ...(await detectAll(input.files)),
    ...input.youtubeUrls.map((url) => ({ type: "youtube" as const, url })),
    ...input.webUrls.map((url) => ({ type: "web" as const, url })),
  ];
  const limit = pLimit(deps.cfg.ingestConcurrency);
  return Promise.all(sources.map((source) => limit(async () => record(deps, who, input, source, await runSource(deps, source)))));
}
