/** Maps every failure to the one error body: {"error":{"code","message","request_id","details"?}}. */
import { AppError, isStorageFull, storageFull } from "../errors.ts";

export interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: unknown };
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  requestId: string,
  headers: Record<string, string>,
  details?: unknown,
): Response {
  const body: ErrorBody = {
    error: { code, message, request_id: requestId, ...(details === undefined ? {} : { details }) },
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": "application/json", "x-request-id": requestId },
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

/** Elysia's hook error codes and our AppError, to status + code + message + details. */
export function classifyError(
  code: string | number,
  error: unknown,
): { status: number; code: string; message: string; details?: unknown; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      details: error.details,
      headers: error.headers,
    };
  }
  switch (code) {
    case "VALIDATION": {
      const v = error as ValidationLike;
      const location = v.type ? LOCATIONS[v.type] : undefined;
      const details = (v.all ?? []).slice(0, 20).map((e) => describe(e, location));
      const more = details.length > 1 ? ` (and ${details.length - 1} more in details)` : "";
      const first = details[0];
      return {
        status: 422,
        code: "VALIDATION_ERROR",
        message: `Invalid request${location ? ` ${location}` : ""}${first ? `: ${first.message}${more}` : ""}`,
        details,
      };
    }
    case "PARSE": {
      // Our JSON parser's refusals (size, UTF-8, shape, media type) arrive wrapped as Elysia's ParseError.
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof AppError)
        return {
          status: cause.status,
          code: cause.code,
          message: cause.message,
          details: cause.details,
          headers: cause.headers,
        };
      return { status: 422, code: "INVALID_BODY", message: "The request body could not be parsed; send valid JSON" };
    }
    case "NOT_FOUND":
      return { status: 404, code: "NOT_FOUND", message: "No such route" };
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return { status: 422, code: "VALIDATION_ERROR", message: String((error as Error)?.message ?? error) };
    default: {
      if (isStorageFull(error)) {
        const full = storageFull();
        return { status: full.status, code: full.code, message: full.message };
      }
      return { status: 500, code: "INTERNAL", message: "Internal error; quote the X-Request-Id when reporting it" };
    }
  }
}
