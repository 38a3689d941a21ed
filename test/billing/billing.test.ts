import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addUsage,
  chargeWithinTestCap,
  extractionCharge,
  monthBounds,
  monthlyTotals,
  PRICES_MICROS,
  testCapStatus,
  withTestCapCharge,
} from "../../src/billing/index.ts";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { AppError } from "../../src/errors.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { microsToUsd, newId } from "../../src/util.ts";

describe("prices", () => {
  test("PDFs and images are 0.002 USD per page", () => {
    expect(extractionCharge({ sourceType: "file", mimeType: "application/pdf", pages: 113, ok: true })).toEqual({
      operation: "extract.pages",
      quantity: 113,
      amountMicros: 226_000,
    });
    expect(extractionCharge({ sourceType: "file", mimeType: "image/webp", pages: 1, ok: true })!.amountMicros).toBe(
      2_000,
    );
  });

  test("DOCX, PPTX, HTML and other files are 0.001 USD per file, whatever their length", () => {
    for (const mime of [
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      "text/html",
      "text/plain",
    ]) {
      expect(extractionCharge({ sourceType: "file", mimeType: mime, pages: 40, ok: true })).toEqual({
        operation: "extract.documents",
        quantity: 1,
        amountMicros: 1_000,
      });
    }
  });

  test("a web URL is 0.001 USD even when it serves a PDF; a video is 0.0005 USD", () => {
    expect(
      extractionCharge({ sourceType: "web", mimeType: "application/pdf", pages: 14, ok: true })!.amountMicros,
    ).toBe(1_000);
    expect(extractionCharge({ sourceType: "youtube", mimeType: "video/youtube", pages: null, ok: true })).toEqual({
      operation: "extract.videos",
      quantity: 1,
      amountMicros: 500,
    });
  });

  test("failed entries are not billed", () => {
    expect(extractionCharge({ sourceType: "file", mimeType: "application/pdf", pages: 10, ok: false })).toBeNull();
  });

  test("sums are exact in micro-dollars where adding USD floats would drift", () => {
    // Eight videos then seven PDF pages: summed as floats this is 0.018000000000000002.
    const entries = [
      ...Array(8).fill(PRICES_MICROS.extractVideo),
      ...Array(7).fill(PRICES_MICROS.extractPage),
    ] as number[];
    expect(microsToUsd(entries.reduce((a, b) => a + b, 0))).toBe(0.018);
    expect(entries.reduce((a, b) => a + b / 1_000_000, 0)).not.toBe(0.018);
  });
});

describe("ledger and test-key caps", () => {
  let opened: OpenedDb;
  let dir: string;
  let tenantId: string;
  let otherTenant: string;
  const caps = { testKeyCoursesPerMonth: 5, testKeyQueriesPerMonth: 50 };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "cf-billing-"));
    opened = await openDb(dir);
    tenantId = (await ensureTenant(sqliteSql(opened.sqlite), "acme")).id;
    otherTenant = (await ensureTenant(sqliteSql(opened.sqlite), "globex")).id;
  });
  afterAll(() => {
    opened.sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lastMonth = () => {
    const d = new Date();
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 15)).toISOString();
  };

  test("monthly totals per operation, this month only, this tenant only", async () => {
    await addUsage(sqliteSql(opened.sqlite), {
      tenantId,
      keyEnv: "production",
      operation: "extract.pages",
      quantity: 13,
      amountMicros: 26_000,
    });
    await addUsage(sqliteSql(opened.sqlite), {
      tenantId,
      keyEnv: "test",
      operation: "extract.pages",
      quantity: 3,
      amountMicros: 6_000,
    });
    await addUsage(sqliteSql(opened.sqlite), {
      tenantId,
      keyEnv: "production",
      operation: "extract.documents",
      quantity: 1,
      amountMicros: 1_000,
    });
    await addUsage(sqliteSql(opened.sqlite), {
      tenantId,
      keyEnv: "production",
      operation: "notes",
      amountMicros: 50_000,
    });
    await addUsage(sqliteSql(opened.sqlite), {
      tenantId: otherTenant,
      keyEnv: "production",
      operation: "notes",
      amountMicros: 50_000,
    });
    opened.sqlite.run(
      "INSERT INTO usage_events (id, tenant_id, key_env, operation, quantity, amount_micros, created_at) VALUES (?, ?, 'production', 'notes', 1, 50000, ?)",
      [newId(), tenantId, lastMonth()],
    );
    expect(await monthlyTotals(sqliteSql(opened.sqlite), tenantId, new Date())).toEqual([
      { operation: "extract.documents", events: 1, quantity: 1, amountMicros: 1_000 },
      { operation: "extract.pages", events: 2, quantity: 16, amountMicros: 32_000 },
      { operation: "notes", events: 1, quantity: 1, amountMicros: 50_000 },
    ]);
  });

  test("month bounds are the UTC calendar month", () => {
    expect(monthBounds(new Date("2025-12-31T23:59:59Z"))).toEqual({
      start: "2025-12-01T00:00:00.000Z",
      end: "2026-01-01T00:00:00.000Z",
    });
  });

  test("a test key gets 5 courses a month, then 403 TEST_USAGE_LIMIT; production keys are not capped", async () => {
    const db = sqliteSql(opened.sqlite);
    const charge = () => chargeWithinTestCap(db, "course", caps, new Date(), { tenantId, keyEnv: "test" });
    for (let i = 0; i < 5; i++) await charge();
    const err = await charge().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(403);
    expect((err as AppError).code).toBe("TEST_USAGE_LIMIT");
    expect((err as AppError).message).toContain("5 courses");
    await chargeWithinTestCap(db, "course", caps, new Date(), { tenantId, keyEnv: "production" });
    expect(await testCapStatus(db, tenantId, "course", caps, new Date())).toEqual({ used: 5, limit: 5 });
  });

  test("work that fails gives its charge back", async () => {
    const db = sqliteSql(opened.sqlite);
    const fresh = (await ensureTenant(db, "refunded")).id;
    const event = { tenantId: fresh, keyEnv: "test" as const };
    const failing = withTestCapCharge(db, "query", caps, new Date(), event, async () => {
      throw new Error("the model is down");
    });
    await expect(failing).rejects.toThrow("the model is down");
    expect(await testCapStatus(db, fresh, "query", caps, new Date())).toMatchObject({ used: 0 });
    expect(await withTestCapCharge(db, "query", caps, new Date(), event, async () => "answered")).toBe("answered");
    expect(await testCapStatus(db, fresh, "query", caps, new Date())).toMatchObject({ used: 1 });
  });

  test("production courses, last month's courses and other tenants' do not count toward the cap", async () => {
    const fresh = (await ensureTenant(sqliteSql(opened.sqlite), "initech")).id;
    await addUsage(sqliteSql(opened.sqlite), { tenantId: fresh, keyEnv: "production", operation: "query" });
    await addUsage(sqliteSql(opened.sqlite), { tenantId, keyEnv: "test", operation: "query" });
    for (let i = 0; i < 60; i++) {
      opened.sqlite.run(
        "INSERT INTO usage_events (id, tenant_id, key_env, operation, quantity, amount_micros, created_at) VALUES (?, ?, 'test', 'query', 1, 0, ?)",
        [newId(), fresh, lastMonth()],
      );
    }
    expect(await testCapStatus(sqliteSql(opened.sqlite), fresh, "query", caps, new Date())).toEqual({
      used: 0,
      limit: 50,
    });
    await chargeWithinTestCap(sqliteSql(opened.sqlite), "query", caps, new Date(), { tenantId: fresh, keyEnv: "test" });
  });

  test("the 50 query cap", async () => {
    const t = (await ensureTenant(sqliteSql(opened.sqlite), "hooli")).id;
    for (let i = 0; i < 50; i++)
      await addUsage(sqliteSql(opened.sqlite), { tenantId: t, keyEnv: "test", operation: "query" });
    const over = chargeWithinTestCap(sqliteSql(opened.sqlite), "query", caps, new Date(), {
      tenantId: t,
      keyEnv: "test",
    });
    await expect(over).rejects.toThrow("50 queries");
  });
});
