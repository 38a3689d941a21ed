/**
 * multipart/form-data uploads, streamed part by part to DATA_DIR/tmp with busboy: a file is never
 * held in memory whole. Routes using this declare `parse: bodyReadByRoute` and pass the raw Request.
 */
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError, type ErrorCode, isStorageFull, requestBodyTimeout, storageFull } from "../errors.ts";
import { newId } from "../util.ts";
import { stallTimer } from "./body-stall.ts";
import { markBodyRead } from "./context.ts";

export interface UploadLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Code when more than maxFiles files arrive: PAYLOAD_TOO_LARGE (413) for extract, VALIDATION_ERROR (422) elsewhere. */
  tooManyFilesCode?: Extract<ErrorCode, "PAYLOAD_TOO_LARGE" | "VALIDATION_ERROR">;
}

export interface UploadedFile {
  path: string;
  filename: string;
  size: number;
}

export interface Uploads {
  files: UploadedFile[];
  fields: Record<string, string>;
  /** Removes the temporary files; call it once they are stored or no longer needed. */
  cleanup(): Promise<void>;
}

/**
 * Route `parse` option for bodies the route reads itself (uploads streamed by receiveUploads) or
 * ignores: claims the body without reading it. `parse: "none"` is not enough once the app has a
 * global parse hook (Elysia honours it only as the sole parser).
 */
export const bodyReadByRoute = () => ({});

/** OpenAPI request body of an upload endpoint: its parts are read by receiveUploads, not by a schema. */
export function uploadRequestBody(fields: Record<string, unknown> = {}) {
  return {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          properties: {
            files: {
              type: "array" as const,
              items: { type: "string" as const, format: "binary" },
              maxItems: 10,
              description: "Up to 10 files, 50 MB each",
            },
            youtube_urls: { type: "string", description: "JSON-encoded array of video URLs" },
            web_urls: { type: "string", description: "JSON-encoded array of page URLs" },
            ...fields,
          },
        },
      },
    },
  } as const;
}

/** Upload folders of requests cut off by a crash; called at start, when no upload is in flight. */
export async function sweepUploads(dataDir: string): Promise<void> {
  await rm(join(dataDir, "tmp"), { recursive: true, force: true });
}

const FILE_FIELDS = new Set(["files", "files[]"]);
const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 1024 * 1024;
/** After a refusal the rest of the body is read and dropped (so the client sees our answer), up to this much. */
const DRAIN_SLACK_BYTES = 8 * 1024 * 1024;

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The client's file name without any path, control characters or excess length. */
function cleanFilename(name: string | undefined, index: number): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name must not keep
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 255);
  return cleaned || `file-${index + 1}`;
}

export async function receiveUploads(
  request: Request,
  cfg: { dataDir: string; requestBodyTimeoutSeconds: number },
  limits: UploadLimits,
): Promise<Uploads> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;.*boundary=/i.test(contentType) || !request.body) {
    throw new AppError("VALIDATION_ERROR", "The request body must be multipart/form-data");
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limits.maxTotalBytes + MAX_FIELDS * MAX_FIELD_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `The upload is ${mb(declared)}; at most ${mb(limits.maxTotalBytes)} in all`,
    );
  }

  const dir = join(cfg.dataDir, "tmp", `upload-${newId()}`);
  await mkdir(dir, { recursive: true });
  const cleanup = () => rm(dir, { recursive: true, force: true });

  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const writes: Promise<void>[] = [];
  const outputs: ReturnType<typeof createWriteStream>[] = [];
  let total = 0;
  let failed: AppError | null = null;

  const input = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      // busboy reports "limit" when a file reaches fileSize bytes; a file of exactly maxFileBytes is allowed.
      limits: {
        files: limits.maxFiles,
        fileSize: limits.maxFileBytes + 1,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
      },
    });
  } catch (err) {
    await cleanup();
    throw new AppError("VALIDATION_ERROR", `Malformed multipart body: ${(err as Error).message}`);
  }

  let stall: ReturnType<typeof stallTimer> | undefined;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (err: AppError) => {
      if (failed) return;
      failed = err;
      stall?.stop();
      for (const out of outputs) out.destroy();
      input.unpipe(parser);
      // Nothing more is coming: stop reading; the socket's idle timeout (server.ts) closes the
      // connection after the 408.
      if (err.status === 408) return reject(err);
      // Stop parsing but keep reading (and dropping) the body, within bounds, so the client gets
      // the error response instead of a reset connection.
      let drained = 0;
      input.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > limits.maxTotalBytes + DRAIN_SLACK_BYTES) input.destroy();
      });
      input.resume();
      reject(err);
    };

    parser.on("file", (field, stream, info) => {
      // busboy destroys a part's stream with "Unexpected end of form" when the body ends inside it;
      // unhandled, that error would end the process.
      stream.on("error", (err: Error) =>
        fail(new AppError("VALIDATION_ERROR", `Malformed multipart body: ${err.message}`)),
      );
      if (failed) return void stream.resume();
      if (!FILE_FIELDS.has(field)) {
        stream.resume();
        return fail(
          new AppError("VALIDATION_ERROR", `Unexpected file field "${field}"; send files in the "files" field`),
        );
      }
      // A browser sends an empty part when no file was chosen.
      if (!info.filename) return void stream.resume();
      const index = files.length;
      const file: UploadedFile = {
        path: join(dir, String(index)),
        filename: cleanFilename(info.filename, index),
        size: 0,
      };
      files.push(file);
      const out = createWriteStream(file.path);
      outputs.push(out);
      stream.on("data", (chunk: Buffer) => {
        file.size += chunk.length;
        total += chunk.length;
        if (total > limits.maxTotalBytes)
          fail(new AppError("PAYLOAD_TOO_LARGE", `The upload exceeds ${mb(limits.maxTotalBytes)} in all`));
      });
      stream.on("limit", () =>
        fail(
          new AppError("PAYLOAD_TOO_LARGE", `"${file.filename}" is larger than ${mb(limits.maxFileBytes)}`, {
            filename: file.filename,
          }),
        ),
      );
      // A full disk fails the request with 507 (its files removed) instead of ending the process
      // with an unhandled write error.
      out.on("error", (err: Error) =>
        fail(
          isStorageFull(err)
            ? storageFull()
            : new AppError("INTERNAL", `The upload could not be written: ${err.message}`),
        ),
      );
      // "close" follows "finish", and also comes after an error or when a refused upload destroys the stream.
      writes.push(new Promise<void>((res) => out.on("close", res)));
      stream.pipe(out);
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated)
        return fail(new AppError("VALIDATION_ERROR", `Form field "${name}" is longer than ${mb(MAX_FIELD_BYTES)}`));
      // busboy decodes leniently; a replacement character means the client sent bytes that are not UTF-8.
      if (value.includes("\uFFFD"))
        return fail(new AppError("VALIDATION_ERROR", `Form field "${name}" is not valid UTF-8`));
      fields[name] = value;
    });
    parser.on("filesLimit", () => {
      const message = `At most ${limits.maxFiles} files per request`;
      fail(new AppError(limits.tooManyFilesCode ?? "VALIDATION_ERROR", message));
    });
    parser.on("fieldsLimit", () =>
      fail(new AppError("VALIDATION_ERROR", `At most ${MAX_FIELDS} form fields per request`)),
    );
    parser.on("error", (err: Error) =>
      fail(new AppError("VALIDATION_ERROR", `Malformed multipart body: ${err.message}`)),
    );
    parser.on("close", () => {
      stall?.stop();
      if (!failed) resolve();
    });
    stall = stallTimer(cfg.requestBodyTimeoutSeconds, () => fail(requestBodyTimeout(cfg.requestBodyTimeoutSeconds)));
    input.on("data", () => stall?.touch());
    input.on("end", () => stall?.stop());
    input.on("error", (err: Error) =>
      fail(new AppError("VALIDATION_ERROR", `The upload was interrupted: ${err.message}`)),
    );
    input.pipe(parser);
  });

  try {
    await done;
    markBodyRead(request);
    await Promise.all(writes);
  } catch (err) {
    await Promise.allSettled(writes);
    await cleanup();
    throw err;
  }
  return { files, fields, cleanup };
}

/** Most URLs accepted in one URL-array field. */
export const MAX_URLS_PER_FIELD = 20;

/**
 * A form field holding a JSON array of http(s) URLs (youtube_urls, web_urls). Absent or empty is
 * an empty list; anything else that is not such an array is a 422 naming the field.
 */
export function parseUrlArray(field: string | undefined, name: string): string[] {
  if (field === undefined || field.trim() === "") return [];
  let value: unknown;
  try {
    value = JSON.parse(field);
  } catch {
    throw new AppError("VALIDATION_ERROR", `${name} must be a JSON array of URLs, e.g. ["https://example.com/page"]`, {
      field: name,
    });
  }
  if (!Array.isArray(value))
    throw new AppError("VALIDATION_ERROR", `${name} must be a JSON array of URLs`, { field: name });
  if (value.length > MAX_URLS_PER_FIELD)
    throw new AppError("VALIDATION_ERROR", `${name} holds ${value.length} URLs; at most ${MAX_URLS_PER_FIELD}`, {
      field: name,
    });
  return value.map((item, i) => {
    if (typeof item !== "string")
      throw new AppError("VALIDATION_ERROR", `${name}[${i}] must be a string URL`, { field: name, index: i });
    let url: URL;
    try {
      url = new URL(item.trim());
    } catch {
      throw new AppError("VALIDATION_ERROR", `${name}[${i}] is not a valid URL: "${item.slice(0, 200)}"`, {
        field: name,
        index: i,
      });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new AppError("VALIDATION_ERROR", `${name}[${i}] must be an http or https URL`, { field: name, index: i });
    }
    return url.href;
  });
}

export interface SourceUploads {
  files: UploadedFile[];
  youtubeUrls: string[];
  webUrls: string[];
  spaceId: string | null;
}

/**
 * The upload form of extract and process (files, youtube_urls, web_urls, space_id) under the
 * spec's limits: received, handed to `use`, and the temporary files removed afterwards.
 */
export async function withSourceUploads<T>(
  request: Request,
  cfg: { dataDir: string; maxUploadFileBytes: number; maxUploadTotalBytes: number; requestBodyTimeoutSeconds: number },
  use: (sources: SourceUploads) => Promise<T>,
): Promise<T> {
  const uploads = await receiveUploads(request, cfg, {
    maxFiles: 10,
    maxFileBytes: cfg.maxUploadFileBytes,
    maxTotalBytes: cfg.maxUploadTotalBytes,
    tooManyFilesCode: "PAYLOAD_TOO_LARGE",
  });
  try {
    return await use({
      files: uploads.files,
      youtubeUrls: parseUrlArray(uploads.fields.youtube_urls, "youtube_urls"),
      webUrls: parseUrlArray(uploads.fields.web_urls, "web_urls"),
      spaceId: uploads.fields.space_id?.trim() || null,
    });
  } finally {
    await uploads.cleanup();
  }
}
