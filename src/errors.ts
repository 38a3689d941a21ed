/**
 * The one error type of the service. Domain code throws it; the HTTP layer turns it into
 * `{"error":{"code","message","request_id","details"?}}` with `status`. Keeping the status on the
 * error (rather than a code→status table in http/) lets a domain say "this is a 409" without
 * importing anything from http/.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, "BAD_REQUEST", message, details);
export const unauthorized = (message = "Missing or invalid X-API-Key") => new AppError(401, "UNAUTHORIZED", message);
export const forbidden = (message: string, code = "FORBIDDEN") => new AppError(403, code, message);
/** A console session cookie on a request that is not the console's own (another site, or a write without Origin). */
export const crossOrigin = () =>
  new AppError(
    403,
    "CROSS_ORIGIN_REQUEST",
    "The console session is accepted only from the console's own origin; other clients send X-API-Key",
  );
export const notFound = (message: string, code = "NOT_FOUND") => new AppError(404, code, message);
export const conflict = (message: string, code = "CONFLICT", details?: unknown) =>
  new AppError(409, code, message, details);
export const payloadTooLarge = (message: string, details?: unknown) =>
  new AppError(413, "PAYLOAD_TOO_LARGE", message, details);
export const unsupportedMediaType = (message: string, details?: unknown) =>
  new AppError(415, "UNSUPPORTED_MEDIA_TYPE", message, details);
export const validation = (message: string, details?: unknown) =>
  new AppError(422, "VALIDATION_ERROR", message, details);

/** Structured failure reason stored on jobs, courses and episodes, and sent in course.failed. */
export interface FailureReason {
  code: string;
  message: string;
  request_id: string | null;
}

export function toFailureReason(err: unknown, requestId: string | null): FailureReason {
  if (err instanceof AppError) return { code: err.code, message: err.message, request_id: requestId };
  const message = err instanceof Error ? err.message : String(err);
  return { code: "INTERNAL", message, request_id: requestId };
}

/** A model's podcast script that is still no conversation after its re-asks (one speaker, too few turns). */
export const podcastScriptInvalid = (message: string, details?: unknown) =>
  new AppError(502, "PODCAST_SCRIPT_INVALID", message, details);

/** A request body that stopped arriving (REQUEST_BODY_TIMEOUT_SECONDS). */
export const requestBodyTimeout = (seconds: number) =>
  new AppError(408, "REQUEST_TIMEOUT", `The request body stopped arriving: nothing was received for ${seconds} s`);

/** A tenant already has as many webhooks as it may register. */
export const webhookLimit = (limit: number) =>
  new AppError(422, "WEBHOOK_LIMIT", `A tenant may register at most ${limit} webhooks; delete one first`, { limit });

/**
 * Whether an error is the disk (or the database on it) running out of space: ENOSPC from the file
 * system, SQLITE_FULL from SQLite. Neither is the request's fault, and both pass once space returns.
 */
export function isStorageFull(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === "ENOSPC" ||
    e?.code === "SQLITE_FULL" ||
    /database or disk is full|no space left on device/i.test(String(e?.message ?? ""))
  );
}
export const storageFull = (details?: unknown) =>
  new AppError(
    507,
    "INSUFFICIENT_STORAGE",
    "The server's disk is full; nothing more can be stored until space is freed. Try again later.",
    details,
  );
