/**
 * The JSON body parser for every JSON endpoint: bounded size, a deadline between chunks, strict
 * UTF-8, bounded nesting, and an object at the top (every JSON endpoint of the API takes an
 * object; Elysia's schema check lets an array through when all fields are optional).
 */
import { AppError } from "../errors.ts";
import { chunksWithin } from "./body-stall.ts";
import { markBodyRead } from "./context.ts";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/**
 * Deepest nesting of arrays and objects accepted. No endpoint needs more than a few levels, and
 * schema validation (and its error messages) recurse once per level: 20,000 levels overflow it.
 */
export const MAX_JSON_DEPTH = 64;

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
  return new AppError(
    "UNSUPPORTED_MEDIA_TYPE",
    `This endpoint takes a JSON body sent with Content-Type: application/json, not ${got}${hint ? `; ${hint}` : ""}`,
    {
      expected: "application/json",
      received: contentType || null,
    },
  );
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export const jsonTooLarge = () =>
  new AppError("PAYLOAD_TOO_LARGE", `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes (1 MiB)`);

/** Whether the declared Content-Length is over the JSON limit (checked before the body is read, whatever its type). */
export const declaresMoreThanJsonLimit = (request: Request) =>
  Number(request.headers.get("content-length") ?? "0") > MAX_JSON_BODY_BYTES;

async function readLimited(request: Request, limit: number, stallSeconds: number): Promise<Uint8Array> {
  if (declaresMoreThanJsonLimit(request)) throw jsonTooLarge();
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunksWithin(request.body, stallSeconds)) {
    size += chunk.byteLength;
    if (size > limit) throw jsonTooLarge();
    chunks.push(chunk);
  }
  markBodyRead(request);
  return Buffer.concat(chunks);
}

/**
 * Reads and drops the body of an endpoint that takes none (resume, a webhook test), under the
 * same size limit and stall timeout, so the connection can carry the next request.
 */
export async function discardBody(request: Request, stallSeconds: number): Promise<Record<string, never>> {
  await readLimited(request, MAX_JSON_BODY_BYTES, stallSeconds);
  return {};
}

/** Nesting depth of a parsed JSON value, walked without recursion; stops counting past `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export async function parseJsonBody(request: Request, stallSeconds: number): Promise<unknown> {
  const bytes = await readLimited(request, MAX_JSON_BODY_BYTES, stallSeconds);
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new AppError("INVALID_BODY", "The request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Also catches nesting deep enough to exhaust the parser's stack.
    throw new AppError("INVALID_BODY", "The request body is not valid JSON");
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw new AppError(
      "INVALID_BODY",
      `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("INVALID_BODY", "The request body must be a JSON object");
  }
  return value;
}
