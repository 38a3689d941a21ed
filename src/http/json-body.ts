/**
 * The JSON body parser for every JSON endpoint: bounded size, strict UTF-8, and an object at the
 * top (every JSON endpoint of the API takes an object; Elysia's schema check lets an array
 * through when all fields are optional).
 */
import { AppError, payloadTooLarge } from "../errors.ts";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

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
