/** Maps every failure to the one error body: {"error":{"code","message","request_id","details"?}}. */
import { AppError } from "../errors.ts";

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
  const body: ErrorBody = { error: { code, message, request_id: requestId, ...(details === undefined ? {} : { details }) } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": "application/json", "x-request-id": requestId },
  });
}

interface ValidationLike {
  all?: { path?: string; message?: string; summary?: string }[];
  type?: string;
}

/** Elysia's hook error codes and our AppError, to status + code + message + details. */
export function classifyError(code: string | number, error: unknown): { status: number; code: string; message: string; details?: unknown; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.status, code: error.code, message: error.message, details: error.details, headers: error.headers };
  }
  switch (code) {
    case "VALIDATION": {
      const v = error as ValidationLike;
      const details = (v.all ?? []).slice(0, 20).map((e) => ({ path: e.path || "/", message: e.summary ?? e.message }));
      const where = v.type ? ` in ${v.type}` : "";
      const first = details[0];
      return {
        status: 422,
        code: "VALIDATION_ERROR",
        message: first ? `Invalid request${where}: ${first.path} ${first.message}` : `Invalid request${where}`,
        details,
      };
    }
    case "PARSE": {
      // Our JSON parser's refusals (size, UTF-8, shape) arrive wrapped as Elysia's ParseError.
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof AppError) return { status: cause.status, code: cause.code, message: cause.message };
      return { status: 422, code: "INVALID_BODY", message: "The request body could not be parsed; send valid JSON" };
    }
    case "NOT_FOUND":
      return { status: 404, code: "NOT_FOUND", message: "No such route" };
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return { status: 422, code: "VALIDATION_ERROR", message: String((error as Error)?.message ?? error) };
    default:
      return { status: 500, code: "INTERNAL", message: "Internal error; quote the X-Request-Id when reporting it" };
  }
}
