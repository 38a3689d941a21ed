/**
 * The worker's statements on `jobs`, written once for both engines: the claim (tenants' turns, a
 * lease with its token), lease renewal, and the ends of a run, each fenced by the lease it was
 * given, so a run that lost its lease changes nothing. A job back in the queue, or ended, is
 * announced on the event bus in the same transaction, for idle workers and followers of any node.
 */
import { byDialect, forUpdateSkipLocked, inJsonArray, type Query, raw, type Sql, sql } from "../db/sql.ts";
import { announce, CHANNELS } from "../events/bus.ts";
import type { JobRow } from "./row.ts";

/** A lease as the worker hands it out and fences its writes with. */
export interface Lease {
  owner: string;
  token: string;
}

export interface ClaimRequest extends Lease {
  now: string;
  leaseUntil: string;
  /** Types with a free slot in this worker. */
  types: readonly string[];
  /** "type|tenant" keys that may not take another slot now. */
  fullTenants: readonly string[];
  /** When each "type|tenant" and "type|tenant|user" was last served (a turn number); absent is never. */
  served: Readonly<Record<string, number>>;
}

const tenantKey = "type || '|' || coalesce(tenant_id, '')";
const learnerKey = `${tenantKey} || '|' || coalesce(user_id, '')`;

/** The turn `served` (a JSON object) gives the key `keyExpr` of a row; -1, first, when never served. */
function turnOf(served: string, keyExpr: string): Query {
  return byDialect({
    sqlite: sql`coalesce(json_extract(${served}, '$."' || ${raw(keyExpr)} || '"'), -1)`,
    postgres: sql`coalesce((${served}::text::jsonb ->> (${raw(keyExpr)}))::integer, -1)`,
  });
}

/**
 * Whether a job of `types` is due: a read first, because on SQLite the claim's UPDATE takes the
 * database's write lock even when no job is due, and waits for it (busy_timeout, on the server's
 * thread) while an extraction process writes chunks.
 */
export async function anyDue(db: Sql, now: string, types: readonly string[]): Promise<boolean> {
  const row = await db.get(
    sql`SELECT 1 AS due FROM jobs WHERE status = 'queued' AND run_after <= ${now} AND ${inJsonArray("type", types)} LIMIT 1`,
  );
  return row !== null;
}

/**
 * Takes the next due job and leases it; only queued ones, so a worker never takes a lease it (or
 * anyone) holds. Tenants take turns (the one served longest ago first, then its learner served
 * longest ago), then the oldest job. One statement, so one transaction: on PostgreSQL the row it
 * picks is locked and rows other claimers hold are skipped, so each job goes to one claimer.
 */
export function claimNext(db: Sql, c: ClaimRequest): Promise<JobRow | null> {
  const served = JSON.stringify(c.served);
  return db.get<JobRow>(
    sql`UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_owner = ${c.owner}, lease_token = ${c.token},
               lease_until = ${c.leaseUntil}, updated_at = ${c.now}, started_at = coalesce(started_at, ${c.now})
         WHERE status = 'queued'
           AND id = (SELECT id FROM jobs
                      WHERE status = 'queued' AND run_after <= ${c.now} AND ${inJsonArray("type", c.types)}
                        AND NOT ${inJsonArray(tenantKey, c.fullTenants)}
                      ORDER BY ${turnOf(served, tenantKey)}, ${turnOf(served, learnerKey)}, run_after, created_at
                      LIMIT 1${forUpdateSkipLocked})
         RETURNING *`,
  );
}

/** Distinct type and tenant of the queued jobs that have a tenant: who else is waiting for a slot. */
export function waitingTenants(db: Sql): Promise<{ type: string; tenant_id: string }[]> {
  return db.all(sql`SELECT DISTINCT type, tenant_id FROM jobs WHERE status = 'queued' AND tenant_id IS NOT NULL`);
}

export function runningJobs(db: Sql): Promise<JobRow[]> {
  return db.all<JobRow>(sql`SELECT * FROM jobs WHERE status = 'running'`);
}

/** Running jobs of `types` whose lease ran out, held by anyone but `owner` (its own runs renew theirs). */
export function expiredLeases(db: Sql, now: string, owner: string, types: readonly string[]): Promise<JobRow[]> {
  return db.all<JobRow>(
    sql`SELECT * FROM jobs WHERE status = 'running' AND (lease_until IS NULL OR lease_until < ${now})
           AND (lease_owner IS NULL OR lease_owner <> ${owner}) AND ${inJsonArray("type", types)}`,
  );
}

/**
 * The next time the queue changes for a worker by time alone, with nothing announced: the
 * earliest future `run_after` of a queued job (a retry's delay) and the earliest lease of another
 * worker still running (its process may die). Null when neither exists.
 */
export async function nextChange(
  db: Sql,
  now: string,
  owner: string,
  types: readonly string[],
): Promise<string | null> {
  const row = await db.get<{ at: string | null }>(
    sql`SELECT min(at) AS at FROM (
          SELECT min(run_after) AS at FROM jobs WHERE status = 'queued' AND run_after > ${now} AND ${inJsonArray("type", types)}
          UNION ALL
          SELECT min(lease_until) AS at FROM jobs WHERE status = 'running' AND lease_owner <> ${owner} AND ${inJsonArray("type", types)}
        ) AS due`,
  );
  return row?.at ?? null;
}

/** Extends the lease while the run holds it; false when it no longer does. */
export async function renewLease(db: Sql, id: string, lease: Lease, until: string): Promise<boolean> {
  const n = await db.run(
    sql`UPDATE jobs SET lease_until = ${until}
         WHERE id = ${id} AND status = 'running' AND lease_owner = ${lease.owner} AND lease_token = ${lease.token}`,
  );
  return n > 0;
}

/** Ends the run's job completed or failed; false when the run no longer holds its lease (nothing is written). */
export async function finishRun(
  db: Sql,
  id: string,
  lease: Lease,
  end: { status: "completed" | "failed"; result: string | null; error: string | null; now: string },
): Promise<boolean> {
  const n = await db.run(
    sql`UPDATE jobs SET status = ${end.status}, result = ${end.result}, error = ${end.error}, lease_owner = NULL,
               lease_until = NULL, lease_token = NULL, finished_at = ${end.now}, updated_at = ${end.now}
         WHERE id = ${id} AND lease_owner = ${lease.owner} AND lease_token = ${lease.token}`,
  );
  if (n > 0) await announce(db, CHANNELS.jobEnded, id);
  return n > 0;
}

/** Back to the queue after a failed attempt, to run again at `runAfter`; false when the lease is gone. */
export async function retryLater(
  db: Sql,
  id: string,
  lease: Lease,
  r: { error: string; runAfter: string; now: string },
): Promise<boolean> {
  const n = await db.run(
    sql`UPDATE jobs SET status = 'queued', error = ${r.error}, run_after = ${r.runAfter}, lease_owner = NULL,
               lease_until = NULL, lease_token = NULL, updated_at = ${r.now}
         WHERE id = ${id} AND lease_owner = ${lease.owner} AND lease_token = ${lease.token}`,
  );
  return n > 0;
}

/** Back to the queue after a graceful stop: a run cut short by a stop is not an attempt, so its count is given back. */
export async function giveBack(db: Sql, id: string, lease: Lease, now: string): Promise<boolean> {
  const n = await db.run(
    sql`UPDATE jobs SET status = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
               lease_owner = NULL, lease_until = NULL, lease_token = NULL, run_after = ${now}, updated_at = ${now}
         WHERE id = ${id} AND status = 'running' AND lease_owner = ${lease.owner} AND lease_token = ${lease.token}`,
  );
  if (n > 0) await announce(db, CHANNELS.jobQueued, id);
  return n > 0;
}

/** `lease_token` is the one `job` was seen with (NULL too): two workers recovering one stall count it once. */
const sameLease = (job: JobRow): Query =>
  job.lease_token === null ? sql`lease_token IS NULL` : sql`lease_token = ${job.lease_token}`;

/** A stalled run's job back to the queue with `stalls` counted; false when someone else moved it first. */
export async function requeueStalled(db: Sql, job: JobRow, stalls: number, now: string): Promise<boolean> {
  const n = await db.run(
    sql`UPDATE jobs SET status = 'queued', stalls = ${stalls}, lease_owner = NULL, lease_until = NULL, lease_token = NULL,
               run_after = ${now}, updated_at = ${now}
         WHERE id = ${job.id} AND status = 'running' AND ${sameLease(job)}`,
  );
  if (n > 0) await announce(db, CHANNELS.jobQueued, job.id);
  return n > 0;
}

/** A stalled run's job failed for good with `error`; false when someone else moved it first. */
export async function failStalled(db: Sql, job: JobRow, stalls: number, error: string, now: string): Promise<boolean> {
  const n = await db.run(
    sql`UPDATE jobs SET status = 'failed', stalls = ${stalls}, error = ${error}, lease_owner = NULL, lease_until = NULL,
               lease_token = NULL, finished_at = ${now}, updated_at = ${now}
         WHERE id = ${job.id} AND status = 'running' AND ${sameLease(job)}`,
  );
  if (n > 0) await announce(db, CHANNELS.jobEnded, job.id);
  return n > 0;
}
