/** Maps every failure to the one error body: {"error":{"code","message","request_id","details"?}}. */
import { AppError, type ErrorCode, isStorageFull, storageFull } from "../errors.ts";

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id: string; details?: unknown };
}

/** The error body of `err`, with its status, the request's headers and X-Request-Id. */
export function errorResponse(err: AppError, requestId: string, headers: Record<string, string>): Response {
  const { code, message, details } = err;
  const body: ErrorBody = {
    error: { code, message, request_id: requestId, ...(details === undefined ? {} : { details }) },
  };
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: { ...headers, ...err.headers, "content-type": "application/json", "x-request-id": requestId },
  });
}

interface ValidationLike {
  all?: { path?: string; value?: unknown; schema?: SchemaLike }[];
  type?: string;
}

interface SchemaLike {
  type?: string;
  anyOf?: SchemaLike[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

const LOCATIONS: Record<string, string> = { body: "body", query: "query string", params: "path", headers: "headers" };

function bounds(min: number | undefined, max: number | undefined, unit = ""): string {
  if (min !== undefined && max !== undefined) return ` ${unit ? "of" : "from"} ${min} to ${max}${unit}`;
  if (min !== undefined) return ` of at least ${min}${unit}`;
  return max !== undefined ? ` of at most ${max}${unit}` : "";
}

/**
 * What a value must be, read from its schema: "an integer from 1 to 20", "one of: exams, career".
 * Elysia's own summaries name only the variants' types ("should be one of: 'integer', 'integer'").
 */
function ruleOf(schema: SchemaLike): string {
  // t.Integer and t.Numeric also accept digits in a string; that variant is transport, not the rule.
  const variants = (schema.anyOf ?? [schema]).flatMap((v) => (v.anyOf ? v.anyOf : [v]));
  const numeric = variants.some((v) => v.type === "integer" || v.type === "number");
  const rules = variants
    .filter((v) => !(numeric && v.type === "string" && (v.format === "integer" || v.format === "numeric")))
    .filter((v) => v.const === undefined);
  const literals = variants.filter((v) => v.const !== undefined).map((v) => String(v.const));
  const parts = rules.map((v) => {
    switch (v.type) {
      case "integer":
        return `an integer${bounds(v.minimum, v.maximum)}`;
      case "number":
        return `a number${bounds(v.minimum, v.maximum)}`;
      case "string":
        return `a string${bounds(v.minLength, v.maxLength, " characters")}`;
      case "boolean":
        return "true or false";
      case "array":
        return `an array${bounds(v.minItems, v.maxItems, " items")}`;
      case "object":
        return "an object";
      case "null":
        return "null";
      default:
        return "a valid value";
    }
  });
  if (literals.length > 0) parts.unshift(`one of: ${literals.join(", ")}`);
  return [...new Set(parts)].join(" or ");
}

/** "/chapters/0/title" → "chapters[0].title". */
function fieldOf(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}

/** One schema violation as "<field> must be <rule>" (or "is required" when absent). */
function describe(e: { path?: string; value?: unknown; schema?: SchemaLike }, location: string | undefined) {
  const path = e.path || "/";
  const field = fieldOf(path) || (location ? `the ${location}` : "a parameter");
  const rule = e.schema ? ruleOf(e.schema) : "a valid value";
  const message = e.value === undefined && path !== "/" ? `${field} is required (${rule})` : `${field} must be ${rule}`;
  return { path, field, message };
}

/** Elysia's hook error codes and our AppError, as the AppError the client is answered with. */
export function classifyError(code: string | number, error: unknown): AppError {
  if (error instanceof AppError) return error;
  switch (code) {
    case "VALIDATION": {
      const v = error as ValidationLike;
      const location = v.type ? LOCATIONS[v.type] : undefined;
      const details = (v.all ?? []).slice(0, 20).map((e) => describe(e, location));
      const more = details.length > 1 ? ` (and ${details.length - 1} more in details)` : "";
      const first = details[0];
      return new AppError(
        "VALIDATION_ERROR",
        `Invalid request${location ? ` ${location}` : ""}${first ? `: ${first.message}${more}` : ""}`,
        details,
      );
    }
    case "PARSE": {
      // Our JSON parser's refusals (size, UTF-8, shape, media type) arrive wrapped as Elysia's ParseError;
      // anything else, such as a body cut short, is a body that could not be read.
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof AppError) return cause;
      return new AppError("INVALID_BODY", "The request body could not be parsed; send valid JSON");
    }
    case "NOT_FOUND":
      return new AppError("NOT_FOUND", "No such route");
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return new AppError("VALIDATION_ERROR", String((error as Error)?.message ?? error));
    default:
      if (isStorageFull(error)) return storageFull();
      return new AppError("INTERNAL", "Internal error; quote the X-Request-Id when reporting it");
  }
}
