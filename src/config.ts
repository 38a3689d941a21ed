/**
 * Every setting of the server, read from the environment once. The table below is the single
 * source: `loadConfig` parses it, `courseforge --help` prints it, and the README's configuration
 * table is generated from it (`bun src/main.ts config --markdown`).
 */
import { join, resolve } from "node:path";
import ipaddr from "ipaddr.js";

type Parser<T> = (raw: string, name: string) => T;

interface Setting<T> {
  env: string;
  default: string;
  doc: string;
  parse: Parser<T>;
}

function setting<T>(env: string, def: string, doc: string, parse: Parser<T>): Setting<T> {
  return { env, default: def, doc, parse };
}

const str: Parser<string> = (v) => v;
const optStr: Parser<string | null> = (v) => (v === "" ? null : v);
/** An http(s) URL, or unset; a malformed one stops the start with the setting's name. */
const optUrl: Parser<string | null> = (v, name) => {
  if (v === "") return null;
  const url = URL.parse(v);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new Error(`${name} must be an http or https URL, got "${v}"`);
  }
  return v;
};
/** A postgres:// or postgresql:// URL, or unset (SQLite in DATA_DIR). */
const optPostgresUrl: Parser<string | null> = (v, name) => {
  if (v === "") return null;
  if (!/^postgres(ql)?:\/\/./.test(v))
    throw new Error(`${name} must be a postgres:// URL, got "${v.split("@").pop()}"`);
  return v;
};
/** Addresses and CIDR ranges ("10.0.0.1, 192.168.0.0/16, ::1"); a malformed entry stops the start. */
const cidrList: Parser<[ipaddr.IPv4 | ipaddr.IPv6, number][]> = (v, name) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes("/")) return ipaddr.parseCIDR(entry);
        const addr = ipaddr.parse(entry);
        return [addr, addr.kind() === "ipv4" ? 32 : 128];
      } catch {
        throw new Error(`${name} must list addresses or CIDR ranges separated by commas, got "${entry}"`);
      }
    });
const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> =>
  (v, name) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`${name} must be an integer from ${min} to ${max}, got "${v}"`);
    }
    return n;
  };
const bool: Parser<boolean> = (v, name) => {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off|)$/i.test(v)) return false;
  throw new Error(`${name} must be true or false, got "${v}"`);
};
const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (v, name) => {
    if (!(values as string[]).includes(v)) throw new Error(`${name} must be one of ${values.join(", ")}, got "${v}"`);
    return v as T;
  };
const list: Parser<string[]> = (v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const intList: Parser<number[]> = (v, name) => list(v, name).map((s) => int(0)(s, name));

export const settings = {
  host: setting("HOST", "127.0.0.1", "Address the HTTP server listens on", str),
  port: setting("PORT", "8080", "TCP port of the HTTP server (0 picks a free one)", int(0, 65535)),
  dataDir: setting(
    "DATA_DIR",
    "./data",
    "Directory for the SQLite database (unless DATABASE_URL is set), the node's identity and secrets, and blobs unless BLOB_DIR is set",
    str,
  ),
  databaseUrl: setting(
    "DATABASE_URL",
    "",
    "PostgreSQL (15 or later) to keep the data in, as postgres://user:password@host:port/database; several nodes share one. Unset: SQLite in DATA_DIR",
    optPostgresUrl,
  ),
  blobDir: setting(
    "BLOB_DIR",
    "",
    "Directory for blobs (uploaded originals, podcast audio); several nodes share one (a volume or NFS); default DATA_DIR/blobs",
    str,
  ),
  publicBaseUrl: setting(
    "PUBLIC_BASE_URL",
    "",
    "Base URL written into links ({base_url}/{cdn_url}); default http://HOST:PORT",
    optUrl,
  ),
  modelsDir: setting("MODELS_DIR", "./models", "Directory holding local model files (see models/README.md)", str),
  logLevel: setting("LOG_LEVEL", "info", "debug, info, warn or error", oneOf("debug", "info", "warn", "error")),
  rateLimitPerMinute: setting(
    "RATE_LIMIT_PER_MINUTE",
    "60",
    "Requests per minute per tenant (starter tier); a key's own limit overrides it",
    int(1),
  ),
  userRateLimitPerMinute: setting(
    "USER_RATE_LIMIT_PER_MINUTE",
    "0",
    "Requests per minute per learner within a tenant; 0 turns the per-learner limit off",
    int(0),
  ),
  signInFailuresPerMinute: setting(
    "SIGN_IN_FAILURES_PER_MINUTE",
    "20",
    "Failed console sign-ins per minute from one client address, and against one key prefix, before further failures answer 429; a right key always signs in",
    int(1),
  ),
  trustedProxies: setting(
    "TRUSTED_PROXIES",
    "",
    "Comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For / Forwarded header names the client; empty trusts none",
    cidrList,
  ),
  testKeyCoursesPerMonth: setting(
    "TEST_KEY_COURSES_PER_MONTH",
    "5",
    "Courses a test key may create per calendar month",
    int(0),
  ),
  testKeyQueriesPerMonth: setting(
    "TEST_KEY_QUERIES_PER_MONTH",
    "50",
    "Queries (document query, course ask) a test key may make per calendar month",
    int(0),
  ),
  mediaUrlTtlSeconds: setting("MEDIA_URL_TTL_SECONDS", "3600", "Lifetime of signed /media URLs", int(1)),
  mediaSigningSecret: setting(
    "MEDIA_SIGNING_SECRET",
    "",
    "Secret for signing /media URLs; generated and kept in DATA_DIR when empty",
    optStr,
  ),
  podcastFeedSecret: setting(
    "PODCAST_FEED_SECRET",
    "",
    "Secret for podcast feed tokens; generated and kept in DATA_DIR when empty (several nodes share one)",
    optStr,
  ),
  maxUploadFileBytes: setting(
    "MAX_UPLOAD_FILE_BYTES",
    String(50 * 1024 * 1024),
    "Largest single uploaded file",
    int(1),
  ),
  maxUploadTotalBytes: setting(
    "MAX_UPLOAD_TOTAL_BYTES",
    String(500 * 1024 * 1024),
    "Largest combined upload per request",
    int(1),
  ),
  requestBodyTimeoutSeconds: setting(
    "REQUEST_BODY_TIMEOUT_SECONDS",
    "30",
    "A request body that sends nothing for this long is answered 408 REQUEST_TIMEOUT (a slow but moving upload is never cut off); connections idle 8 s longer are closed (at most 247: Bun closes idle connections after 255 s at most)",
    int(1, 247),
  ),
  llmProvider: setting(
    "LLM_PROVIDER",
    "auto",
    "auto, ollama, openai or extractive (auto: Ollama if reachable, else OpenAI-compatible if configured, else extractive)",
    oneOf("auto", "ollama", "openai", "extractive"),
  ),
  ollamaHost: setting(
    "OLLAMA_HOST",
    "http://127.0.0.1:11434",
    "Ollama base URL; a comma-separated list spreads load across hosts",
    list,
  ),
  openaiBaseUrl: setting(
    "OPENAI_BASE_URL",
    "",
    "Base URL of an OpenAI-compatible server (llama.cpp, vLLM, LM Studio), e.g. http://127.0.0.1:8000/v1",
    optStr,
  ),
  openaiApiKey: setting("OPENAI_API_KEY", "", "API key for the OpenAI-compatible server, if it needs one", optStr),
  llmModel: setting("LLM_MODEL", "llama3.2", "Default generation model name", str),
  llmTimeoutMs: setting("LLM_TIMEOUT_MS", "120000", "Timeout of one model call", int(100)),
  llmMaxRetries: setting(
    "LLM_MAX_RETRIES",
    "2",
    "Re-asks after an invalid structured reply, and retries after a transient failure",
    int(0, 10),
  ),
  llmNumCtx: setting(
    "LLM_NUM_CTX",
    "8192",
    "Context window (tokens) requested from Ollama on every call; one size for all calls, so Ollama never reloads the model between them",
    int(512),
  ),
  llmFallback: setting(
    "LLM_FALLBACK",
    "off",
    "off or extractive: when the model fails a chapter or a material (study guide, notes, flashcards, exam) after its re-asks, extractive builds that one with the built-in engine (marked generated_by: extractive) instead of failing",
    oneOf("off", "extractive"),
  ),
  llmKeepAlive: setting(
    "LLM_KEEP_ALIVE",
    "10m",
    "How long Ollama keeps the model loaded after a call (Ollama duration, e.g. 10m, or -1 for ever)",
    str,
  ),
  embedder: setting(
    "EMBEDDER",
    "auto",
    "auto, transformers, ollama or builtin (auto: transformers if a model is in MODELS_DIR, else builtin)",
    oneOf("auto", "transformers", "ollama", "builtin"),
  ),
  embeddingModel: setting(
    "EMBEDDING_MODEL",
    "",
    "Embedding model: a folder under MODELS_DIR (transformers) or an Ollama model name",
    optStr,
  ),
  ttsProvider: setting(
    "TTS_PROVIDER",
    "auto",
    "Default speech engine: auto, piper or espeak (a tenant's own setting wins)",
    oneOf("auto", "piper", "espeak"),
  ),
  piperHostVoice: setting(
    "PIPER_HOST_VOICE",
    "en_US-ryan-medium",
    "Piper voice of the podcast host: MODELS_DIR/piper/<voice>.onnx (+ .onnx.json); <voice>:<speaker> for multi-speaker voices",
    str,
  ),
  piperGuestVoice: setting(
    "PIPER_GUEST_VOICE",
    "en_US-lessac-medium",
    "Piper voice of the podcast guest (as PIPER_HOST_VOICE; must differ from it)",
    str,
  ),
  podcastBitrateKbps: setting(
    "PODCAST_BITRATE_KBPS",
    "48",
    "Constant MP3 bitrate of podcast episodes (mono speech): 32, 40, 48, 56 or 64",
    (v, name) => Number(oneOf("32", "40", "48", "56", "64")(v, name)),
  ),
  podcastConcurrency: setting(
    "PODCAST_CONCURRENCY",
    "1",
    "Podcast episodes produced at once (speech synthesis is CPU-bound)",
    int(1, 16),
  ),
  outboundAllow: setting(
    "OUTBOUND_ALLOW",
    "",
    "Comma-separated hosts or CIDRs that outbound fetches (web pages, videos, webhooks) may reach although private or loopback",
    list,
  ),
  ingestWorkers: setting(
    "INGEST_WORKERS",
    "2",
    "Extraction processes that parse uploaded files (PDF, office, text, HTML, images with OCR)",
    int(1, 16),
  ),
  ingestConcurrency: setting(
    "INGEST_CONCURRENCY",
    "4",
    "Sources of one request (files and URLs) processed at once",
    int(1, 32),
  ),
  ingestTimeoutMs: setting(
    "INGEST_TIMEOUT_MS",
    "120000",
    "Longest time one source may take to extract; past it its extraction process is killed and the source fails",
    int(1000),
  ),
  ingestMaxPdfPages: setting(
    "INGEST_MAX_PDF_PAGES",
    "1000",
    "Largest PDF (in pages) that is extracted; longer ones fail with a clear error",
    int(1),
  ),
  ingestMaxOcrPages: setting(
    "INGEST_MAX_OCR_PAGES",
    "50",
    "Most pages without a text layer OCR'd in one PDF; more fail with a clear error",
    int(0),
  ),
  ingestMaxImagePixels: setting(
    "INGEST_MAX_IMAGE_PIXELS",
    "40000000",
    "Largest image (width x height) decoded, uploaded or inside a PDF; read from the image header before decoding, a larger one fails with a clear error",
    int(1),
  ),
  ingestMaxXmlMb: setting(
    "INGEST_MAX_XML_MB",
    "10",
    "Most XML (MB, decompressed) parsed from one DOCX, PPTX, ODT or ODP: checked against the zip directory, then counted while inflating",
    int(1, 1024),
  ),
  ingestWorkerMemoryMb: setting(
    "INGEST_WORKER_MEMORY_MB",
    "1024",
    "Memory (resident, MB) one extraction process may use; past it the process is killed and replaced and the source fails",
    int(128),
  ),
  ingestTenantWorkers: setting(
    "INGEST_TENANT_WORKERS",
    "0",
    "Extraction processes one tenant may hold while other tenants' files wait; 0: INGEST_WORKERS - 1 (at least 1)",
    int(0, 16),
  ),
  youtubeBaseUrl: setting(
    "YOUTUBE_BASE_URL",
    "https://www.youtube.com",
    "Origin of YouTube watch pages and caption tracks (tests point it at a local fake)",
    str,
  ),
  searxngUrl: setting("SEARXNG_URL", "", "SearXNG base URL used when search_enabled is true", optUrl),
  jobConcurrency: setting("JOB_CONCURRENCY", "2", "Background jobs run at once", int(1, 64)),
  jobTenantShare: setting(
    "JOB_TENANT_SHARE",
    "0",
    "Jobs of one type one tenant may run at once while another tenant's jobs of that type wait (tenants take turns); 0 means JOB_CONCURRENCY − 1, at least 1",
    int(0, 64),
  ),
  examBatchSize: setting(
    "EXAM_BATCH_SIZE",
    "5",
    "Exam questions asked of the model in one call; the batches of one chapter run in turn, each told what was asked",
    int(1, 20),
  ),
  examConcurrency: setting("EXAM_CONCURRENCY", "6", "Chapters whose exam batches are written at once", int(1, 64)),
  chapterConcurrency: setting("CHAPTER_CONCURRENCY", "4", "Chapters of one course generated at once", int(1, 64)),
  courseMaxSourceWords: setting(
    "COURSE_MAX_SOURCE_WORDS",
    "1000000",
    "Most words of teaching text a course from files or URLs may read across its sources (about 6 MB of text, a 3,000-page book); past it the course is refused with COURSE_SOURCES_TOO_LARGE and its sources stay indexed",
    int(1000),
  ),
  generationRetries: setting(
    "GENERATION_RETRIES",
    "2",
    "Retries of a course generation step (outline, chapter, study guide) after a model timeout or rate limit, before the course fails",
    int(0, 10),
  ),
  generationRetryDelayMs: setting(
    "GENERATION_RETRY_DELAY_MS",
    "2000",
    "Pause before the first retry of a generation step; doubles on each further retry",
    int(0),
  ),
  topicMatchMinScore: setting(
    "TOPIC_MATCH_MIN_SCORE",
    "0.42",
    "Least search score (cosine) for a passage of the learner's documents to ground a chapter of a topic course written by a model (tuned on the builtin embedder, whose unrelated text scores about 0.35); which documents cover a topic at all is decided by their words, not by this score",
    (v, name) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`${name} must be a number from 0 to 1, got "${v}"`);
      return n;
    },
  ),
  sseKeepaliveSeconds: setting(
    "SSE_KEEPALIVE_SECONDS",
    "15",
    "Seconds between keepalive comments on a stream-mode generation",
    int(1, 300),
  ),
  jobLeaseSeconds: setting(
    "JOB_LEASE_SECONDS",
    "30",
    "How long a running job's lease lasts without a heartbeat",
    int(2),
  ),
  jobMaxStalls: setting(
    "JOB_MAX_STALLS",
    "3",
    "Times a job may be found running with its process gone (crashed, killed, or its lease run out) and be requeued; one more stall fails it with JOB_STALLED",
    int(0),
  ),
  webhookRetrySchedule: setting(
    "WEBHOOK_RETRY_SCHEDULE",
    "60,300,1800,7200,43200",
    "Seconds between webhook delivery retries; after the last one fails the webhook turns inactive",
    intList,
  ),
  webhookTimeoutMs: setting(
    "WEBHOOK_TIMEOUT_MS",
    "10000",
    "Timeout of one webhook delivery attempt, connect to response included",
    int(100, 60000),
  ),
  webhookCaFile: setting(
    "WEBHOOK_CA_FILE",
    "",
    "PEM file of CA certificates trusted for webhook deliveries only, beside the standard public roots (a receiver behind an internal CA); read at start",
    optStr,
  ),
  metricsToken: setting("METRICS_TOKEN", "", "Bearer token for GET /metrics; empty disables the endpoint", optStr),
  shutdownGraceMs: setting("SHUTDOWN_GRACE_MS", "10000", "How long shutdown waits for in-flight requests", int(0)),
  bootstrap: setting(
    "BOOTSTRAP",
    "true",
    "Create a default tenant and test key on first start with an empty database",
    bool,
  ),
} as const;

type Settings = typeof settings;
export type Config = { -readonly [K in keyof Settings]: Settings[K] extends Setting<infer T> ? T : never } & {
  /** PUBLIC_BASE_URL, or http://HOST:PORT, without a trailing slash. */
  baseUrl: string;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(settings) as [string, Setting<unknown>][]) {
    out[key] = s.parse(env[s.env] ?? s.default, s.env);
  }
  const cfg = out as Config;
  cfg.dataDir = resolve(cfg.dataDir);
  cfg.blobDir = resolve(cfg.blobDir || join(cfg.dataDir, "blobs"));
  cfg.modelsDir = resolve(cfg.modelsDir);
  cfg.baseUrl = (cfg.publicBaseUrl ?? `http://${cfg.host}:${cfg.port}`).replace(/\/+$/, "");
  return cfg;
}

/** The configuration table, as markdown (README) or plain text (--help). */
export function settingsTable(format: "markdown" | "text"): string {
  const rows = Object.values(settings) as Setting<unknown>[];
  if (format === "markdown") {
    return [
      "| Variable | Default | Meaning |",
      "|---|---|---|",
      ...rows.map((s) => `| \`${s.env}\` | ${s.default === "" ? "(empty)" : `\`${s.default}\``} | ${s.doc} |`),
    ].join("\n");
  }
  const width = Math.max(...rows.map((s) => s.env.length));
  return rows.map((s) => `  ${s.env.padEnd(width)}  ${s.doc} [default: ${s.default || "empty"}]`).join("\n");
}
