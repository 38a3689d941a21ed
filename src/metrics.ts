/**
 * Prometheus metrics, served at GET /metrics behind METRICS_TOKEN. Domains record into the
 * metrics below; gauges that mirror the database (queue depth) are read at scrape time.
 */
import client from "prom-client";

export const registry = new client.Registry();

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const JOB_SECONDS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];
const MODEL_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** A counter of ours: named courseforge_<name>, registered on our registry. */
const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new client.Counter<L>({ name: `courseforge_${name}`, help, labelNames, registers: [registry] });

/** A histogram of ours, in seconds: named courseforge_<name>, registered on our registry. */
const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
  new client.Histogram<L>({ name: `courseforge_${name}`, help, labelNames, buckets, registers: [registry] });

const ROUTE = ["route", "method", "status"] as const;
const MODEL = ["engine", "model"] as const;

export const httpRequests = counter("http_requests_total", "HTTP requests by route pattern, method and status", ROUTE);
export const httpDuration = histogram(
  "http_request_duration_seconds",
  "HTTP request latency by route pattern and status",
  ROUTE,
  SECONDS,
);
export const jobDuration = histogram(
  "job_duration_seconds",
  "Background job run time by type and outcome",
  ["type", "outcome"],
  JOB_SECONDS,
);
export const modelCalls = counter("model_calls_total", "Language-model calls by engine, model and outcome", [
  ...MODEL,
  "outcome",
]);
export const modelDuration = histogram(
  "model_call_duration_seconds",
  "Language-model call latency by engine and model",
  MODEL,
  MODEL_SECONDS,
);
export const webhookDeliveries = counter("webhook_deliveries_total", "Webhook delivery attempts by event and outcome", [
  "event",
  "outcome",
]);

/** Queue depth is the database's truth; read it when scraped rather than tracking it in memory. */
export function registerQueueDepth(read: () => Promise<Record<string, number>>): void {
  registry.removeSingleMetric("courseforge_jobs");
  new client.Gauge({
    name: "courseforge_jobs",
    help: "Jobs by status",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      for (const [status, n] of Object.entries(await read())) this.set({ status }, n);
    },
  });
}
