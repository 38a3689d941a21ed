import { Elysia, t } from "elysia";
import pkg from "../../../package.json" with { type: "json" };
import { unauthorized } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { keyAuthenticator } from "../../tenants/keys.ts";
import { errors } from "../schemas.ts";

const Health = t.Object({
  status: t.Literal("ok"),
  details: t.Optional(
    t.Object(
      {
        version: t.String(),
        llm: t.Unknown(),
        engines: t.Record(t.String(), t.Unknown()),
      },
      { description: "Only for a caller with a valid X-API-Key" },
    ),
  ),
});

/**
 * Liveness needs no key. A caller that does send a valid key also gets which engines are active,
 * so operators can check the model set-up without shell access; a key that is sent but invalid is
 * refused (401), as everywhere, rather than silently answered without the details.
 */
export const healthRoutes = (svc: Services) => {
  const authenticate = keyAuthenticator(svc.sql);
  const health = async ({ request }: { request: Request }) => {
    const key = request.headers.get("x-api-key");
    if (key === null) return { status: "ok" as const };
    if (!(await authenticate(key))) throw unauthorized("Invalid X-API-Key (GET /health needs none)");
    return {
      status: "ok" as const,
      details: { version: pkg.version, llm: svc.llm.describe(), engines: svc.engines },
    };
  };
  const doc = {
    response: { 200: Health, ...errors("UNAUTHORIZED") },
    detail: { summary: "Liveness check (no key needed)", tags: ["health"], security: [] },
  };
  return new Elysia({ name: "health" }).get("/health", health, doc).get("/v2/health", health, doc);
};
