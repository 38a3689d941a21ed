/**
 * POST /v2/documents/process, the domain part: every source of the request (files, videos, web
 * pages) extracted, chunked and indexed in parallel, each ending `ready` with its chunk count or
 * `error` with the reason. Only an unsupported file type (415) fails the whole request, and it is
 * found before anything is stored.
 */
import type { IngestDeps } from "./ingest.ts";
import { ingestUploads, type UploadInput } from "./ingest-request.ts";
import { type DocumentOwner, loadOwnedDocument, toDocumentResource } from "./records.ts";

export async function processDocuments(svc: IngestDeps, owner: DocumentOwner, input: UploadInput) {
  const ids = await ingestUploads(svc, owner, input, { kind: "index", index: true });
  const documents = (await Promise.all(ids.map((id) => loadOwnedDocument(svc.sql, owner, id)))).map(toDocumentResource);
  const ready = documents.filter((d) => d.status === "ready").length;
  return { documents, count: documents.length, ready, errored: documents.length - ready };
}
