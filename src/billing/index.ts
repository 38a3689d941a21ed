/** Usage ledger, prices and test-key caps. */

export {
  addUsage,
  billedKeyEnv,
  billedMicros,
  monthBounds,
  monthlyCount,
  monthlyTotals,
  type OperationTotal,
  type UsageEvent,
} from "./ledger.ts";
export { type Charge, extractionCharge, OPERATIONS, PRICES_MICROS } from "./prices.ts";
export {
  type CappedOperation,
  type CapStatus,
  chargeWithinTestCap,
  reserveTestCap,
  type TestCaps,
  testCapStatus,
  withTestCapCharge,
} from "./test-caps.ts";
