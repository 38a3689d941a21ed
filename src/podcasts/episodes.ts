import { type Sql, sql } from "../db/sql.ts";
import type { FailureReason } from "../errors.ts";
import type { PodcastDeps } from "./deps.ts";
import type { ScriptTurn } from "./render-audio.ts";
import type { TtsEngineName } from "./tts/engine.ts";

export type EpisodeStatus = "generating" | "ready" | "error";

export interface EpisodeRow {
  id: string;
  course_id: string;
  chapter_id: string;
  chapter_order: number;
  title: string;
  status: EpisodeStatus;
  tts_provider: TtsEngineName;
  script: string | null;
  script_engine: string | null;
  script_model: string | null;
  voices: string | null;
  blob_key: string | null;
  content_type: string | null;
  duration_seconds: number | null;
  size_bytes: number | null;
  error: string | null;
  job_id: string | null;
  created_at: string;
  updated_at: string;
  ready_at: string | null;
}

export interface StoredScript {
  turns: ScriptTurn[];
}

export function courseEpisodes(db: Sql, courseId: string): Promise<EpisodeRow[]> {
  return db.all<EpisodeRow>(sql`SELECT * FROM podcast_episodes WHERE course_id = ${courseId} ORDER BY chapter_order`);
}

/** The stored audio of the course's episodes, for deleting the files with the course. */
export async function episodeBlobKeys(db: Sql, courseId: string): Promise<string[]> {
  const rows = await db.all<{ blob_key: string }>(
    sql`SELECT blob_key FROM podcast_episodes WHERE course_id = ${courseId} AND blob_key IS NOT NULL`,
  );
  return rows.map((r) => r.blob_key);
}

export function getEpisode(db: Sql, id: string): Promise<EpisodeRow | null> {
  return db.get<EpisodeRow>(sql`SELECT * FROM podcast_episodes WHERE id = ${id}`);
}

/** The API's Podcast episode; audio URLs are signed afresh on every read. */
export function episodeView({ cfg, media }: Pick<PodcastDeps, "cfg" | "media">, row: EpisodeRow) {
  const script = row.script ? (JSON.parse(row.script) as StoredScript) : null;
  return {
    id: row.id,
    chapter_order: row.chapter_order,
    title: row.title,
    status: row.status,
    audio_url: row.status === "ready" && row.blob_key ? media.url(cfg, row.blob_key) : null,
    script: script ? { turns: script.turns.map((t) => ({ speaker: t.speaker, text: t.text })) } : null,
    tts_provider: row.tts_provider,
    duration_seconds: row.status === "ready" ? row.duration_seconds : null,
    created_at: row.created_at,
    ...(row.status === "error" && row.error ? { error: JSON.parse(row.error) as FailureReason } : {}),
  };
}

export type EpisodeView = ReturnType<typeof episodeView>;
