/**
 * Test keys are capped per calendar month (UTC): TEST_KEY_COURSES_PER_MONTH courses and
 * TEST_KEY_QUERIES_PER_MONTH queries, counted over the tenant's test-key usage events.
 */
import { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../errors.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { monthlyCount } from "./ledger.ts";
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

export function testCapStatus(
  db: Db,
  tenantId: string,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
): CapStatus {
  return {
    used: monthlyCount(db.$client, tenantId, "test", OPERATIONS[operation], now),
    limit: capOf(caps, operation),
  };
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
 * operation; production keys pass. Call it before recording the operation's usage event.
 */
export function assertWithinTestCap(
  db: Db,
  auth: Pick<AuthContext, "tenantId" | "keyEnv">,
  operation: CappedOperation,
  caps: TestCaps,
  now: Date,
): void {
  if (auth.keyEnv !== "test") return;
  const { used, limit } = testCapStatus(db, auth.tenantId, operation, caps, now);
  if (used < limit) return;
  // The message states what stays used once this request is refused.
  const committed = committedCount(db, auth.tenantId, operation, now);
  const requested = used - committed + 1;
  const label = LABELS[operation];
  const needs = requested > 1 ? `; this request needs ${requested}` : "";
  throw new AppError(
    "TEST_USAGE_LIMIT",
    `This test key has used ${committed} of its ${limit} ${label} for this month${needs}; use a production key or wait until the 1st (UTC)`,
    { operation, used: committed, limit, requested },
  );
}
