/** Records an event straight into a server's database, as the generation job does in its transaction. */
import { systemClock } from "../../src/clock.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { keyAuthenticator } from "../../src/tenants/keys.ts";
import { jobDeliveryQueue } from "../../src/webhooks/delivery-queue.ts";
import type { EmittedEvent } from "../../src/webhooks/events.ts";
import { queueEvent } from "../../src/webhooks/outbox.ts";

/** The event is the data of `apiKey`'s tenant and environment, as if that key had started the course. */
export async function emit(
  dataDir: string,
  apiKey: string,
  event: EmittedEvent,
  data: Record<string, unknown>,
): Promise<void> {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    const { tenantId } = (await keyAuthenticator(sqliteSql(sqlite))(apiKey))!;
    // IMMEDIATE: the write lock is taken first (waiting out the server's writes), not after the read,
    // where a write the server committed in between would fail this one at once with SQLITE_BUSY.
    // The seam's transaction inside it is a savepoint of it.
    sqlite.run("BEGIN IMMEDIATE");
    try {
      await queueEvent(sqliteSql(sqlite), jobDeliveryQueue(systemClock), systemClock, { tenantId, event, data });
      sqlite.run("COMMIT");
    } catch (err) {
      sqlite.run("ROLLBACK");
      throw err;
    }
  } finally {
    sqlite.close();
  }
}
