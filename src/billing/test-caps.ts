/**
 * Test keys are capped per calendar month (UTC): TEST_KEY_COURSES_PER_MONTH courses and
 * TEST_KEY_QUERIES_PER_MONTH queries, counted over the tenant's test-key usage events.
 */
import { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import type { Db } from "../db/index.ts";
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { addUsage, monthlyCount, monthlyCountQuery, type UsageEvent } from "./ledger.ts";
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

async function usedThisMonth(db: Sql, tenantId: string, operation: CappedOperation, now: Date): Promise<number> {
  const row = await db.get<{ n: unknown }>(monthlyCountQuery(tenantId, "test", OPERATIONS[operation], now));
  return Number(row!.n);
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
 * Checks the cap and records the operation's usage event in one transaction: 403 TEST_USAGE_LIMIT
 * when a test key's tenant has used this month's allowance; production keys are recorded without
 * a check. The lock makes the count and the insert one step across nodes, so two requests at the
 * cap cannot both pass.
 */
export function chargeWithinTestCap(
  db: Sql,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
  event: Omit<UsageEvent, "operation">,
): Promise<string> {
  return db.transaction(async (tx) => {
    if (event.keyEnv === "test") {
      await tx.lock(`test-cap:${event.tenantId}:${operation}`);
      const used = await usedThisMonth(tx, event.tenantId, operation, now);
      const limit = capOf(caps, operation);
      if (used >= limit) throw capReached(operation, used, limit, 1);
    }
    return addUsage(tx, { ...event, operation: OPERATIONS[operation] });
  });
}

/**
 * The committed count, without what the open transaction added: a request that creates several
 * courses checks the cap once per course in one transaction, and when one does not fit the whole
 * request rolls back. A second connection reads the last commit (WAL); an in-memory database has
 * no second connection, so there the open transaction's events are counted too.
 */
function committedCount(db: Db, tenantId: string, operation: CappedOperation, now: Date): number {
  const client = db.$client;
  if (!client.inTransaction || !client.filename || client.filename === ":memory:") {
    return monthlyCount(client, tenantId, "test", OPERATIONS[operation], now);
  }
  const reader = new Database(client.filename, { readonly: true });
  try {
    return monthlyCount(reader, tenantId, "test", OPERATIONS[operation], now);
  } finally {
    reader.close();
  }
}

/**
 * Throws 403 TEST_USAGE_LIMIT when a test key's tenant has used this month's allowance of the
 * operation; production keys pass. For a caller inside a synchronous `sqlite.transaction` (course
 * creation), which records the usage event itself; chargeWithinTestCap is the seam's form.
 */
export function assertWithinTestCap(
  db: Db,
  auth: Pick<AuthContext, "tenantId" | "keyEnv">,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
): void {
  if (auth.keyEnv !== "test") return;
  const used = monthlyCount(db.$client, auth.tenantId, "test", OPERATIONS[operation], now);
  const limit = capOf(caps, operation);
  if (used < limit) return;
  const committed = committedCount(db, auth.tenantId, operation, now);
  throw capReached(operation, committed, limit, used - committed + 1);
}
