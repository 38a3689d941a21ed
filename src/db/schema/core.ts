/** Drizzle view of migration 0001 (src/db/migrations/0001_core.sql); test/db checks they agree. */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, unique, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, updatedAt } from "./columns.ts";

export const tenants = sqliteTable(
  "tenants",
  {
    id: id(),
    name: text("name").notNull().unique(),
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    ttsProvider: text("tts_provider"),
    createdAt: createdAt(),
    /** Set on a tenant's test environment (migration 0010): the tenant whose test keys work on it. */
    environmentOf: text("environment_of"),
  },
  (t) => [uniqueIndex("tenants_environment_of").on(t.environmentOf)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    env: text("env", { enum: ["test", "production"] }).notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_tenant").on(t.tenantId)],
);

export const users = sqliteTable(
  "users",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    externalId: text("external_id"),
    email: text("email"),
    name: text("name"),
    learningGoal: text("learning_goal"),
    createdAt: createdAt(),
  },
  (t) => [unique("users_tenant_external").on(t.tenantId, t.externalId)],
);

export const courses = sqliteTable(
  "courses",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    title: text("title").notNull(),
    topic: text("topic").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    outline: text("outline", { mode: "json" }),
    sourceType: text("source_type").notNull(),
    status: text("status", { enum: ["generating", "completed", "failed"] }).notNull(),
    organization: text("organization"),
    learningGoal: text("learning_goal"),
    searchEnabled: integer("search_enabled", { mode: "boolean" }).notNull().default(false),
    searchNote: text("search_note"),
    numChapters: integer("num_chapters").notNull(),
    engine: text("engine"),
    model: text("model"),
    error: text("error", { mode: "json" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: text("completed_at"),
  },
  (t) => [index("courses_owner_created").on(t.tenantId, t.userId, t.createdAt, t.id)],
);

export const chapters = sqliteTable(
  "chapters",
  {
    id: id(),
    courseId: text("course_id").notNull(),
    orderIndex: integer("order_index").notNull(),
    title: text("title").notNull(),
    objectives: text("objectives", { mode: "json" }).$type<string[]>().notNull().default([]),
    status: text("status", { enum: ["pending", "running", "completed"] }).notNull(),
    content: text("content"),
    keyConcepts: text("key_concepts", { mode: "json" }).$type<string[]>().notNull().default([]),
    engine: text("engine"),
    model: text("model"),
    completedAt: text("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [unique("chapters_course_order").on(t.courseId, t.orderIndex)],
);

export const quizQuestions = sqliteTable(
  "quiz_questions",
  {
    id: id(),
    chapterId: text("chapter_id").notNull(),
    position: integer("position").notNull(),
    type: text("type").notNull(),
    prompt: text("prompt").notNull(),
    choices: text("choices", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** JSON: an index for mcq, a string for short answers. */
    answer: text("answer", { mode: "json" }).notNull(),
    explanation: text("explanation"),
  },
  (t) => [unique("quiz_questions_chapter_position").on(t.chapterId, t.position)],
);

export const chapterSources = sqliteTable(
  "chapter_sources",
  {
    id: id(),
    chapterId: text("chapter_id").notNull(),
    position: integer("position").notNull(),
    documentId: text("document_id"),
    chunkId: text("chunk_id"),
    filename: text("filename"),
    page: integer("page"),
    timestampSeconds: real("timestamp_seconds"),
    url: text("url"),
    title: text("title"),
    excerpt: text("excerpt"),
    score: real("score"),
    paragraphs: text("paragraphs", { mode: "json" }).$type<number[]>().notNull().default([]),
  },
  (t) => [unique("chapter_sources_chapter_position").on(t.chapterId, t.position)],
);

export const documents = sqliteTable(
  "documents",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id"),
    spaceId: text("space_id"),
    kind: text("kind", { enum: ["extract", "index"] }).notNull(),
    filename: text("filename").notNull(),
    sourceType: text("source_type", { enum: ["file", "youtube", "web"] }).notNull(),
    sourceUrl: text("source_url"),
    blobKey: text("blob_key"),
    mimeType: text("mime_type"),
    pages: integer("pages"),
    charCount: integer("char_count").notNull().default(0),
    markdown: text("markdown"),
    title: text("title"),
    repeats: text("repeats"),
    repeatedChunks: text("repeated_chunks"),
    ingestNode: text("ingest_node"),
    ingestLeaseUntil: text("ingest_lease_until"),
    status: text("status", { enum: ["processing", "ready", "error"] }).notNull(),
    error: text("error"),
    chunkCount: integer("chunk_count").notNull().default(0),
    billedMicros: integer("billed_micros").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("documents_owner").on(t.tenantId, t.userId, t.createdAt, t.id),
    index("documents_space").on(t.tenantId, t.spaceId),
    index("documents_ingesting").on(t.ingestNode).where(sql`status = 'processing'`),
  ],
);

export const courseDocuments = sqliteTable(
  "course_documents",
  {
    courseId: text("course_id").notNull(),
    documentId: text("document_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.documentId] })],
);

export const usageEvents = sqliteTable(
  "usage_events",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id"),
    apiKeyId: text("api_key_id"),
    keyEnv: text("key_env", { enum: ["test", "production"] }).notNull(),
    operation: text("operation").notNull(),
    quantity: integer("quantity").notNull().default(1),
    amountMicros: integer("amount_micros").notNull().default(0),
    refId: text("ref_id"),
    createdAt: createdAt(),
  },
  (t) => [index("usage_events_tenant_month").on(t.tenantId, t.keyEnv, t.operation, t.createdAt)],
);

export const jobs = sqliteTable(
  "jobs",
  {
    id: id(),
    tenantId: text("tenant_id"),
    userId: text("user_id"),
    type: text("type").notNull(),
    status: text("status", { enum: ["queued", "running", "completed", "failed"] }).notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    result: text("result", { mode: "json" }),
    error: text("error", { mode: "json" }),
    courseId: text("course_id"),
    requestId: text("request_id"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    runAfter: text("run_after").notNull(),
    leaseOwner: text("lease_owner"),
    leaseUntil: text("lease_until"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    stalls: integer("stalls").notNull().default(0),
    leaseToken: text("lease_token"),
  },
  (t) => [index("jobs_claim").on(t.status, t.runAfter), index("jobs_course").on(t.courseId)],
);
