import { timingSafeEqual } from "node:crypto";
import { Elysia, t } from "elysia";
import { AppError } from "../../errors.ts";
import { registry } from "../../metrics.ts";
import type { Services } from "../../services.ts";
import { errorResponses } from "../schemas.ts";

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** GET /metrics: Prometheus text, guarded by its own bearer token (METRICS_TOKEN), not an API key. */
export const metricsRoutes = (svc: Services) =>
  new Elysia({ name: "metrics" }).get(
    "/metrics",
    async ({ request }) => {
      const expected = svc.cfg.metricsToken;
      if (!expected) throw new AppError("NOT_FOUND", "Metrics are disabled; set METRICS_TOKEN to enable them");
      const header = request.headers.get("authorization") ?? "";
      const given = header.startsWith("Bearer ") ? header.slice(7) : "";
      if (!tokenMatches(given, expected)) {
        throw new AppError("UNAUTHORIZED", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>", undefined, {
          "www-authenticate": "Bearer",
        });
      }
      return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
    },
    {
      detail: {
        summary: "Prometheus metrics (Authorization: Bearer METRICS_TOKEN)",
        tags: ["operations"],
        security: [],
        // The handler answers with a Response, so the shapes are declared for OpenAPI only.
        responses: {
          200: {
            description: "Prometheus text exposition format",
            content: { "text/plain": { schema: t.String({ description: "text/plain; version=0.0.4" }) } },
          },
          ...errorResponses("NOT_FOUND"),
          401: {
            ...errorResponses("UNAUTHORIZED")[401]!,
            headers: { "WWW-Authenticate": { schema: t.String({ description: "Bearer" }) } },
          },
        },
      },
    },
  );
