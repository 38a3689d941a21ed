/**
 * Every job type the worker runs, by name, wired at start-up: the queue (src/jobs) knows no domain,
 * and each domain contributes its handler here.
 */
import { COURSE_JOB, courseGenerationJob } from "./courses/generate-job.ts";
import type { JobHandler } from "./jobs/queue.ts";
import { podcastEpisodeJob } from "./podcasts/episode-job.ts";
import { EPISODE_JOB } from "./podcasts/generate.ts";
import type { Services } from "./services.ts";
import { deliveryJobHandler } from "./webhooks/delivery-job.ts";
import { DELIVERY_JOB } from "./webhooks/events.ts";

export function jobHandlers(svc: Services): Record<string, JobHandler> {
  return {
    [COURSE_JOB]: courseGenerationJob(svc),
    [DELIVERY_JOB]: deliveryJobHandler(svc),
    [EPISODE_JOB]: podcastEpisodeJob(svc),
  };
}
