/**
 * Every job type the worker runs, registered at start-up: each domain declares its job (type,
 * payload schema, handler) and the queue (src/jobs) knows none of them.
 */
import type { AppServices } from "./compose.ts";
import { courseGenerationJob, type StudyGuideStep } from "./courses/generate-job.ts";
import { type RegisteredJob, registerJob } from "./jobs/definition.ts";
import { buildStudyGuide } from "./materials/study-guide.ts";
import { podcastEpisodeJob } from "./podcasts/episode-job.ts";
import { deliveryJob } from "./webhooks/delivery-job.ts";

export function registeredJobs(svc: AppServices): RegisteredJob[] {
  // A course job ends with its study guide; materials sit above courses, so the step is handed in here.
  const studyGuide: StudyGuideStep = (courseId, opts) => buildStudyGuide(svc, courseId, { ...opts, fallback: svc });
  return [
    registerJob(courseGenerationJob, { ...svc, studyGuide }),
    registerJob(deliveryJob, svc),
    registerJob(podcastEpisodeJob, svc),
  ];
}
