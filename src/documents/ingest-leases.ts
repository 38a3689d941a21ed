/**
 * Leases on uploads' ingestion, for several nodes on one PostgreSQL. An upload is ingested inside
 * its request, on the node that received it; a node that dies mid-request never answers, so nothing
 * acknowledged is lost, but its records would stay `processing` for ever if the node never comes
 * back (a restart ends only its own: failInterruptedDocuments). So each node renews the lease of
 * every upload it is ingesting, in one statement every third of the lease, and ends another node's
 * uploads whose lease ran out as errors that say to send the source again. A course's sources are
 * left alone, as at start: the course's resumed job ingests them. On SQLite one server owns the
 * data directory and its start ends what the last one left.
 */
import { type Clock, isoAfter, isoNow } from "../clock.ts";
import { type Sql, sql } from "../db/sql.ts";
import type { Logger } from "../log.ts";
import { abandonedUploads, failDocument } from "./records.ts";

export const ABANDONED_UPLOAD = "Processing was interrupted: the node ingesting it stopped; send the source again";

/** Extends the lease of every upload `node` is still ingesting; the number renewed. */
export function renewIngestLeases(db: Sql, node: string, until: string): Promise<number> {
  return db.run(
    sql`UPDATE documents SET ingest_lease_until = ${until} WHERE ingest_node = ${node} AND status = 'processing'`,
  );
}

/** Ends the uploads of other nodes whose lease ran out before `now`; the number ended. */
export async function failAbandonedUploads(db: Sql, node: string, now: string): Promise<number> {
  const ids = await abandonedUploads(db, node, now);
  for (const id of ids) await failDocument({ sql: db }, id, ABANDONED_UPLOAD);
  return ids.length;
}

export interface IngestLeaseDeps {
  sql: Sql;
  log: Logger;
  clock: Clock;
  node: string;
}

/** Renews this node's leases and ends abandoned uploads every third of `leaseSeconds`; returns the stop. */
export function keepIngestLeases(svc: IngestLeaseDeps, leaseSeconds: number): () => void {
  let busy = false;
  const beat = async () => {
    // A beat slower than the interval (a loaded database) is not run twice at once.
    if (busy) return;
    busy = true;
    try {
      await renewIngestLeases(svc.sql, svc.node, isoAfter(svc.clock, leaseSeconds));
      const ended = await failAbandonedUploads(svc.sql, svc.node, isoNow(svc.clock));
      if (ended > 0) svc.log.warn("uploads of a node that stopped marked as errors", { count: ended });
    } catch (err) {
      svc.log.error("the uploads' ingestion leases could not be renewed", {
        error: err instanceof Error ? err.message : String(err),
      });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(beat, Math.max(500, (leaseSeconds * 1000) / 3));
  timer.unref();
  return () => clearInterval(timer);
}
