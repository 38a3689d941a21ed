/**
 * Runs queued jobs with bounded concurrency, each type by its registered handler. A payload is
 * checked against its type's schema before the handler sees it.
 */
import type { Database } from "bun:sqlite";
import { hostname } from "node:os";
import { toFailureReason } from "../errors.ts";
import type { Logger } from "../log.ts";
import { jobDuration } from "../metrics.ts";
import { nowIso } from "../util.ts";
import type { RegisteredJob } from "./definition.ts";
import { storedPayload } from "./payload.ts";
import { INTERRUPTED, isRetriable, wakers } from "./queue.ts";
import type { JobRow } from "./row.ts";

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
  private readonly wake = () => this.schedule(0);
  private readonly jobs: Map<string, RegisteredJob>;

  constructor(
    private readonly sqlite: Database,
    private readonly log: Logger,
    jobs: RegisteredJob[],
    private readonly opts: WorkerOptions,
  ) {
    this.jobs = new Map(jobs.map((j) => [j.type, j]));
  }

  private handlerOf(type: string) {
    return this.jobs.get(type)?.handler;
  }

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
      (r) => this.handlerOf(r.type)?.concurrency === undefined,
    ).length;
    return [...this.jobs.values()]
      .filter(({ type, handler: h }) =>
        h.concurrency === undefined ? busyDefault < this.opts.concurrency : (counts.get(type) ?? 0) < h.concurrency,
      )
      .map(({ type }) => type);
  }

  /** [type, tenant] pairs at their type's per-tenant limit. */
  private fullTenants(): [string, string][] {
    const counts = new Map<string, { type: string; tenantId: string; n: number }>();
    for (const r of this.running.values()) {
      if (r.tenantId === null || this.handlerOf(r.type)?.perTenant === undefined) continue;
      const k = `${r.type}\u0000${r.tenantId}`;
      const c = counts.get(k) ?? { type: r.type, tenantId: r.tenantId, n: 0 };
      c.n++;
      counts.set(k, c);
    }
    return [...counts.values()]
      .filter((c) => c.n >= this.handlerOf(c.type)!.perTenant!)
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
    const abort = new AbortController();
    // Counted as running before it starts: a job that fails at once (its payload) ends before `execute` returns.
    const entry = { type: job.type, tenantId: job.tenant_id, abort, done: Promise.resolve() };
    this.running.set(job.id, entry);
    entry.done = this.execute(job, abort);
  }

  private async execute(job: JobRow, abort: AbortController): Promise<void> {
    const registered = this.jobs.get(job.type)!;
    const { handler } = registered;
    const started = performance.now();
    let payload: unknown = null;
    try {
      payload = storedPayload(registered, job.payload);
      const result = await handler.run(job, payload, { signal: abort.signal, log: this.log });
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
      this.fail(job, handler, payload, err);
    } finally {
      this.running.delete(job.id);
      this.schedule(0);
    }
  }

  private fail(job: JobRow, handler: RegisteredJob["handler"], payload: unknown, err: unknown): void {
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
      handler.onFailure?.(job, reason, payload);
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
