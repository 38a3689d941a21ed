/**
 * Test keys are capped per calendar month (UTC): TEST_KEY_COURSES_PER_MONTH courses and
 * TEST_KEY_QUERIES_PER_MONTH queries, counted over the tenant's test-key usage events.
 */
import { loadConfig, type Config } from "../config.ts";
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

export function testCapStatus(db: Db, tenantId: string, operation: CappedOperation, caps: TestCaps, now = new Date()): CapStatus {
  return { used: monthlyCount(db, tenantId, "test", OPERATIONS[operation], now), limit: capOf(caps, operation) };
}

/**
 * Throws 403 TEST_USAGE_LIMIT when a test key's tenant has used this month's allowance of the
 * operation; production keys pass. Call it before recording the operation's usage event.
 */
export function assertWithinTestCap(db: Db, auth: Pick<AuthContext, "tenantId" | "keyEnv">, operation: CappedOperation, caps: TestCaps = loadConfig()): void {
  if (auth.keyEnv !== "test") return;
  const { used, limit } = testCapStatus(db, auth.tenantId, operation, caps);
  if (used >= limit) {
    throw new AppError(
      403,
      "TEST_USAGE_LIMIT",
      `This test key has used its ${limit} ${LABELS[operation]} for this month; use a production key or wait until the 1st (UTC)`,
      { operation, used, limit },
    );
  }
}
