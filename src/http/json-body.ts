/**
 * The JSON body parser for every JSON endpoint: bounded size, strict UTF-8, and an object at the
 * top (every JSON endpoint of the API takes an object; Elysia's schema check lets an array
 * through when all fields are optional).
 */
import { AppError, payloadTooLarge, unsupportedMediaType } from "../errors.ts";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** `contentType` as Elysia hands it to parse hooks: the media type without parameters. */
export const isJsonType = (contentType: string) => contentType.toLowerCase() === "application/json";

/** Whether the request carries body bytes (a bodiless POST is fine on an endpoint whose body is optional). */
export const hasBody = (request: Request) => request.body !== null && request.headers.get("content-length") !== "0";

/**
 * 415 for a body that is not declared as JSON: read as text or a form, it would pass or fail the
 * schema for the wrong reason (a JSON body sent as text/plain is "missing" every field).
 */
export function notJson(contentType: string, hint?: string): AppError {
  const got = contentType ? `Content-Type ${contentType}` : "no Content-Type";
  return unsupportedMediaType(`This endpoint takes a JSON body sent with Content-Type: application/json, not ${got}${hint ? `; ${hint}` : ""}`, {
    expected: "application/json",
    received: contentType || null,
  });
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw payloadTooLarge(`JSON bodies are limited to ${limit} bytes`);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw payloadTooLarge(`JSON bodies are limited to ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function parseJsonBody(request: Request): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = await readLimited(request, MAX_JSON_BODY_BYTES);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(422, "INVALID_BODY", "The request body ended before its declared length");
  }
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new AppError(422, "INVALID_BODY", "The request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Also catches nesting deep enough to exhaust the parser's stack.
    throw new AppError(422, "INVALID_BODY", "The request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError(422, "INVALID_BODY", "The request body must be a JSON object");
  }
  return value;
}
