/**
 * The service's error type and the closed catalogue of its codes. Domain code throws
 * `new AppError(code, message)`; the HTTP layer turns it into
 * `{"error":{"code","message","request_id","details"?}}` with the code's status. The catalogue below
 * is the single source: statuses are read from it, the OpenAPI document lists its codes per route,
 * and the README's error table is generated from it (`npx bun scripts/error-table.ts --write`).
 */

interface ErrorEntry {
  status: number;
  doc: string;
}

const entry = (status: number, doc: string): ErrorEntry => ({ status, doc });

export const errorCatalogue = {
  BAD_REQUEST: entry(400, "The request cannot be served as sent (extract with no sources)"),
  UNAUTHORIZED: entry(401, "Missing or invalid X-API-Key (or /metrics bearer token)"),
  FORBIDDEN: entry(403, "The resource belongs to another user"),
  CROSS_ORIGIN_REQUEST: entry(403, "A console session cookie sent from another origin, or a write without Origin"),
  MEDIA_URL_EXPIRED: entry(403, "A signed media link past its expiry"),
  MEDIA_URL_INVALID: entry(403, "A media link whose signature does not match"),
  TEST_USAGE_LIMIT: entry(403, "A test key has used its courses or queries for the month"),
  NOT_FOUND: entry(404, "No such route or resource, or not the caller's"),
  USER_NOT_FOUND: entry(404, "Unknown X-User-Id, or unknown external user on a read"),
  DOCUMENT_NOT_FOUND: entry(404, "No such document of the learner"),
  WEBHOOK_NOT_FOUND: entry(404, "No such webhook of the tenant"),
  FEED_NOT_FOUND: entry(404, "The course has no podcast feed"),
  ATTEMPT_NOT_FOUND: entry(404, "No such quiz or exam attempt"),
  CHAPTER_NOT_FOUND: entry(404, "The course has no written chapter with that index"),
  QUIZ_NOT_FOUND: entry(404, "The chapter has no quiz"),
  NOTES_NOT_FOUND: entry(404, "No notes generated for the course yet"),
  FLASHCARDS_NOT_FOUND: entry(404, "No flashcard deck generated for the course yet"),
  EXAM_NOT_FOUND: entry(404, "No exam of that size generated for the course yet"),
  REQUEST_TIMEOUT: entry(408, "The request body stopped arriving (REQUEST_BODY_TIMEOUT_SECONDS)"),
  CONFLICT: entry(409, "Ambiguous key prefix: several active keys start with it"),
  COURSE_BUSY: entry(409, "Course deletion while a job of the course is queued or running"),
  COURSE_GENERATING: entry(409, "The course is still generating"),
  COURSE_NOT_COMPLETED: entry(409, "The course failed or never completed; resume it first"),
  COURSE_EMPTY: entry(409, "The course has no completed chapters"),
  FLASHCARDS_NOT_GENERATED: entry(409, "An Anki export of a course without a flashcard deck"),
  PAYLOAD_TOO_LARGE: entry(413, "A file, the whole upload or a JSON body is over its limit"),
  COURSE_SOURCES_TOO_LARGE: entry(413, "A course's sources hold more teaching text than COURSE_MAX_SOURCE_WORDS"),
  UNSUPPORTED_MEDIA_TYPE: entry(415, "A file format or Content-Type the endpoint does not take"),
  RANGE_NOT_SATISFIABLE: entry(416, "A Range outside the audio file"),
  VALIDATION_ERROR: entry(422, "A parameter, header or body field breaks its rule"),
  INVALID_BODY: entry(422, "The JSON body is cut short, not UTF-8, not JSON or not an object"),
  USER_REQUIRED: entry(422, "The endpoint needs X-External-User-Id or X-User-Id"),
  WEBHOOK_LIMIT: entry(422, "The tenant has as many webhooks as it may register"),
  INVALID_URL: entry(422, "Not a valid URL (or not a YouTube video URL)"),
  URL_NOT_ALLOWED: entry(422, "A URL to a private, local or non-HTTP(S) address (OUTBOUND_ALLOW)"),
  EMPTY_FILE: entry(422, "An uploaded file of 0 bytes"),
  NO_TEXT_FOUND: entry(422, "A source that yields no text"),
  UNREADABLE_FILE: entry(422, "A file that cannot be read as its format"),
  ARCHIVE_TOO_LARGE: entry(422, "An office file refused as a likely zip bomb"),
  DOCUMENT_TOO_LARGE: entry(422, "An office file with more XML than INGEST_MAX_XML_MB"),
  DOCUMENT_TOO_COMPLEX: entry(422, "A PDF page with too many text items to extract"),
  TOO_MANY_PAGES: entry(422, "A PDF longer than INGEST_MAX_PDF_PAGES"),
  TOO_MANY_SCANNED_PAGES: entry(422, "A PDF with more pages to OCR than INGEST_MAX_OCR_PAGES"),
  IMAGE_TOO_LARGE: entry(422, "An image larger than INGEST_MAX_IMAGE_PIXELS"),
  EXTRACTION_TIMEOUT: entry(422, "A source's extraction ran past INGEST_TIMEOUT_MS"),
  EXTRACTION_FAILED: entry(422, "A source's extraction failed"),
  EXTRACTION_MEMORY_LIMIT: entry(422, "A source's extraction went past INGEST_WORKER_MEMORY_MB"),
  SOURCES_FAILED: entry(422, "None of a course's sources could be ingested"),
  TOPIC_NOT_COVERED: entry(422, "With no model, the learner's documents do not cover the topic"),
  EXAM_SIZE_UNAVAILABLE: entry(422, "The course has fewer questions than the exam size asked for"),
  TTS_UNAVAILABLE: entry(422, "No speech engine is installed for podcasts"),
  RATE_LIMITED: entry(429, "Tenant or learner rate limit; Retry-After says when to retry"),
  INTERNAL: entry(500, "Unexpected failure; quote the X-Request-Id when reporting it"),
  LLM_REFUSED: entry(500, "The model declined to produce the content"),
  JOB_PAYLOAD_INVALID: entry(
    500,
    "A stored job's payload no longer fits its job type (the job fails, the worker goes on)",
  ),
  JOB_STALLED: entry(500, "A job's process stopped while running it more than JOB_MAX_STALLS times (the job fails)"),
  FETCH_FAILED: entry(502, "A URL could not be fetched or answered an error"),
  TOO_MANY_REDIRECTS: entry(502, "A URL redirected too many times"),
  HOST_UNRESOLVABLE: entry(502, "A URL's host has no address"),
  RESPONSE_TOO_LARGE: entry(502, "A fetched URL's body was over its limit"),
  VIDEO_UNAVAILABLE: entry(502, "A YouTube video's transcript could not be fetched"),
  PODCAST_SCRIPT_INVALID: entry(502, "The model's podcast script is no conversation after its re-asks"),
  MODEL_OUTPUT_INVALID: entry(
    502,
    "The model's reply did not fit the structure asked for after its re-asks (a smaller or instruction-tuned model may do better)",
  ),
  MODEL_OUTPUT_UNGROUNDED: entry(
    502,
    "No paragraph the model wrote was supported by the passages it cited (retry, or use a stronger model)",
  ),
  MODEL_REQUEST_REJECTED: entry(
    502,
    "The model server refused the request as malformed or too large (see the message)",
  ),
  LLM_TIMEOUT: entry(503, "The model did not answer in time"),
  LLM_RATE_LIMIT: entry(503, "The model server is rate limiting requests"),
  LLM_UNAVAILABLE: entry(503, "The model server is unreachable or failing"),
  MODEL_NOT_FOUND: entry(503, "The model server has no model of the configured name (pull it, or set LLM_MODEL)"),
  LLM_FAILED: entry(503, "A material's model call failed otherwise (reason in details)"),
  MODEL_NOT_CONFIGURED: entry(503, "No model is configured and the learner has no documents to build from"),
  EMBEDDER_UNAVAILABLE: entry(503, "The embedding model server is unreachable or failing"),
  VECTOR_DB_UNAVAILABLE: entry(503, "The vector index cannot be reached (spec code; the SQLite index never gives it)"),
  SHUTTING_DOWN: entry(503, "The server is shutting down"),
  FETCH_TIMEOUT: entry(504, "A URL did not answer in time"),
  INSUFFICIENT_STORAGE: entry(507, "The server's disk is full"),
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/**
 * The spec answers a model's failure by endpoint rather than by code: 503 on the materials (exam,
 * notes, flashcards, study guide, exports), 500 on course generation. These two are the only
 * statuses not read from the catalogue.
 */
export const MODEL_FAILURE_STATUS = { materials: 503, generation: 500 } as const;
export type ModelFailureEndpoint = keyof typeof MODEL_FAILURE_STATUS;

/**
 * The one error type of the service: a catalogue code, its message, optional details and response
 * headers. The status is the code's, or the endpoint's for a model failure (`answeredOn`).
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
    answeredOn?: ModelFailureEndpoint,
  ) {
    super(message);
    this.name = "AppError";
    this.status = answeredOn ? MODEL_FAILURE_STATUS[answeredOn] : errorCatalogue[code].status;
  }
}

export const unauthorized = (message = "Missing or invalid X-API-Key") => new AppError("UNAUTHORIZED", message);
/** A console session cookie on a request that is not the console's own (another site, or a write without Origin). */
export const crossOrigin = () =>
  new AppError(
    "CROSS_ORIGIN_REQUEST",
    "The console session is accepted only from the console's own origin; other clients send X-API-Key",
  );

/** Structured failure reason stored on jobs, courses and episodes, and sent in course.failed. */
export interface FailureReason {
  code: ErrorCode;
  message: string;
  request_id: string | null;
}

export function toFailureReason(err: unknown, requestId: string | null): FailureReason {
  if (err instanceof AppError) return { code: err.code, message: err.message, request_id: requestId };
  const message = err instanceof Error ? err.message : String(err);
  return { code: "INTERNAL", message, request_id: requestId };
}

/**
 * A failed course generation as the request that waited for it answers: the sources' or topic's
 * fault keeps its 4xx, a missing model its 503; a failure of the work itself is the spec's 500.
 */
export const generationFailure = (reason: FailureReason, details: unknown) =>
  errorCatalogue[reason.code].status < 500 || reason.code === "MODEL_NOT_CONFIGURED"
    ? new AppError(reason.code, reason.message, details)
    : new AppError(reason.code, reason.message, details, undefined, "generation");

/** A request body that stopped arriving (REQUEST_BODY_TIMEOUT_SECONDS). */
export const requestBodyTimeout = (seconds: number) =>
  new AppError("REQUEST_TIMEOUT", `The request body stopped arriving: nothing was received for ${seconds} s`);

/** A tenant already has as many webhooks as it may register. */
export const webhookLimit = (limit: number) =>
  new AppError("WEBHOOK_LIMIT", `A tenant may register at most ${limit} webhooks; delete one first`, { limit });

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
    "INSUFFICIENT_STORAGE",
    "The server's disk is full; nothing more can be stored until space is freed. Try again later.",
    details,
  );
