/** Every job type the worker runs, by name. Each domain contributes its handlers here. */
import type { Services } from "../services.ts";
import type { JobHandler } from "./queue.ts";

export function jobHandlers(_svc: Services): Record<string, JobHandler> {
  return {};
}
