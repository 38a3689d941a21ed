/** Registering, listing and deleting a tenant's webhooks. The API shows a secret only in the registration response. */
import type { Database } from "bun:sqlite";
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
  sqlite: Database,
  allow: string[],
  tenantId: string,
  input: { url: string; events?: string[] },
): Promise<{ webhook: RegisteredWebhook; created: boolean }> {
  const events = parseEvents(input.events);
  const url = await checkWebhookUrl(input.url, allow);
  return saveWebhook(sqlite, tenantId, { url, events });
}

/**
 * Saves `url` for the tenant. The same URL registered again is the same webhook: its events
 * are replaced, it is active again, and it gets a new secret (the old one stops signing at once),
 * which is also how a lost secret is replaced. `created` tells the two cases apart.
 */
export function saveWebhook(
  sqlite: Database,
  tenantId: string,
  input: { url: string; events: SubscribableEvent[] },
): { webhook: RegisteredWebhook; created: boolean } {
  const events = JSON.stringify([...new Set(input.events)]);
  const secret = newWebhookSecret();
  const now = nowIso();
  return sqlite.transaction(() => {
    const existing = sqlite
      .query<{ id: string }, [string, string]>("SELECT id FROM webhooks WHERE tenant_id = ? AND url = ?")
      .get(tenantId, input.url);
    if (!existing) {
      const { n } = sqlite
        .query<{ n: number }, [string]>("SELECT count(*) AS n FROM webhooks WHERE tenant_id = ?")
        .get(tenantId)!;
      if (n >= MAX_WEBHOOKS_PER_TENANT) throw webhookLimit(MAX_WEBHOOKS_PER_TENANT);
    }
    const row = existing
      ? sqlite
          .query<WebhookRow, [string, string, string, string]>(
            `UPDATE webhooks SET events = ?, secret = ?, active = 1, deactivated_at = NULL, updated_at = ? WHERE id = ? RETURNING *`,
          )
          .get(events, secret, now, existing.id)!
      : sqlite
          .query<WebhookRow, [string, string, string, string, string, string, string]>(
            `INSERT INTO webhooks (id, tenant_id, url, events, secret, active, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, 1, ?, ?) RETURNING *`,
          )
          .get(newId(), tenantId, input.url, events, secret, now, now)!;
    return { webhook: { ...toWebhook(row), secret }, created: !existing };
  })();
}

export function listWebhooks(sqlite: Database, tenantId: string): Webhook[] {
  return sqlite
    .query<WebhookRow, [string]>("SELECT * FROM webhooks WHERE tenant_id = ? ORDER BY created_at DESC, rowid DESC")
    .all(tenantId)
    .map(toWebhook);
}

/** The tenant's webhook, or 404 (also for another tenant's: its existence is not disclosed). */
export function ownedWebhook(sqlite: Database, tenantId: string, id: string): WebhookTarget & Webhook {
  const row = sqlite
    .query<WebhookRow, [string, string]>("SELECT * FROM webhooks WHERE id = ? AND tenant_id = ?")
    .get(id, tenantId);
  if (!row) throw new AppError("WEBHOOK_NOT_FOUND", "No such webhook");
  return { ...toWebhook(row), tenant_id: row.tenant_id, secret: row.secret };
}

/** Deletes the webhook with its delivery log; its queued deliveries find nothing and end. */
export function deleteWebhook(sqlite: Database, tenantId: string, id: string): void {
  const res = sqlite.run("DELETE FROM webhooks WHERE id = ? AND tenant_id = ?", [id, tenantId]);
  if (res.changes === 0) throw new AppError("WEBHOOK_NOT_FOUND", "No such webhook");
}
