/**
 * Every job type the worker runs, registered at start-up: each domain declares its job (type,
 * payload schema, handler) and the queue (src/jobs) knows none of them.
 */
import type { AppServices } from "./compose.ts";
import { courseGenerationJob } from "./courses/generate-job.ts";
import { type RegisteredJob, registerJob } from "./jobs/definition.ts";
import { podcastEpisodeJob } from "./podcasts/episode-job.ts";
import { deliveryJob } from "./webhooks/delivery-job.ts";

export function registeredJobs(svc: AppServices): RegisteredJob[] {
  return [registerJob(courseGenerationJob, svc), registerJob(deliveryJob, svc), registerJob(podcastEpisodeJob, svc)];
}
