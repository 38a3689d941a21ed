import { Elysia, t } from "elysia";
import { monthBounds, monthlyTotals, testCapStatus } from "../../billing/index.ts";
import type { Services } from "../../services.ts";
import { microsToUsd } from "../../util.ts";
import { authOf } from "../context.ts";

const Cap = t.Object({ used: t.Integer(), limit: t.Integer() });

const UsageResponse = t.Object({
  period: t.Object(
    { start: t.String(), end: t.String({ description: "Exclusive" }) },
    { description: "The current calendar month (UTC)" },
  ),
  operations: t.Array(
    t.Object({
      operation: t.String({ description: "extract.pages, extract.documents, extract.videos, notes, course or query" }),
      events: t.Integer(),
      quantity: t.Integer({
        description: "Pages for extract.pages, otherwise the number of files, URLs, courses or queries",
      }),
      amount_usd: t.Number(),
    }),
  ),
  total_usd: t.Number(),
  test_key_limits: t.Nullable(t.Object({ courses: Cap, queries: Cap }), {
    description:
      "This month's use of the test-key allowances (test keys of the tenant together); null on a production key, which has none",
  }),
});

export const usageRoutes = (svc: Services) => {
  const db = svc.sql;
  return new Elysia({ name: "usage" }).get(
    "/v2/usage",
    async ({ request }) => {
      const { tenantId, keyEnv } = authOf(request);
      const now = svc.clock.now();
      const totals = await monthlyTotals(db, tenantId, now);
      return {
        period: monthBounds(now),
        operations: totals.map((o) => ({
          operation: o.operation,
          events: o.events,
          quantity: o.quantity,
          amount_usd: microsToUsd(o.amountMicros),
        })),
        total_usd: microsToUsd(totals.reduce((sum, o) => sum + o.amountMicros, 0)),
        test_key_limits:
          keyEnv === "test"
            ? {
                courses: await testCapStatus(db, tenantId, "course", svc.cfg, now),
                queries: await testCapStatus(db, tenantId, "query", svc.cfg, now),
              }
            : null,
      };
    },
    {
      response: { 200: UsageResponse },
      detail: {
        summary: "This month's usage of the tenant",
        description: "Totals per operation since the 1st of the current month (UTC), over every key of the tenant.",
        tags: ["usage"],
      },
    },
  );
};
