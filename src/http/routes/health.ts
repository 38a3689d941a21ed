import { Elysia, t } from "elysia";
import pkg from "../../../package.json" with { type: "json" };
import type { Services } from "../../services.ts";
import { keyAuthenticator } from "../../tenants/keys.ts";

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
 * so operators can check the model set-up without shell access.
 */
export const healthRoutes = (svc: Services) => {
  const authenticate = keyAuthenticator(svc.db);
  const health = ({ request }: { request: Request }) => {
    if (!authenticate(request.headers.get("x-api-key"))) return { status: "ok" as const };
    return {
      status: "ok" as const,
      details: { version: pkg.version, llm: svc.llm.describe(), engines: svc.engines },
    };
  };
  const doc = {
    response: Health,
    detail: { summary: "Liveness check (no key needed)", tags: ["health"], security: [] },
  };
  return new Elysia({ name: "health" }).get("/health", health, doc).get("/v2/health", health, doc);
};
