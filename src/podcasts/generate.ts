/**
 * POST podcasts/generate: marks every chapter without a ready episode as generating and queues one
 * job per such episode, all in one transaction. The unique (course, chapter) key and the course's
 * lock make repeated and concurrent calls safe, across nodes too: a chapter never gets two
 * episodes, and an episode already generating is not queued twice.
 */
import { Type } from "@sinclair/typebox";
import { type WrittenChapter, writtenChapters } from "../courses/chapters.ts";
import { type CourseOwner, loadCourseOf, lockCourse } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { jobType } from "../jobs/definition.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { newId, nowIso } from "../util.ts";
import type { PodcastDeps } from "./deps.ts";
import { courseEpisodes } from "./episodes.ts";
import type { TtsEngineName } from "./tts/engine.ts";
import { chooseTtsEngine, parseTtsProvider } from "./tts/registry.ts";

/** The job that makes one episode's script, speech and MP3. */
export const EPISODE_JOB = jobType(
  "podcast.episode",
  Type.Object({ episode_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
);

export interface GenerateRequest {
  owner: CourseOwner;
  courseId: string;
  /** The `tts_provider` query value, if given (engine name or provider_a/provider_b). */
  ttsProvider?: string | null;
  /** The tenant's configured engine (set with the CLI), if any. */
  tenantTtsProvider?: string | null;
  requestId?: string | null;
}

export type GenerateStatus = "generating" | "resuming" | "already_complete";

export interface GenerateResult {
  message: string;
  course_id: string;
  total_chapters: number;
  ready: number;
  failed: number;
  status: GenerateStatus;
}

const episodes = (n: number) => `${n} episode${n === 1 ? "" : "s"}`;

function knownEngine(value: string | null | undefined): TtsEngineName | null {
  return value === "piper" || value === "espeak" ? value : null;
}

export interface ClaimedEpisodes {
  ready: number;
  failed: number;
  queued: number;
}

/**
 * Marks each chapter without a ready episode as generating and queues (`enqueue`, in the same
 * transaction, answering the job id) each episode that is not generating already: a new one, or a failed one again. The
 * course's lock is taken before its episodes are read, so of two requests at once the second
 * finds the first's episodes generating and queues none of them again; its row is held too, so a
 * delete at once either finds the jobs queued (COURSE_BUSY) or leaves this a 404.
 */
export function claimEpisodes(
  db: Sql,
  courseId: string,
  chapters: readonly WrittenChapter[],
  engine: TtsEngineName,
  enqueue: (tx: Sql, episodeId: string) => Promise<string>,
): Promise<ClaimedEpisodes> {
  return db.transaction(async (tx) => {
    await tx.lock(`podcast-episodes:${courseId}`);
    await lockCourse(tx, courseId);
    const existing = new Map((await courseEpisodes(tx, courseId)).map((e) => [e.chapter_id, e]));
    const claimed = { ready: 0, failed: 0, queued: 0 };
    const now = nowIso();
    for (const chapter of chapters) {
      const episode = existing.get(chapter.id);
      if (episode?.status === "ready") {
        claimed.ready++;
      } else if (episode?.status === "error") {
        claimed.failed++;
        claimed.queued++;
        await tx.run(
          sql`UPDATE podcast_episodes SET status = 'generating', error = NULL, tts_provider = ${engine},
                     job_id = ${await enqueue(tx, episode.id)}, updated_at = ${now}
               WHERE id = ${episode.id}`,
        );
      } else if (!episode) {
        const id = newId();
        const inserted = await tx.run(
          sql`INSERT INTO podcast_episodes (id, course_id, chapter_id, chapter_order, title, status, tts_provider, created_at, updated_at)
              VALUES (${id}, ${courseId}, ${chapter.id}, ${chapter.order_index}, ${chapter.title}, 'generating', ${engine}, ${now}, ${now})
              ON CONFLICT (course_id, chapter_id) DO NOTHING`,
        );
        if (inserted === 1) {
          claimed.queued++;
          await tx.run(sql`UPDATE podcast_episodes SET job_id = ${await enqueue(tx, id)} WHERE id = ${id}`);
        }
      }
    }
    return claimed;
  });
}

export async function generatePodcasts(deps: PodcastDeps, req: GenerateRequest): Promise<GenerateResult> {
  const requested = req.ttsProvider ? parseTtsProvider(req.ttsProvider) : null;
  const db = deps.sql;
  const course = await loadCourseOf(db, req.owner, req.courseId);
  if (course.status === "generating") {
    throw new AppError("COURSE_GENERATING", "The course is still generating; request podcasts once it has completed");
  }
  const tenantEngine = knownEngine(req.tenantTtsProvider);
  const engine = await chooseTtsEngine(deps.tts, requested, tenantEngine, deps.cfg.ttsProvider);
  // Refused here rather than accepted and failed episode by episode: the caller can install the
  // voices or pick the other engine, and no job is queued for work that cannot be done.
  const installed = await engine.installed();
  if (!installed.ok) {
    const chosenBy = requested
      ? `tts_provider=${req.ttsProvider}`
      : tenantEngine
        ? "this tenant's speech engine (courseforge tenants set --tts-provider)"
        : `TTS_PROVIDER=${deps.cfg.ttsProvider}`;
    throw new AppError(
      "TTS_UNAVAILABLE",
      `${chosenBy} selects ${engine.name}, which cannot speak yet: ${installed.reason ?? "not installed"}. ` +
        "Or ask for tts_provider=provider_b (eSpeak NG, built in).",
      { field: "tts_provider", engine: engine.name, ...installed.details },
    );
  }

  const chapters = await writtenChapters(db, course.id);
  const { ready, failed, queued } = await claimEpisodes(db, course.id, chapters, engine.name, async (tx, id) => {
    const job = await enqueueJob(
      { sql: tx, clock: deps.clock },
      {
        type: EPISODE_JOB,
        tenantId: req.owner.tenantId,
        userId: req.owner.userId,
        courseId: course.id,
        requestId: req.requestId ?? null,
        payload: { episode_id: id },
      },
    );
    return job.id;
  });

  const total = chapters.length;
  const status: GenerateStatus =
    ready === total ? "already_complete" : ready > 0 || failed > 0 ? "resuming" : "generating";
  const message =
    status === "already_complete"
      ? total === 0
        ? "The course has no finished chapters to make episodes from"
        : "Every chapter already has a ready episode"
      : queued === 0
        ? `${episodes(total - ready)} already being generated`
        : `Generating ${episodes(queued)} with ${engine.name}`;
  deps.log.info("podcast generation requested", { course_id: course.id, status, queued, engine: engine.name });
  return { message, course_id: course.id, total_chapters: total, ready, failed, status };
}
