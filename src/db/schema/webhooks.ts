/** Drizzle view of migration 0008 (src/db/migrations/0008_webhooks.sql). */
import { index, integer, sqliteTable, text, unique, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, updatedAt } from "./columns.ts";

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deactivatedAt: text("deactivated_at"),
  },
  (t) => [uniqueIndex("webhooks_tenant_url").on(t.tenantId, t.url)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    webhookId: text("webhook_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    event: text("event").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed", "canceled"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    jobId: text("job_id"),
    nextAttemptAt: text("next_attempt_at"),
    createdAt: createdAt(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("webhook_deliveries_webhook").on(t.webhookId)],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: id(),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    ok: integer("ok", { mode: "boolean" }).notNull(),
  },
  (t) => [unique("webhook_attempts_delivery_attempt").on(t.deliveryId, t.attempt)],
);
