/** Indexed documents: process (ingest and index), query (cited answers), list and delete. */
import { Elysia, t } from "elysia";
import { processDocuments } from "../../documents/process.ts";
import { MAX_QUERY_DOCUMENTS, queryDocuments } from "../../documents/query.ts";
import { deleteDocument, listDocuments, loadOwnedDocument, toDocumentResource } from "../../documents/records.ts";
import { BLOCK_ROLES } from "../../ingest/document.ts";
import type { Services } from "../../services.ts";
import { authOf } from "../context.ts";
import { bodyReadByRoute, uploadRequestBody, withSourceUploads } from "../multipart.ts";
import { errors, JsonInteger, PAGE_QUERY, Page, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const Place = t.Object({
  heading_path: t.Array(t.String(), { description: "Enclosing headings, outermost first" }),
  page: t.Nullable(t.Integer({ description: "Page or slide where it begins; null where the source has none" })),
});

const DocumentDetails = t.Object(
  {
    words: t.Integer({ description: "Words of teaching text (front and back matter left out), repeats included" }),
    repeated_words: t.Integer({ description: "Words of text the document repeats of itself" }),
    repeated_section_count: t.Integer(),
    repeated_sections: t.Array(
      t.Composite([
        Place,
        t.Object({
          last_page: t.Nullable(t.Integer()),
          words: t.Integer(),
          first_seen: t.Composite([Place], { description: "Where the repeated text first occurs" }),
        }),
      ]),
      {
        description:
          "Runs of text repeating an earlier part of the document (at most 50), taught only where first seen",
      },
    ),
  },
  { description: "Present when ready on documents indexed since repeats are checked" },
);

export const DocumentRecord = t.Object({
  id: t.String(),
  filename: t.String({ description: "The uploaded file's name, or the source URL for video and web sources" }),
  source_type: t.String({ description: "file, youtube or web" }),
  status: t.String({ description: "ready or error (processing only while a request is still working on it)" }),
  chunk_count: t.Optional(t.Integer({ description: "Present when ready" })),
  error: t.Optional(t.String({ description: "Present when status is error" })),
  space_id: t.Nullable(t.String()),
  mime_type: t.Nullable(t.String()),
  pages: t.Nullable(t.Integer({ description: "Pages (PDF), slides, 1 for other files; null for video transcripts" })),
  char_count: t.Integer(),
  created_at: t.String(),
  details: t.Optional(DocumentDetails),
});

const ProcessResponse = t.Object({
  documents: t.Array(DocumentRecord),
  count: t.Integer(),
  ready: t.Integer(),
  errored: t.Integer(),
});

export const SourceChunk = t.Object({
  document_id: t.String(),
  filename: t.String(),
  text: t.String({ description: "Raw chunk text" }),
  score: t.Number({ description: "Cosine similarity of question and chunk under the active embedder" }),
  chunk_id: t.String(),
  page: t.Nullable(t.Integer()),
  slide: t.Nullable(t.Integer()),
  timestamp_seconds: t.Nullable(t.Number({ description: "Start of the passage in a video" })),
  heading_path: t.Array(t.String(), { description: "Enclosing headings, outermost first" }),
  role: t.UnionEnum(BLOCK_ROLES, { description: "body, or the kind of front/back matter the passage is from" }),
});

const QueryBody = t.Object({
  question: t.String({ minLength: 1, maxLength: 2000 }),
  document_ids: t.Optional(
    t.Array(t.String({ maxLength: 100 }), { maxItems: MAX_QUERY_DOCUMENTS, description: "Exclusive with space_id" }),
  ),
  space_id: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Exclusive with document_ids" })),
  top_k: t.Optional(JsonInteger({ minimum: 1, maximum: 20, default: 5 })),
});

export const documentRoutes = (svc: Services) =>
  new Elysia({ name: "documents" })
    .post(
      "/v2/documents/process",
      async ({ request }) =>
        withSourceUploads(request, svc.cfg, async (sources) =>
          processDocuments(svc, await ownerOf(svc, request, { create: true }), sources),
        ),
      {
        parse: bodyReadByRoute,
        headers: UserHeaders,
        response: {
          200: ProcessResponse,
          ...errors("BAD_REQUEST", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "REQUEST_TIMEOUT"),
        },
        detail: {
          requestBody: uploadRequestBody({
            space_id: { type: "string", description: "Optional grouping label; query a whole space with space_id" },
          }),
          summary: "Ingest and index documents for question answering",
          description:
            "multipart/form-data: files (up to 10, 50 MB each, 500 MB in all: PDF, DOCX, PPTX, ODT, ODP, TXT, MD, HTML, PNG, JPG, WEBP), " +
            "youtube_urls and web_urls (JSON arrays of URLs), space_id (optional grouping label). Sources are processed in parallel; " +
            "the response comes when each is ready (with chunk_count) or error (with the reason). An unsupported or mismatched " +
            "file type is 415 for the whole request; no source at all is 400; more than 10 files is 413.",
          tags: ["documents"],
        },
      },
    )
    .post(
      "/v2/documents/query",
      async ({ request, body }) =>
        queryDocuments(svc, authOf(request), await ownerOf(svc, request), {
          question: body.question,
          documentIds: body.document_ids,
          spaceId: body.space_id,
          topK: body.top_k ?? 5,
        }),
      {
        headers: UserHeaders,
        body: QueryBody,
        response: {
          200: t.Object({ answer: t.String(), sources: t.Array(SourceChunk) }),
          ...errors(
            "DOCUMENT_NOT_FOUND",
            "TEST_USAGE_LIMIT",
            "EMBEDDER_UNAVAILABLE",
            "LLM_TIMEOUT",
            "LLM_RATE_LIMIT",
            "LLM_UNAVAILABLE",
            "LLM_REFUSED",
          ),
        },
        detail: {
          summary: "Answer a question from indexed documents, with the passages it rests on",
          description:
            "Exactly one of document_ids (1-20 of the caller's documents; 404 if any is not theirs) and space_id. " +
            "The top_k passages come from hybrid search (vector + BM25); the answer cites them as [n], n being the position in sources. " +
            "With no model configured the answer is extractive (the passages' best-matching sentences); a question the passages do " +
            "not answer is said to be unanswered. A test key may make 50 queries a month (403 TEST_USAGE_LIMIT after).",
          tags: ["documents"],
        },
      },
    )
    .get(
      "/v2/documents",
      async ({ request, query }) =>
        listDocuments(svc.sql, await ownerOf(svc, request), {
          limit: query.limit ?? 20,
          cursor: query.cursor,
          spaceId: query.space_id,
        }),
      {
        headers: UserHeaders,
        query: t.Object({ ...PAGE_QUERY, space_id: t.Optional(t.String({ maxLength: 200 })) }),
        response: {
          200: Page(DocumentRecord),
        },
        detail: { summary: "The caller's indexed documents, newest first", tags: ["documents"] },
      },
    )
    .get(
      "/v2/documents/:document_id",
      async ({ request, params }) =>
        toDocumentResource(await loadOwnedDocument(svc.sql, await ownerOf(svc, request), params.document_id)),
      {
        headers: UserHeaders,
        params: t.Object({ document_id: t.String({ description: "Document id" }) }),
        response: { 200: DocumentRecord, ...errors("DOCUMENT_NOT_FOUND") },
        detail: {
          summary: "One indexed document, with its details",
          description:
            "The record as process and the list give it; details say what text the document repeats of itself.",
          tags: ["documents"],
        },
      },
    )
    .delete(
      "/v2/documents/:document_id",
      async ({ request, params, set }) => {
        await deleteDocument(svc, await ownerOf(svc, request), params.document_id);
        set.status = 204;
      },
      {
        headers: UserHeaders,
        params: t.Object({ document_id: t.String({ description: "Document id" }) }),
        response: { 204: t.Void(), ...errors("DOCUMENT_NOT_FOUND") },
        detail: {
          summary: "Delete an indexed document",
          description: "Removes the document, its chunks, vectors and full-text entries, and its stored original.",
          tags: ["documents"],
        },
      },
    );
