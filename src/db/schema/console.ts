/** Drizzle view of migration 0012 (src/db/migrations/0012_console_sessions.sql). */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns.ts";

export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    keyId: text("key_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("console_sessions_expires").on(t.expiresAt), index("console_sessions_key").on(t.keyId)],
);
