/** Registering, listing and deleting a tenant's webhooks. The API shows a secret only in the registration response. */
import { type Sql, sql } from "../db/sql.ts";
import { AppError, webhookLimit } from "../errors.ts";
import { newId, nowIso } from "../util.ts";
import { parseEvents, type SubscribableEvent } from "./events.ts";
import { newWebhookSecret } from "./signing.ts";
import { checkWebhookUrl } from "./webhook-url.ts";

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
}

export interface RegisteredWebhook extends Webhook {
  secret: string;
}

/** A webhook with what delivery needs; never returned by the API. */
export interface WebhookTarget {
  id: string;
  tenant_id: string;
  url: string;
  secret: string;
  active: boolean;
}

const COLUMNS = sql`id, tenant_id, url, events, secret, active, created_at`;

interface WebhookRow {
  id: string;
  tenant_id: string;
  url: string;
  events: string;
  secret: string;
  active: number;
  created_at: string;
}

const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  active: r.active === 1,
  created_at: r.created_at,
});

/**
 * Webhooks one tenant may have registered (active or not; each key environment counts apart).
 * Every event is one delivery per webhook, so the number bounds the work one event can queue.
 */
export const MAX_WEBHOOKS_PER_TENANT = 20;

/** POST /v2/webhooks: 422 for an unknown event or a URL that is not https, too long or internal; then saves. */
export async function registerWebhook(
  db: Sql,
  allow: string[],
  tenantId: string,
  input: { url: string; events?: string[] },
): Promise<{ webhook: RegisteredWebhook; created: boolean }> {
  const events = parseEvents(input.events);
  const url = await checkWebhookUrl(input.url, allow);
  return saveWebhook(db, tenantId, { url, events });
}

/**
 * Saves `url` for the tenant. The same URL registered again is the same webhook: its events
 * are replaced, it is active again, and it gets a new secret (the old one stops signing at once),
 * which is also how a lost secret is replaced. `created` tells the two cases apart.
 */
export function saveWebhook(
  db: Sql,
  tenantId: string,
  input: { url: string; events: SubscribableEvent[] },
): Promise<{ webhook: RegisteredWebhook; created: boolean }> {
  const events = JSON.stringify([...new Set(input.events)]);
  const secret = newWebhookSecret();
  const now = nowIso();
  return db.transaction(async (tx) => {
    await tx.lock(`webhooks:${tenantId}`);
    const existing = await tx.get<{ id: string }>(
      sql`SELECT id FROM webhooks WHERE tenant_id = ${tenantId} AND url = ${input.url}`,
    );
    if (!existing) {
      const { n } = (await tx.get<{ n: number }>(
        sql`SELECT CAST(count(*) AS INTEGER) AS n FROM webhooks WHERE tenant_id = ${tenantId}`,
      ))!;
      if (n >= MAX_WEBHOOKS_PER_TENANT) throw webhookLimit(MAX_WEBHOOKS_PER_TENANT);
    }
    const row = existing
      ? await tx.get<WebhookRow>(
          sql`UPDATE webhooks SET events = ${events}, secret = ${secret}, active = 1, deactivated_at = NULL, updated_at = ${now}
               WHERE id = ${existing.id} RETURNING ${COLUMNS}`,
        )
      : await tx.get<WebhookRow>(
          sql`INSERT INTO webhooks (id, tenant_id, url, events, secret, active, created_at, updated_at)
              VALUES (${newId()}, ${tenantId}, ${input.url}, ${events}, ${secret}, 1, ${now}, ${now}) RETURNING ${COLUMNS}`,
        );
    return { webhook: { ...toWebhook(row!), secret }, created: !existing };
  });
}

export async function listWebhooks(db: Sql, tenantId: string): Promise<Webhook[]> {
  const rows = await db.all<WebhookRow>(
    sql`SELECT ${COLUMNS} FROM webhooks WHERE tenant_id = ${tenantId} ORDER BY created_at DESC, rowid DESC`,
  );
  return rows.map(toWebhook);
}

/** The tenant's webhook, or 404 (also for another tenant's: its existence is not disclosed). */
export async function ownedWebhook(db: Sql, tenantId: string, id: string): Promise<WebhookTarget & Webhook> {
  const row = await db.get<WebhookRow>(
    sql`SELECT ${COLUMNS} FROM webhooks WHERE id = ${id} AND tenant_id = ${tenantId}`,
  );
  if (!row) throw new AppError("WEBHOOK_NOT_FOUND", "No such webhook");
  return { ...toWebhook(row), tenant_id: row.tenant_id, secret: row.secret };
}

/** Deletes the webhook with its delivery log; its queued deliveries find nothing and end. */
export async function deleteWebhook(db: Sql, tenantId: string, id: string): Promise<void> {
  const changed = await db.run(sql`DELETE FROM webhooks WHERE id = ${id} AND tenant_id = ${tenantId}`);
  if (changed === 0) throw new AppError("WEBHOOK_NOT_FOUND", "No such webhook");
}
