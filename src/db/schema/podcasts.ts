/** Drizzle view of migrations 0007 (src/db/migrations/0007_podcasts.sql) and 0011 (0011_podcast_feeds.sql). */
import { isNull } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, unique, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, updatedAt } from "./columns.ts";

export const podcastEpisodes = sqliteTable(
  "podcast_episodes",
  {
    id: id(),
    courseId: text("course_id").notNull(),
    chapterId: text("chapter_id").notNull(),
    chapterOrder: integer("chapter_order").notNull(),
    title: text("title").notNull(),
    status: text("status", { enum: ["generating", "ready", "error"] }).notNull(),
    ttsProvider: text("tts_provider", { enum: ["piper", "espeak"] }).notNull(),
    script: text("script", { mode: "json" }),
    scriptEngine: text("script_engine"),
    scriptModel: text("script_model"),
    voices: text("voices", { mode: "json" }),
    blobKey: text("blob_key"),
    contentType: text("content_type"),
    durationSeconds: real("duration_seconds"),
    sizeBytes: integer("size_bytes"),
    error: text("error", { mode: "json" }),
    jobId: text("job_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    readyAt: text("ready_at"),
  },
  (t) => [
    unique("podcast_episodes_course_chapter").on(t.courseId, t.chapterId),
    index("podcast_episodes_course_order").on(t.courseId, t.chapterOrder),
  ],
);

export const podcastFeeds = sqliteTable(
  "podcast_feeds",
  {
    id: id(),
    courseId: text("course_id").notNull(),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("podcast_feeds_live").on(t.courseId).where(isNull(t.revokedAt))],
);
