import { Elysia, t } from "elysia";
import { type ExtractedDocument, extractedMarkdown, extractSources } from "../../documents/extract.ts";
import { AppError } from "../../errors.ts";
import { collectAfterLargeText } from "../../ingest/large-text.ts";
import type { Services } from "../../services.ts";
import { microsToUsd } from "../../util.ts";
import { authOf } from "../context.ts";
import { bodyReadByRoute, uploadRequestBody, withSourceUploads } from "../multipart.ts";
import { errors, UserHeaders } from "../schemas.ts";
import { userOf } from "../user.ts";

export const ExtractedDocumentSchema = t.Object({
  id: t.String(),
  filename: t.String({ description: "The uploaded file's name, or the source URL for video and web sources" }),
  source_type: t.String({ description: "file, youtube or web" }),
  source_url: t.Nullable(
    t.String({ description: "Signed, expiring {cdn_url} link to the stored original (files), or the original URL" }),
  ),
  mime_type: t.Nullable(t.String({ description: "Detected from the content; video/youtube for transcripts" })),
  pages: t.Nullable(
    t.Integer({ description: "Pages (PDF), slides (PPTX), 1 for other files and pages; null for video transcripts" }),
  ),
  char_count: t.Integer(),
  markdown: t.String(),
  billed_amount_usd: t.Number({ description: "0 when the entry failed" }),
  status: t.String({ description: "ready or error" }),
  error_message: t.Nullable(t.String()),
  created_at: t.String(),
});

const ExtractResponse = t.Object({
  documents: t.Array(ExtractedDocumentSchema),
  count: t.Integer(),
  ready: t.Integer(),
  errored: t.Integer(),
  total_billed_usd: t.Number({ description: "Sum over the successful entries" }),
});

const toResource = (d: ExtractedDocument, markdown: string) => ({
  id: d.id,
  filename: d.filename,
  source_type: d.sourceType,
  source_url: d.sourceUrl,
  mime_type: d.mimeType,
  pages: d.pages,
  char_count: d.charCount,
  markdown,
  billed_amount_usd: microsToUsd(d.billedMicros),
  status: d.status,
  error_message: d.errorMessage,
  created_at: d.createdAt,
});

/**
 * `{"documents":[…], …rest}` written one document at a time (#16): each markdown is read from the
 * database as its turn comes, so ten 50 MB texts are never all in memory (1.9 GB when they were).
 */
function streamedJson(
  rest: Record<string, unknown>,
  documents: (() => Promise<unknown>)[],
  chars: (i: number) => number,
): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < documents.length) {
        const document = await documents[next]!();
        controller.enqueue(encoder.encode(`${next === 0 ? '{"documents":[' : ","}${JSON.stringify(document)}`));
        // The document's markdown and its JSON are garbage now: collected before the next is read.
        collectAfterLargeText(chars(next));
        next++;
        return;
      }
      const tail = JSON.stringify(rest).slice(1);
      controller.enqueue(encoder.encode(documents.length === 0 ? `{"documents":[],${tail}` : `],${tail}`));
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/json" } });
}

export const documentExtractRoutes = (svc: Services) =>
  new Elysia({ name: "documents-extract" }).post(
    "/v2/documents/extract",
    async ({ request }) => {
      if (!request.headers.get("content-type"))
        throw new AppError("BAD_REQUEST", "No source given: send at least one of files, youtube_urls or web_urls");
      return withSourceUploads(request, svc.cfg, async (sources) => {
        const auth = authOf(request);
        const hasUser = request.headers.has("x-user-id") || request.headers.has("x-external-user-id");
        const requester = {
          tenantId: auth.tenantId,
          userId: hasUser ? (await userOf(svc, request, { create: true })).id : null,
          apiKeyId: auth.keyId,
          keyEnv: auth.keyEnv,
        };
        const docs = await extractSources(svc, requester, sources);
        const ready = docs.filter((d) => d.status === "ready").length;
        return streamedJson(
          {
            count: docs.length,
            ready,
            errored: docs.length - ready,
            total_billed_usd: microsToUsd(docs.reduce((sum, d) => sum + d.billedMicros, 0)),
          },
          docs.map((d) => async () => toResource(d, await extractedMarkdown(svc.sql, d.id))),
          (i) => docs[i]!.charCount,
        );
      });
    },
    {
      parse: bodyReadByRoute,
      headers: UserHeaders,
      response: {
        200: ExtractResponse,
        ...errors("BAD_REQUEST", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "REQUEST_TIMEOUT"),
      },
      detail: {
        requestBody: uploadRequestBody({ space_id: { type: "string", description: "Optional grouping label" } }),
        summary: "Extract documents to markdown without indexing them",
        description:
          "multipart/form-data: files (up to 10, 50 MB each: PDF, DOCX, PPTX, ODT, ODP, TXT, MD, HTML, PNG, JPG, WEBP), " +
          "youtube_urls and web_urls (JSON arrays of URLs, at most 20 each), space_id (optional label). " +
          "File types are detected from the content; an unsupported or mismatched file is 415 for the whole request. " +
          "Every other failure (unreadable, encrypted or empty file, unreachable URL, video without captions) is that entry's " +
          "status error with an error_message, not billed. Billed: 0.002 USD per PDF or image page, 0.001 per other file or web URL, " +
          "0.0005 per video. The user headers are optional; with one, the documents belong to that learner.",
        tags: ["documents"],
      },
    },
  );
