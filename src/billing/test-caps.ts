/**
 * Test keys are capped per calendar month (UTC): TEST_KEY_COURSES_PER_MONTH courses and
 * TEST_KEY_QUERIES_PER_MONTH queries, counted over the tenant's test-key usage events.
 */
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { addUsage, monthlyCount, removeUsage, type UsageEvent } from "./ledger.ts";
import { OPERATIONS } from "./prices.ts";

export type CappedOperation = "course" | "query";

export type TestCaps = Pick<Config, "testKeyCoursesPerMonth" | "testKeyQueriesPerMonth">;

const LABELS: Record<CappedOperation, string> = { course: "courses", query: "queries" };

function capOf(caps: TestCaps, operation: CappedOperation): number {
  return operation === "course" ? caps.testKeyCoursesPerMonth : caps.testKeyQueriesPerMonth;
}

export interface CapStatus {
  used: number;
  limit: number;
}

export async function testCapStatus(
  db: Sql,
  tenantId: string,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
): Promise<CapStatus> {
  return { used: await usedThisMonth(db, tenantId, operation, now), limit: capOf(caps, operation) };
}

function usedThisMonth(db: Sql, tenantId: string, operation: CappedOperation, now: Date): Promise<number> {
  return monthlyCount(db, tenantId, "test", OPERATIONS[operation], now);
}

/** 403 TEST_USAGE_LIMIT, stating what stays used once this request is refused. */
function capReached(operation: CappedOperation, committed: number, limit: number, requested: number): AppError {
  const needs = requested > 1 ? `; this request needs ${requested}` : "";
  return new AppError(
    "TEST_USAGE_LIMIT",
    `This test key has used ${committed} of its ${limit} ${LABELS[operation]} for this month${needs}; use a production key or wait until the 1st (UTC)`,
    { operation, used: committed, limit, requested },
  );
}

/**
 * Inside `tx`, a transaction: 403 TEST_USAGE_LIMIT unless a test key's tenant has `requested` more
 * of this month's allowance; production keys pass. The key's lock is held until `tx` ends, so the
 * caller records its usage events before another request (on any node) counts them: requests at
 * the cap cannot both pass. A request of several (a course per source) is refused whole.
 */
export async function reserveTestCap(
  tx: Sql,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
  key: Pick<UsageEvent, "tenantId" | "keyEnv">,
  requested = 1,
): Promise<void> {
  if (key.keyEnv !== "test") return;
  await tx.lock(`test-cap:${key.tenantId}:${operation}`);
  const used = await usedThisMonth(tx, key.tenantId, operation, now);
  const limit = capOf(caps, operation);
  if (used + requested > limit) throw capReached(operation, used, limit, requested);
}

/**
 * Checks the cap and records the operation's usage event in one transaction (reserveTestCap's
 * lock), so two requests at the cap cannot both pass across nodes.
 */
export function chargeWithinTestCap(
  db: Sql,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
  event: Omit<UsageEvent, "operation">,
): Promise<string> {
  return db.transaction(async (tx) => {
    await reserveTestCap(tx, operation, caps, now, event);
    return addUsage(tx, { ...event, operation: OPERATIONS[operation] });
  });
}

/**
 * `work`, paid for by chargeWithinTestCap: charged before it runs (requests at the cap cannot both
 * pass) and given back when it throws (a request that fails uses none of the allowance nor is billed).
 */
export async function withTestCapCharge<T>(
  db: Sql,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
  event: Omit<UsageEvent, "operation">,
  work: () => Promise<T>,
): Promise<T> {
  const id = await chargeWithinTestCap(db, operation, caps, now, event);
  try {
    return await work();
  } catch (err) {
    await removeUsage(db, id);
    throw err;
  }
}
