/** Every job type the worker runs, by name. Each domain contributes its handlers here. */
import { EPISODE_JOB } from "../podcasts/generate.ts";
import { podcastEpisodeJob } from "../podcasts/episode-job.ts";
import type { Services } from "../services.ts";
import type { JobHandler } from "./queue.ts";

export function jobHandlers(svc: Services): Record<string, JobHandler> {
  return {
    [EPISODE_JOB]: podcastEpisodeJob(svc),
  };
}
