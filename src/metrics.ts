/**
 * Prometheus metrics, served at GET /metrics behind METRICS_TOKEN. Domains record into the
 * metrics below; gauges that mirror the database (queue depth) are read at scrape time.
 */
import client from "prom-client";

export const registry = new client.Registry();

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const httpRequests = new client.Counter({
  name: "courseforge_http_requests_total",
  help: "HTTP requests by route pattern, method and status",
  labelNames: ["route", "method", "status"] as const,
  registers: [registry],
});

export const httpDuration = new client.Histogram({
  name: "courseforge_http_request_duration_seconds",
  help: "HTTP request latency by route pattern and status",
  labelNames: ["route", "method", "status"] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const jobDuration = new client.Histogram({
  name: "courseforge_job_duration_seconds",
  help: "Background job run time by type and outcome",
  labelNames: ["type", "outcome"] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
  registers: [registry],
});

export const modelCalls = new client.Counter({
  name: "courseforge_model_calls_total",
  help: "Language-model calls by engine, model and outcome",
  labelNames: ["engine", "model", "outcome"] as const,
  registers: [registry],
});

export const modelDuration = new client.Histogram({
  name: "courseforge_model_call_duration_seconds",
  help: "Language-model call latency by engine and model",
  labelNames: ["engine", "model"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

export const webhookDeliveries = new client.Counter({
  name: "courseforge_webhook_deliveries_total",
  help: "Webhook delivery attempts by event and outcome",
  labelNames: ["event", "outcome"] as const,
  registers: [registry],
});

/** Queue depth is the database's truth; read it when scraped rather than tracking it in memory. */
export function registerQueueDepth(read: () => Record<string, number>): void {
  registry.removeSingleMetric("courseforge_jobs");
  new client.Gauge({
    name: "courseforge_jobs",
    help: "Jobs by status",
    labelNames: ["status"] as const,
    registers: [registry],
    collect() {
      for (const [status, n] of Object.entries(read())) this.set({ status }, n);
    },
  });
}
