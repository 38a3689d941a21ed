/**
 * The background job that produces one episode: script (kept once written), speech per turn
 * (cached on disk), MP3, blob, ready. Re-run after a crash or restart, it continues from what was
 * kept; when it finally fails, the episode ends `error` with the reason.
 */
import { join } from "node:path";
import { chapterWithCourseTitle } from "../courses/chapters.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError, type FailureReason } from "../errors.ts";
import { defineJob } from "../jobs/definition.ts";
import { INTERRUPTED } from "../jobs/queue.ts";
import { UsageMeter, writePodcastScript } from "../llm/artefacts.ts";
import { deleteBlob, putBlob } from "../media/blob-store.ts";
import { nowIso } from "../util.ts";
import { TurnAudioCache } from "./audio/turn-cache.ts";
import type { PodcastDeps } from "./deps.ts";
import { type EpisodeRow, getEpisode, type StoredScript } from "./episodes.ts";
import { EPISODE_JOB } from "./generate.ts";
import { renderEpisodeAudio } from "./render-audio.ts";

/**
 * Retrying cannot help, though the error is no refusal of the job's input (which the queue never
 * retries: NOT_FOUND, TTS_UNAVAILABLE): the model was already re-asked.
 */
function permanent(error: AppError): AppError {
  return Object.assign(error, { retriable: false });
}

async function ensureScript(deps: PodcastDeps, db: Sql, episode: EpisodeRow): Promise<StoredScript> {
  if (episode.script) return JSON.parse(episode.script) as StoredScript;
  const chapter = await chapterWithCourseTitle(db, episode.chapter_id);
  if (!chapter) throw new AppError("NOT_FOUND", "The chapter of this episode no longer exists");
  const meter = new UsageMeter();
  const script = await writePodcastScript(deps.llm, {
    courseTitle: chapter.course_title,
    chapterTitle: chapter.chapter_title,
    content: chapter.content ?? "",
    key_concepts: JSON.parse(chapter.key_concepts) as string[],
    meter,
  }).catch((err: unknown) => {
    // The model was already re-asked with what was wrong; running the job again would only repeat that.
    throw err instanceof AppError && err.code === "PODCAST_SCRIPT_INVALID" ? permanent(err) : err;
  });
  const stored: StoredScript = { turns: script.turns };
  // A commit point: a re-run after a crash speaks this script instead of writing a new one.
  await db.run(
    sql`UPDATE podcast_episodes SET title = ${script.title}, script = ${JSON.stringify(stored)}, script_engine = ${meter.engine},
               script_model = ${meter.model}, updated_at = ${nowIso()}
         WHERE id = ${episode.id}`,
  );
  return stored;
}

export const podcastEpisodeJob = defineJob(EPISODE_JOB, (deps: PodcastDeps) => {
  const cache = new TurnAudioCache(join(deps.cfg.dataDir, "cache", "tts"));
  const db = deps.sql;
  return {
    concurrency: deps.cfg.podcastConcurrency,

    async run(_job, { episode_id: episodeId }, ctx) {
      const episode = await getEpisode(db, episodeId);
      if (episode?.status !== "generating") return { episode_id: episodeId, skipped: true };

      const script = await ensureScript(deps, db, episode);
      if (ctx.signal.aborted) return INTERRUPTED;

      const engine = deps.tts[episode.tts_provider];
      const availability = await engine.available();
      if (!availability.ok) {
        throw new AppError(
          "TTS_UNAVAILABLE",
          `${engine.name} is not available: ${availability.reason ?? "unknown reason"}`,
          {
            engine: engine.name,
          },
        );
      }

      let rendered: Awaited<ReturnType<typeof renderEpisodeAudio>>;
      try {
        rendered = await renderEpisodeAudio(engine, script.turns, {
          cache,
          bitrateKbps: deps.cfg.podcastBitrateKbps,
          signal: ctx.signal,
        });
      } catch (err) {
        if (ctx.signal.aborted) return INTERRUPTED;
        throw err;
      }

      const blob = await putBlob(deps.cfg, rendered.bytes, { ext: "mp3" });
      const now = nowIso();
      const stored = await db.run(
        sql`UPDATE podcast_episodes SET status = 'ready', blob_key = ${blob.key}, content_type = ${rendered.contentType},
                   duration_seconds = ${rendered.durationSeconds}, size_bytes = ${blob.size},
                   voices = ${JSON.stringify(engine.voices())}, error = NULL, ready_at = ${now}, updated_at = ${now}
             WHERE id = ${episode.id} AND status = 'generating'`,
      );
      if (stored === 0) await deleteBlob(deps.cfg, blob.key);
      await cache.delete(rendered.cacheKeys);
      ctx.log.info("podcast episode ready", {
        episode_id: episode.id,
        course_id: episode.course_id,
        engine: engine.name,
        duration_s: Math.round(rendered.durationSeconds),
        turns_synthesized: rendered.synthesized,
        turns_cached: rendered.cached,
        loudness_in_lufs: Math.round(rendered.loudness.inputLufs * 10) / 10,
        loudness_out_lufs: Math.round(rendered.loudness.outputLufs * 10) / 10,
        gain_db: Math.round(rendered.loudness.gainDb * 10) / 10,
      });
      return { episode_id: episode.id, duration_seconds: rendered.durationSeconds };
    },

    // Found by its job rather than the payload, so an episode whose job payload was unreadable still ends `error`.
    // In the transaction that ends the job, so the episode and its job fail together.
    async onFailure(job, reason: FailureReason, _payload, tx) {
      await tx.run(
        sql`UPDATE podcast_episodes SET status = 'error', error = ${JSON.stringify(reason)}, updated_at = ${nowIso()}
             WHERE job_id = ${job.id} AND status = 'generating'`,
      );
    },
  };
});
