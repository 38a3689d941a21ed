import { Elysia, t } from "elysia";

const Health = t.Object({ status: t.Literal("ok") });

export const healthRoutes = () =>
  new Elysia({ name: "health" })
    .get("/health", () => ({ status: "ok" as const }), {
      response: Health,
      detail: { summary: "Liveness check (no key needed)", tags: ["health"], security: [] },
    })
    .get("/v2/health", () => ({ status: "ok" as const }), {
      response: Health,
      detail: { summary: "Liveness check under /v2 (no key needed)", tags: ["health"], security: [] },
    });
