/**
 * The persistent job queue: rows in `jobs`, claimed with a lease. A job's handler commits its own
 * progress (e.g. chapter by chapter), so a job that is re-run after a crash or a graceful stop
 * continues from its last commit instead of starting over.
 */
import type { Database } from "bun:sqlite";
import { hostname } from "node:os";
import { type FailureReason, toFailureReason } from "../errors.ts";
import type { Logger } from "../log.ts";
import { jobDuration } from "../metrics.ts";
import { newId, nowIso } from "../util.ts";

export type JobStatus = "queued" | "running" | "completed" | "failed";

export interface JobRow {
  id: string;
  tenant_id: string | null;
  user_id: string | null;
  type: string;
  status: JobStatus;
  payload: string;
  result: string | null;
  error: string | null;
  course_id: string | null;
  request_id: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface NewJob {
  type: string;
  tenantId?: string | null;
  userId?: string | null;
  courseId?: string | null;
  requestId?: string | null;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
  runAfter?: Date;
  id?: string;
}

export interface JobContext {
  /** Aborted when the server shuts down: stop at the next commit point and return. */
  signal: AbortSignal;
  log: Logger;
}

export interface JobHandler {
  run(job: JobRow, ctx: JobContext): Promise<unknown>;
  /**
   * Called once when the job ends failed (not retried any more), so the domain can record the
   * failure (course status, events) in one transaction.
   */
  onFailure?(job: JobRow, reason: FailureReason): void;
  /** Jobs of this type run at once, at most (default JOB_CONCURRENCY). */
  concurrency?: number;
  /**
   * Jobs of this type of one tenant that run at once, at most: the rest of `concurrency` stays
   * free for other tenants, so one tenant's backlog cannot hold every slot (webhook deliveries).
   */
  perTenant?: number;
  /** Seconds to wait before retry n (1-based); default 5 · 4^(n-1). */
  retryDelaySeconds?(attempt: number): number;
}

/** A thrown error with `retriable: false` fails the job at once instead of retrying it. */
export function isRetriable(err: unknown): boolean {
  return !(typeof err === "object" && err !== null && (err as { retriable?: boolean }).retriable === false);
}

/** Marker a handler returns when it stopped early for shutdown; the job goes back to the queue. */
export const INTERRUPTED = Symbol("interrupted");

type Wake = () => void;
const wakers = new Set<Wake>();

export function enqueueJob(sqlite: Database, job: NewJob): JobRow {
  const now = nowIso();
  const row = sqlite
    .query<JobRow, Record<string, string | number | null>>(
      `INSERT INTO jobs (id, tenant_id, user_id, type, status, payload, course_id, request_id, max_attempts, run_after, created_at, updated_at)
       VALUES ($id, $tenant, $user, $type, 'queued', $payload, $course, $request, $max, $runAfter, $now, $now) RETURNING *`,
    )
    .get({
      id: job.id ?? newId(),
      tenant: job.tenantId ?? null,
      user: job.userId ?? null,
      type: job.type,
      payload: JSON.stringify(job.payload ?? {}),
      course: job.courseId ?? null,
      request: job.requestId ?? null,
      max: job.maxAttempts ?? 3,
      runAfter: (job.runAfter ?? new Date()).toISOString(),
      now,
    })!;
  // Wake idle workers of this process right away instead of at the next poll.
  queueMicrotask(() => {
    for (const w of wakers) w();
  });
  return row;
}

export function getJob(sqlite: Database, id: string): JobRow | null {
  return sqlite.query<JobRow, [string]>("SELECT * FROM jobs WHERE id = ?").get(id);
}

/** The newest job of one type for a course (e.g. its current or last generation run, not a podcast job). */
export function latestCourseJob(sqlite: Database, courseId: string, type: string): JobRow | null {
  return sqlite
    .query<JobRow, [string, string]>(
      "SELECT * FROM jobs WHERE course_id = ? AND type = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
    .get(courseId, type);
}

/** A queued or running job of the course, if any. */
export function activeCourseJob(sqlite: Database, courseId: string): JobRow | null {
  return sqlite
    .query<JobRow, [string]>("SELECT * FROM jobs WHERE course_id = ? AND status IN ('queued', 'running') LIMIT 1")
    .get(courseId);
}

export function queueDepth(sqlite: Database): Record<JobStatus, number> {
  const out: Record<JobStatus, number> = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const r of sqlite
    .query<{ status: JobStatus; n: number }, []>("SELECT status, count(*) AS n FROM jobs GROUP BY status")
    .all()) {
    out[r.status] = r.n;
  }
  return out;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface WorkerOptions {
  concurrency: number;
  leaseSeconds: number;
  pollMs?: number;
}

/**
 * Runs queued jobs with bounded concurrency. One worker per server process; leases let a job
 * whose process died be taken over (at start when that process is gone, or when its lease runs out).
 */
export class JobWorker {
  readonly owner = `${hostname()}:${process.pid}:${Date.now()}`;
  private running = new Map<
    string,
    { type: string; tenantId: string | null; abort: AbortController; done: Promise<void> }
  >();
  private timer: Timer | null = null;
  private heartbeat: Timer | null = null;
  private stopped = true;
  private ticking = false;
  private readonly wake: Wake = () => this.schedule(0);

  constructor(
    private readonly sqlite: Database,
    private readonly log: Logger,
    private readonly handlers: Record<string, JobHandler>,
    private readonly opts: WorkerOptions,
  ) {}

  /** Requeues jobs left running by a process that is gone, then starts polling. */
  start(): void {
    const host = hostname();
    const orphaned = this.sqlite
      .query<{ id: string; lease_owner: string | null; lease_until: string | null }, []>(
        "SELECT id, lease_owner, lease_until FROM jobs WHERE status = 'running'",
      )
      .all()
      .filter((j) => {
        const [h, pid] = (j.lease_owner ?? "").split(":");
        const expired = !j.lease_until || j.lease_until < nowIso();
        return expired || h !== host || !pidAlive(Number(pid));
      });
    for (const j of orphaned) this.release(j.id);
    if (orphaned.length > 0) this.log.info("resuming interrupted jobs", { count: orphaned.length });
    this.stopped = false;
    wakers.add(this.wake);
    this.heartbeat = setInterval(() => this.renewLeases(), Math.max(500, (this.opts.leaseSeconds * 1000) / 3));
    this.schedule(0);
  }

  /** Stops claiming, asks running handlers to stop at their next commit point, and waits up to graceMs. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    wakers.delete(this.wake);
    if (this.timer) clearTimeout(this.timer);
    for (const r of this.running.values()) r.abort.abort();
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    await Promise.race([all, Bun.sleep(graceMs)]);
    if (this.heartbeat) clearInterval(this.heartbeat);
    // Whatever is still running is handed back to the queue; the next start resumes it.
    for (const id of this.running.keys()) this.release(id);
  }

  get activeCount(): number {
    return this.running.size;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
  }

  private tick(): void {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      for (;;) {
        const job = this.claim();
        if (!job) break;
        this.launch(job);
      }
    } catch (err) {
      this.log.error("job claim failed", { error: String(err) });
    } finally {
      this.ticking = false;
    }
    this.schedule(this.opts.pollMs ?? 500);
  }

  private freeTypes(): string[] {
    const counts = new Map<string, number>();
    for (const r of this.running.values()) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
    const busyDefault = [...this.running.values()].filter(
      (r) => this.handlers[r.type]?.concurrency === undefined,
    ).length;
    return Object.entries(this.handlers)
      .filter(([type, h]) =>
        h.concurrency === undefined ? busyDefault < this.opts.concurrency : (counts.get(type) ?? 0) < h.concurrency,
      )
      .map(([type]) => type);
  }

  /** [type, tenant] pairs at their type's per-tenant limit. */
  private fullTenants(): [string, string][] {
    const counts = new Map<string, { type: string; tenantId: string; n: number }>();
    for (const r of this.running.values()) {
      if (r.tenantId === null || this.handlers[r.type]?.perTenant === undefined) continue;
      const k = `${r.type}\u0000${r.tenantId}`;
      const c = counts.get(k) ?? { type: r.type, tenantId: r.tenantId, n: 0 };
      c.n++;
      counts.set(k, c);
    }
    return [...counts.values()]
      .filter((c) => c.n >= this.handlers[c.type]!.perTenant!)
      .map((c) => [c.type, c.tenantId]);
  }

  private claim(): JobRow | null {
    const types = this.freeTypes();
    if (types.length === 0) return null;
    const now = nowIso();
    const leaseUntil = new Date(Date.now() + this.opts.leaseSeconds * 1000).toISOString();
    // A run starts an attempt; taking over an expired lease continues the attempt it cut off.
    return this.sqlite
      .query<JobRow, Record<string, string>>(
        `UPDATE jobs SET status = 'running', attempts = attempts + (status = 'queued'), lease_owner = $owner, lease_until = $lease, updated_at = $now,
                started_at = coalesce(started_at, $now)
          WHERE id = (SELECT id FROM jobs
                       WHERE type IN (SELECT value FROM json_each($types))
                         AND ((status = 'queued' AND run_after <= $now) OR (status = 'running' AND lease_until < $now))
                         AND NOT EXISTS (SELECT 1 FROM json_each($full) f
                                          WHERE f.value ->> 0 = jobs.type AND f.value ->> 1 = jobs.tenant_id)
                       ORDER BY run_after, created_at LIMIT 1)
          RETURNING *`,
      )
      .get({
        owner: this.owner,
        lease: leaseUntil,
        now,
        types: JSON.stringify(types),
        full: JSON.stringify(this.fullTenants()),
      });
  }

  private launch(job: JobRow): void {
    const handler = this.handlers[job.type]!;
    const abort = new AbortController();
    const done = (async () => {
      const started = performance.now();
      try {
        const result = await handler.run(job, { signal: abort.signal, log: this.log });
        if (result === INTERRUPTED) {
          this.release(job.id);
          jobDuration.observe({ type: job.type, outcome: "interrupted" }, (performance.now() - started) / 1000);
          return;
        }
        this.finish(job.id, "completed", result === undefined ? null : JSON.stringify(result), null);
        jobDuration.observe({ type: job.type, outcome: "completed" }, (performance.now() - started) / 1000);
        this.log.info("job completed", {
          job_id: job.id,
          type: job.type,
          duration_ms: Math.round(performance.now() - started),
        });
      } catch (err) {
        jobDuration.observe({ type: job.type, outcome: "failed" }, (performance.now() - started) / 1000);
        this.fail(job, handler, err);
      } finally {
        this.running.delete(job.id);
        this.schedule(0);
      }
    })();
    this.running.set(job.id, { type: job.type, tenantId: job.tenant_id, abort, done });
  }

  private fail(job: JobRow, handler: JobHandler, err: unknown): void {
    const reason = toFailureReason(err, job.request_id);
    // The claim counted this run.
    const attempts = job.attempts;
    if (isRetriable(err) && attempts < job.max_attempts && !this.stopped) {
      const delay = handler.retryDelaySeconds?.(attempts) ?? 5 * 4 ** (attempts - 1);
      this.sqlite.run(
        `UPDATE jobs SET status = 'queued', error = ?, run_after = ?, lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ?`,
        [JSON.stringify(reason), new Date(Date.now() + delay * 1000).toISOString(), nowIso(), job.id],
      );
      this.log.warn("job failed; will retry", {
        job_id: job.id,
        type: job.type,
        attempt: attempts,
        code: reason.code,
        retry_in_s: delay,
      });
      return;
    }
    this.sqlite.transaction(() => {
      this.finish(job.id, "failed", null, JSON.stringify(reason));
      handler.onFailure?.(job, reason);
    })();
    this.log.warn("job failed", { job_id: job.id, type: job.type, code: reason.code, message: reason.message });
  }

  private finish(id: string, status: "completed" | "failed", result: string | null, error: string | null): void {
    const now = nowIso();
    this.sqlite.run(
      `UPDATE jobs SET status = ?, result = ?, error = ?, lease_owner = NULL, lease_until = NULL, finished_at = ?, updated_at = ? WHERE id = ?`,
      [status, result, error, now, now, id],
    );
  }

  /** Back to the queue; a run cut short by a stop or crash is not an attempt, so its count is handed back. */
  private release(id: string): void {
    this.sqlite.run(
      `UPDATE jobs SET status = 'queued', attempts = max(attempts - 1, 0), lease_owner = NULL, lease_until = NULL, run_after = ?, updated_at = ?
        WHERE id = ? AND status = 'running'`,
      [nowIso(), nowIso(), id],
    );
  }

  private renewLeases(): void {
    if (this.running.size === 0) return;
    const leaseUntil = new Date(Date.now() + this.opts.leaseSeconds * 1000).toISOString();
    this.sqlite.run(
      "UPDATE jobs SET lease_until = ? WHERE lease_owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))",
      [leaseUntil, this.owner, JSON.stringify([...this.running.keys()])],
    );
  }
}
