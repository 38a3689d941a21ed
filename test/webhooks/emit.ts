/** Records an event straight into a server's database, as the generation job does in its transaction. */
import { openDb } from "../../src/db/index.ts";
import type { EmittedEvent } from "../../src/webhooks/events.ts";
import { recordEvent } from "../../src/webhooks/outbox.ts";

export async function emit(dataDir: string, tenant: string, event: EmittedEvent, data: Record<string, unknown>): Promise<void> {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    const { id } = sqlite.query<{ id: string }, [string]>("SELECT id FROM tenants WHERE name = ?").get(tenant)!;
    sqlite.transaction(() => recordEvent(sqlite, { tenantId: id, event, data }))();
  } finally {
    sqlite.close();
  }
}
