/**
 * The billing owner's storage (usage_events) on both engines: SQLite (the server's) and
 * PostgreSQL (a throwaway cluster). Money is bigint there and comes back from Bun as a string;
 * the owner answers numbers on both. The test-key cap is checked and charged in one step, so
 * requests at the cap cannot both pass, on PostgreSQL across connections too.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addUsage, chargeWithinTestCap, monthlyTotals, testCapStatus } from "../../src/billing/index.ts";
import { sql } from "../../src/db/sql.ts";
import type { AppError } from "../../src/errors.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { ENGINES, type Engine, postgresEngine } from "../helpers/engines.ts";
import { slowWrites } from "../helpers/slow-writes.ts";

const caps = { testKeyCoursesPerMonth: 5, testKeyQueriesPerMonth: 50 };

const outcomes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((r) => (r.status === "fulfilled" ? "charged" : (r.reason as AppError).code)).sort();

describe.each(ENGINES)("usage ledger on %s", (_, open) => {
  let e: Engine;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("monthly totals are numbers per operation, this month and this tenant only, beyond 32 bits of micros", async () => {
    const { id: tenantId } = await ensureTenant(e.db, "acme");
    const { id: other } = await ensureTenant(e.db, "globex");
    const big = 3_000_000_000_000;
    await addUsage(e.db, {
      tenantId,
      keyEnv: "production",
      operation: "extract.pages",
      quantity: 13,
      amountMicros: big,
    });
    await addUsage(e.db, { tenantId, keyEnv: "test", operation: "extract.pages", quantity: 3, amountMicros: 6_000 });
    await addUsage(e.db, { tenantId, keyEnv: "production", operation: "notes", amountMicros: 50_000 });
    await addUsage(e.db, { tenantId: other, keyEnv: "production", operation: "notes", amountMicros: 50_000 });
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15)).toISOString();
    await e.db.run(
      sql`INSERT INTO usage_events (id, tenant_id, key_env, operation, quantity, amount_micros, created_at)
          VALUES (${crypto.randomUUID()}, ${tenantId}, 'production', 'notes', 1, 50000, ${lastMonth})`,
    );
    expect(await monthlyTotals(e.db, tenantId, new Date())).toEqual([
      { operation: "extract.pages", events: 2, quantity: 16, amountMicros: big + 6_000 },
      { operation: "notes", events: 1, quantity: 1, amountMicros: 50_000 },
    ]);
  });

  test("a test key is charged up to its cap, then 403 TEST_USAGE_LIMIT; a production key is not capped", async () => {
    const { id: tenantId } = await ensureTenant(e.db, "capped");
    const charge = (keyEnv: "test" | "production") =>
      chargeWithinTestCap(e.db, "course", caps, new Date(), { tenantId, keyEnv, refId: crypto.randomUUID() });
    for (let i = 0; i < 5; i++) await charge("test");
    await expect(charge("test")).rejects.toMatchObject({
      code: "TEST_USAGE_LIMIT",
      status: 403,
      message: expect.stringContaining("used 5 of its 5 courses"),
    });
    await charge("production");
    expect(await testCapStatus(e.db, tenantId, "course", caps, new Date())).toEqual({ used: 5, limit: 5 });
    const totals = await monthlyTotals(e.db, tenantId, new Date());
    expect(totals).toEqual([{ operation: "course", events: 6, quantity: 6, amountMicros: 0 }]);
  });

  test("requests made at once stop at the cap: exactly the allowance is charged", async () => {
    const { id: tenantId } = await ensureTenant(e.db, "crowd");
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        chargeWithinTestCap(e.db, "course", caps, new Date(), { tenantId, keyEnv: "test" }),
      ),
    );
    expect(outcomes(results)).toEqual([...Array(5).fill("charged"), ...Array(7).fill("TEST_USAGE_LIMIT")].sort());
    expect(await testCapStatus(e.db, tenantId, "course", caps, new Date())).toEqual({ used: 5, limit: 5 });
  });

  test("a charge that rolls back with its caller's transaction leaves the allowance unused", async () => {
    const { id: tenantId } = await ensureTenant(e.db, "rollback");
    await expect(
      e.db.transaction(async (tx) => {
        await chargeWithinTestCap(tx, "query", caps, new Date(), { tenantId, keyEnv: "test" });
        throw new Error("the answer failed");
      }),
    ).rejects.toThrow("the answer failed");
    expect(await testCapStatus(e.db, tenantId, "query", caps, new Date())).toEqual({ used: 0, limit: 50 });
  });
});

describe("the test-key cap across PostgreSQL connections", () => {
  let e: Engine;

  beforeAll(async () => {
    e = await postgresEngine();
    // Each insert of this tenant's events holds its transaction open a while, so a second request
    // reads the count while the first has not committed: only the lock keeps it from passing too.
    await slowWrites(e.db, { table: "usage_events", on: "INSERT", seconds: 0.5, when: "NEW.tenant_id LIKE 'slow-%'" });
  }, 120_000);
  afterAll(() => e?.close());

  test("two requests at the last allowed course: one is charged, the other waits for it and is refused", async () => {
    const tenantId = `slow-${crypto.randomUUID()}`;
    await e.db.run(
      sql`INSERT INTO tenants (id, name, created_at) VALUES (${tenantId}, ${tenantId}, ${new Date().toISOString()})`,
    );
    for (let i = 0; i < 4; i++)
      await chargeWithinTestCap(e.db, "course", caps, new Date(), { tenantId, keyEnv: "test" });
    const results = await Promise.allSettled([
      chargeWithinTestCap(e.db, "course", caps, new Date(), { tenantId, keyEnv: "test" }),
      chargeWithinTestCap(e.db, "course", caps, new Date(), { tenantId, keyEnv: "test" }),
    ]);
    expect(outcomes(results)).toEqual(["TEST_USAGE_LIMIT", "charged"]);
    expect(await testCapStatus(e.db, tenantId, "course", caps, new Date())).toEqual({ used: 5, limit: 5 });
  }, 30_000);
});
