/**
 * Model failures as AppErrors with the spec's codes. Their status is the catalogue's; course
 * generation and the materials answer with their own (MODEL_FAILURE_STATUS in src/errors.ts).
 */
import { AppError, type ErrorCode } from "../errors.ts";

/** What a model call can fail with: each names what the operator or user can do about it, never INTERNAL. */
export type LlmErrorCode = Extract<
  ErrorCode,
  | "LLM_TIMEOUT"
  | "LLM_RATE_LIMIT"
  | "LLM_REFUSED"
  | "LLM_UNAVAILABLE"
  | "MODEL_NOT_FOUND"
  | "MODEL_REQUEST_REJECTED"
  | "MODEL_OUTPUT_INVALID"
  | "MODEL_OUTPUT_UNGROUNDED"
>;

/** In catalogue order, as the OpenAPI document lists them. */
export const LLM_ERROR_CODES: readonly LlmErrorCode[] = [
  "LLM_TIMEOUT",
  "LLM_RATE_LIMIT",
  "LLM_REFUSED",
  "LLM_UNAVAILABLE",
  "MODEL_NOT_FOUND",
  "MODEL_REQUEST_REJECTED",
  "MODEL_OUTPUT_INVALID",
  "MODEL_OUTPUT_UNGROUNDED",
];

export const isLlmErrorCode = (code: string): code is LlmErrorCode =>
  (LLM_ERROR_CODES as readonly string[]).includes(code);

export function llmError(code: LlmErrorCode, message: string, details?: unknown): AppError {
  return new AppError(code, message, details);
}

export const isLlmError = (err: unknown, ...codes: LlmErrorCode[]): err is AppError =>
  err instanceof AppError && (codes.length === 0 || (codes as string[]).includes(err.code));

/** Failures worth another try on another host or after a pause. */
export const isTransient = (err: unknown) => isLlmError(err, "LLM_RATE_LIMIT", "LLM_UNAVAILABLE");

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
]);

/**
 * Turns whatever a provider call threw (fetch errors, ollama's ResponseError, aborts) into an
 * AppError. `endpoint` is named in messages so an operator can tell which host failed.
 */
export function classifyFailure(err: unknown, endpoint: string, timeoutMs: number): AppError {
  if (err instanceof AppError) return err;
  const e = err as { name?: string; code?: string; status_code?: number; status?: number; message?: string };
  const message = e?.message ?? String(err);
  if (e?.name === "TimeoutError" || (e?.name === "AbortError" && /timeout/i.test(message))) {
    return llmError("LLM_TIMEOUT", `The model did not answer within ${timeoutMs} ms (${endpoint})`);
  }
  const status = e?.status_code ?? e?.status;
  if (typeof status === "number") return fromHttpStatus(status, message, endpoint);
  if (
    (e?.code && NETWORK_CODES.has(e.code)) ||
    /fetch failed|unable to connect|connection refused|socket/i.test(message)
  ) {
    return llmError("LLM_UNAVAILABLE", `The model server at ${endpoint} is unreachable: ${message}`);
  }
  return llmError("LLM_UNAVAILABLE", `The model call to ${endpoint} failed: ${message}`);
}

export function fromHttpStatus(status: number, message: string, endpoint: string): AppError {
  const detail = message.slice(0, 300);
  if (status === 429)
    return llmError("LLM_RATE_LIMIT", `The model server at ${endpoint} is rate limiting requests: ${detail}`);
  if (status === 408 || status === 504)
    return llmError("LLM_TIMEOUT", `The model server at ${endpoint} timed out: ${detail}`);
  if (status === 404 && /model/i.test(message)) {
    return llmError("MODEL_NOT_FOUND", `Model not found on ${endpoint}: ${detail}`);
  }
  if (status >= 500)
    return llmError("LLM_UNAVAILABLE", `The model server at ${endpoint} failed (${status}): ${detail}`);
  return llmError(
    "MODEL_REQUEST_REJECTED",
    `The model server at ${endpoint} rejected the request (${status}): ${detail}`,
  );
}

// A model that declines answers in prose instead of the requested JSON; re-asking rarely helps.
const REFUSAL =
  /^\W*(i['’]?m sorry|i am sorry|sorry,|i cannot|i can['’]?t|i can not|i am unable|i['’]?m unable|i won['’]?t|as an ai\b|i must decline|unfortunately,? i (can|am))/i;

export const looksLikeRefusal = (text: string) => text.length < 1200 && REFUSAL.test(text.trim());
