/** Usage ledger, prices and test-key caps. */
export { extractionCharge, OPERATIONS, PRICES_MICROS, type Charge } from "./prices.ts";
export { monthBounds, monthlyCount, monthlyTotals, recordUsage, type OperationTotal, type UsageEvent } from "./ledger.ts";
export { assertWithinTestCap, testCapStatus, type CappedOperation, type CapStatus, type TestCaps } from "./test-caps.ts";
