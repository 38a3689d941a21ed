/**
 * Runs queued jobs with bounded concurrency, each type by its registered handler. A payload is
 * checked against its type's schema before the handler sees it.
 */
import { hostname } from "node:os";
import { type Clock, isoAfter, isoNow } from "../clock.ts";
import { type Sql, SqliteSql } from "../db/sql.ts";
import { AppError, toFailureReason } from "../errors.ts";
import { CHANNELS, type EventBus, localBus, type Unsubscribe } from "../events/bus.ts";
import type { Logger } from "../log.ts";
import { jobDuration } from "../metrics.ts";
import { watchOtherCommits } from "./commit-watch.ts";
import type { RegisteredJob } from "./definition.ts";
import {
  anyDue,
  claimNext,
  expiredLeases,
  failStalled,
  finishRun,
  giveBack,
  type Lease,
  nextChange,
  renewLease,
  requeueStalled,
  retryLater,
  runningJobs,
  waitingTenants,
} from "./leases.ts";
import { storedPayload } from "./payload.ts";
import { INTERRUPTED, isRetriable } from "./queue.ts";
import type { JobRow } from "./row.ts";

/** How soon a tick the database was too busy for is tried again. */
const BUSY_RETRY_MS = 500;
/** How often another connection's commits to SQLite are looked for (the poll this worker had). */
const COMMIT_WATCH_MS = 500;

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
  /** Stalls a job may have and still be requeued; the next one fails it (JOB_MAX_STALLS). */
  maxStalls: number;
  /**
   * Jobs of one type one tenant may run at once while another tenant has jobs of that type
   * waiting (JOB_TENANT_SHARE; default concurrency − 1, at least 1); alone, a tenant may use every slot.
   */
  tenantShare?: number;
  clock: Clock;
  /**
   * The longest an idle worker sleeps (by default half the lease): it wakes sooner when a job is
   * announced, a run of its own ends, a delayed job falls due, another worker's lease runs out or
   * (on SQLite) another connection commits. Below the lease, so a lease taken by another worker
   * since the last look is seen before it ends.
   */
  pollMs?: number;
  /**
   * Where queued jobs are announced, so an idle worker claims at once instead of at its next poll:
   * the server's bus (LISTEN on PostgreSQL); by default a SQLite connection's own.
   */
  events?: EventBus;
}

interface Run {
  type: string;
  tenantId: string | null;
  /** The lease this run holds: every write it makes to its job is fenced by it. */
  token: string;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Runs queued jobs with bounded concurrency. One worker per server process. A job found running
 * with its process gone (at start) or its lease run out (while polling) has stalled: it is
 * requeued with its stall count raised, or failed with JOB_STALLED past `maxStalls`, so a job that
 * kills its process cannot loop for ever. Each run's writes are fenced by its lease, so a run that
 * lost its lease to another worker changes nothing. Its statements are the seam's (leases.ts),
 * so several workers on one PostgreSQL database share the queue as workers of one SQLite process do.
 * Idle, it sleeps until the queue can change (`pollMs`): a look every half second was about a
 * fifth of an idle server's CPU on SQLite and half on PostgreSQL (bench/load/idle.ts).
 */
export class JobWorker {
  /** host:pid:instance; start() reads the pid to tell a dead process's leases. */
  readonly owner = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private running = new Map<string, Run>();
  private timer: Timer | null = null;
  /** When `timer` fires (performance.now()). */
  private timerAt = 0;
  /** A wake-up came while a tick ran: the tick may have read the queue before what woke it. */
  private wokenWhileTicking = false;
  private heartbeatTimer: Timer | null = null;
  private stopped = true;
  private ticking = false;
  private readonly wake = () => this.schedule(0);
  private unsubscribe: Unsubscribe | null = null;
  private stopWatch: (() => void) | null = null;
  private readonly jobs: Map<string, RegisteredJob>;
  private readonly clock: Clock;
  /**
   * When each tenant, and each learner within it, last had a job of each type claimed ("type|tenant"
   * and "type|tenant|user" to a turn number): the queue serves whoever was served longest ago first,
   * so one tenant's backlog waits its turns instead of holding the line.
   */
  private served = new Map<string, number>();
  private turn = 0;
  private readonly tenantShare: number;

  constructor(
    private readonly db: Sql,
    private readonly log: Logger,
    jobs: RegisteredJob[],
    private readonly opts: WorkerOptions,
  ) {
    this.jobs = new Map(jobs.map((j) => [j.type, j]));
    this.clock = opts.clock;
    this.tenantShare = opts.tenantShare || Math.max(1, opts.concurrency - 1);
  }

  private handlerOf(type: string) {
    return this.jobs.get(type)?.handler;
  }

  /** Recovers jobs left running by a process of this host that is gone, then starts polling. */
  async start(): Promise<void> {
    const host = hostname();
    const now = isoNow(this.clock);
    const orphaned = (await runningJobs(this.db)).filter((j) => {
      const [h, pid] = (j.lease_owner ?? "").split(":");
      const expired = !j.lease_until || j.lease_until < now;
      // On SQLite the data directory's lock makes this the only process, so another host's lease is a dead one's.
      const gone = h === host ? !pidAlive(Number(pid)) : this.db.dialect === "sqlite";
      return expired || gone;
    });
    for (const j of orphaned) await this.recoverStalled(j);
    if (orphaned.length > 0) this.log.info("resuming interrupted jobs", { count: orphaned.length });
    this.stopped = false;
    const events = this.opts.events ?? (this.db instanceof SqliteSql ? localBus(this.db.db) : null);
    // A lost announcement is a job claimed at the next poll: a resync needs no more than a wake.
    this.unsubscribe = (await events?.subscribe(CHANNELS.jobQueued, this.wake, this.wake)) ?? null;
    if (this.db instanceof SqliteSql) this.stopWatch = watchOtherCommits(this.db.db, COMMIT_WATCH_MS, this.wake);
    this.heartbeatTimer = setInterval(
      () => {
        this.heartbeat().catch((err) => this.log.error("job heartbeat failed", { error: String(err) }));
      },
      Math.max(500, (this.opts.leaseSeconds * 1000) / 3),
    );
    this.schedule(0);
  }

  /** Stops claiming, asks running handlers to stop at their next commit point, and waits up to graceMs. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    // Not awaited: a stop must not wait on a listening connection that may be down.
    this.unsubscribe?.().catch((err) => this.log.warn("job wake-ups not unsubscribed", { error: String(err) }));
    this.unsubscribe = null;
    this.stopWatch?.();
    this.stopWatch = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const r of this.running.values()) r.abort.abort();
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    await Promise.race([all, Bun.sleep(graceMs)]);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    // Whatever is still running is handed back to the queue; the next start resumes it.
    for (const [id, run] of this.running) await this.release(id, run);
  }

  get activeCount(): number {
    return this.running.size;
  }

  /** Ticks in `ms`, unless a tick is due sooner already. */
  private schedule(ms: number): void {
    if (this.stopped) return;
    const at = performance.now() + ms;
    if (this.timer) {
      if (this.timerAt <= at) return;
      clearTimeout(this.timer);
    }
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
    }, ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.ticking) {
      this.wokenWhileTicking = true;
      return;
    }
    this.ticking = true;
    this.wokenWhileTicking = false;
    const longest = this.opts.pollMs ?? (this.opts.leaseSeconds * 1000) / 2;
    let sleep = longest;
    try {
      const claimed = await this.unlessBusy("jobs not claimed this tick", {}, async () => {
        await this.recoverExpired();
        while (!this.stopped) {
          const job = await this.claim();
          if (!job) break;
          this.launch(job);
        }
        return true;
      });
      // A database too busy to claim from may have left due jobs waiting: the next try comes soon.
      sleep = claimed ? Math.min(longest, await this.untilNextChange()) : Math.min(longest, BUSY_RETRY_MS);
    } catch (err) {
      this.log.error("job claim failed", { error: String(err) });
    } finally {
      this.ticking = false;
    }
    this.schedule(this.wokenWhileTicking ? 0 : sleep);
  }

  /** Milliseconds until the queue changes by time alone (leases.ts `nextChange`); Infinity when nothing is pending. */
  private async untilNextChange(): Promise<number> {
    const at = await nextChange(this.db, isoNow(this.clock), this.owner, [...this.jobs.keys()]);
    // A lease is expired once the clock is past it, not at it.
    return at === null ? Number.POSITIVE_INFINITY : Math.max(0, Date.parse(at) - this.clock.now().getTime() + 1);
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

  /**
   * [type, tenant] pairs that may not take another slot now: at their type's own per-tenant limit,
   * or at JOB_TENANT_SHARE while another tenant has jobs of that type waiting.
   */
  private async fullTenants(): Promise<string[]> {
    const counts = new Map<string, { type: string; tenantId: string; n: number }>();
    for (const r of this.running.values()) {
      if (r.tenantId === null) continue;
      const k = `${r.type}\u0000${r.tenantId}`;
      const c = counts.get(k) ?? { type: r.type, tenantId: r.tenantId, n: 0 };
      c.n++;
      counts.set(k, c);
    }
    if (counts.size === 0) return [];
    const waiting = await waitingTenants(this.db);
    const othersWait = (c: { type: string; tenantId: string }) =>
      waiting.some((w) => w.type === c.type && w.tenant_id !== c.tenantId);
    return [...counts.values()]
      .filter((c) => {
        const own = this.handlerOf(c.type)?.perTenant;
        return (own !== undefined && c.n >= own) || (c.n >= this.tenantShare && othersWait(c));
      })
      .map((c) => `${c.type}|${c.tenantId}`);
  }

  /**
   * Jobs of the registered types whose lease ran out in another worker (its process died or
   * stalled past its heartbeats). This worker's own leases are never taken: a run still in this
   * process renews its lease at the next heartbeat, however late.
   */
  private async recoverExpired(): Promise<void> {
    const expired = await expiredLeases(this.db, isoNow(this.clock), this.owner, [...this.jobs.keys()]);
    for (const j of expired) await this.recoverStalled(j);
  }

  /**
   * A run that stopped without a word from its process. It keeps the attempt it used (only a
   * graceful stop gives one back) and counts a stall: requeued up to `maxStalls` times, failed
   * after. Fenced by the lease seen, so two workers recovering the same job count one stall.
   */
  private async recoverStalled(job: JobRow): Promise<void> {
    const stalls = job.stalls + 1;
    const now = isoNow(this.clock);
    if (stalls <= this.opts.maxStalls) {
      if (await requeueStalled(this.db, job, stalls, now))
        this.log.warn("job stalled; requeued", {
          job_id: job.id,
          type: job.type,
          stalls,
          lease_owner: job.lease_owner,
        });
      return;
    }
    const reason = toFailureReason(
      new AppError(
        "JOB_STALLED",
        `The job's process stopped while running it ${stalls} times (JOB_MAX_STALLS is ${this.opts.maxStalls}); it is not run again`,
      ),
      job.request_id,
    );
    const registered = this.jobs.get(job.type);
    let payload: unknown = null;
    try {
      if (registered) payload = storedPayload(registered, job.payload);
    } catch {
      payload = null;
    }
    const failed = await this.db.transaction(async (tx) => {
      if (!(await failStalled(tx, job, stalls, JSON.stringify(reason), now))) return false;
      await registered?.handler.onFailure?.(job, reason, payload, tx);
      return true;
    });
    if (failed)
      this.log.warn("job failed", { job_id: job.id, type: job.type, code: reason.code, message: reason.message });
  }

  /** Takes the next queued job of a type with a free slot, in the tenants' turns (leases.ts `claimNext`). */
  private async claim(): Promise<JobRow | null> {
    const types = this.freeTypes();
    if (types.length === 0) return null;
    const now = isoNow(this.clock);
    if (!(await anyDue(this.db, now, types))) return null;
    const job = await claimNext(this.db, {
      owner: this.owner,
      token: crypto.randomUUID(),
      leaseUntil: isoAfter(this.clock, this.opts.leaseSeconds),
      now,
      types,
      fullTenants: await this.fullTenants(),
      served: Object.fromEntries(this.served),
    });
    if (job) this.markServed(job);
    return job;
  }

  private markServed(job: JobRow): void {
    // Turns matter among tenants with work waiting; forgetting them all now and then bounds the map.
    if (this.served.size > 10_000) this.served.clear();
    const tenant = `${job.type}|${job.tenant_id ?? ""}`;
    this.turn++;
    this.served.set(tenant, this.turn);
    this.served.set(`${tenant}|${job.user_id ?? ""}`, this.turn);
  }

  private launch(job: JobRow): void {
    const abort = new AbortController();
    // Counted as running before it starts: a job that fails at once (its payload) ends before `execute` returns.
    const run: Run = {
      type: job.type,
      tenantId: job.tenant_id,
      token: job.lease_token!,
      abort,
      done: Promise.resolve(),
    };
    this.running.set(job.id, run);
    run.done = this.execute(job, run);
  }

  private async execute(job: JobRow, run: Run): Promise<void> {
    const registered = this.jobs.get(job.type)!;
    const { handler } = registered;
    const started = performance.now();
    let payload: unknown = null;
    try {
      payload = storedPayload(registered, job.payload);
      const result = await handler.run(job, payload, { signal: run.abort.signal, log: this.log });
      if (result === INTERRUPTED) {
        await this.release(job.id, run);
        jobDuration.observe({ type: job.type, outcome: "interrupted" }, (performance.now() - started) / 1000);
        return;
      }
      const output = result === undefined ? null : JSON.stringify(result);
      if (!(await this.finish(this.db, job.id, "completed", output, null))) {
        this.leaseLost(job, "its result is discarded");
        return;
      }
      jobDuration.observe({ type: job.type, outcome: "completed" }, (performance.now() - started) / 1000);
      this.log.info("job completed", {
        job_id: job.id,
        type: job.type,
        duration_ms: Math.round(performance.now() - started),
      });
    } catch (err) {
      jobDuration.observe({ type: job.type, outcome: "failed" }, (performance.now() - started) / 1000);
      await this.fail(job, handler, payload, err);
    } finally {
      this.running.delete(job.id);
      this.schedule(0);
    }
  }

  private async fail(job: JobRow, handler: RegisteredJob["handler"], payload: unknown, err: unknown): Promise<void> {
    const reason = toFailureReason(err, job.request_id);
    // The claim counted this run.
    const attempts = job.attempts;
    if (isRetriable(err) && attempts < job.max_attempts && !this.stopped) {
      const delay = handler.retryDelaySeconds?.(attempts) ?? 5 * 4 ** (attempts - 1);
      const requeued = await retryLater(this.db, job.id, this.leaseOf(job.id), {
        error: JSON.stringify(reason),
        runAfter: isoAfter(this.clock, delay),
        now: isoNow(this.clock),
      });
      if (!requeued) {
        this.leaseLost(job, "its failure is discarded");
        return;
      }
      this.log.warn("job failed; will retry", {
        job_id: job.id,
        type: job.type,
        attempt: attempts,
        code: reason.code,
        retry_in_s: delay,
      });
      return;
    }
    const failed = await this.db.transaction(async (tx) => {
      if (!(await this.finish(tx, job.id, "failed", null, JSON.stringify(reason)))) return false;
      await handler.onFailure?.(job, reason, payload, tx);
      return true;
    });
    if (!failed) {
      this.leaseLost(job, "its failure is discarded");
      return;
    }
    this.log.warn("job failed", { job_id: job.id, type: job.type, code: reason.code, message: reason.message });
  }

  /** The lease this worker's run of job `id` holds (a run is in `running` until its last write). */
  private leaseOf(id: string): Lease {
    return { owner: this.owner, token: this.running.get(id)!.token };
  }

  /** Ends the run's job; false when the run no longer holds its lease (nothing is written). */
  private finish(
    db: Sql,
    id: string,
    status: "completed" | "failed",
    result: string | null,
    error: string | null,
  ): Promise<boolean> {
    return finishRun(db, id, this.leaseOf(id), { status, result, error, now: isoNow(this.clock) });
  }

  /**
   * Back to the queue after a graceful stop (leases.ts `giveBack`). A busy database leaves the job
   * running under a lease that runs out; it is then recovered as a stall.
   */
  private async release(id: string, run: Run): Promise<void> {
    await this.unlessBusy("job not handed back", { job_id: id, type: run.type }, () =>
      giveBack(this.db, id, this.leaseOf(id), isoNow(this.clock)),
    );
  }

  /**
   * Runs one of the worker's timer-driven writes (claim, heartbeat, give-back). SQLite answers
   * SQLITE_BUSY when another connection (an extraction process writing chunks) held the write
   * lock past busy_timeout: a transient state, logged as `skipped` and answered undefined, tried
   * again at the next tick or beat; thrown from a timer it would end the process.
   */
  private async unlessBusy<T>(
    skipped: string,
    fields: Record<string, unknown>,
    write: () => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: unknown }).code !== "SQLITE_BUSY") throw err;
      this.log.warn(`${skipped}: the database was busy`, fields);
      return undefined;
    }
  }

  private leaseLost(job: JobRow, consequence: string): void {
    this.log.warn(`job lease lost to another worker; ${consequence}`, { job_id: job.id, type: job.type });
  }

  /**
   * Renews the lease of every run of this worker (every third of the lease). A run whose lease is
   * gone (it stalled past its lease and another worker took the job) is asked to stop.
   */
  async heartbeat(): Promise<void> {
    if (this.running.size === 0) return;
    const leaseUntil = isoAfter(this.clock, this.opts.leaseSeconds);
    for (const [id, run] of this.running) {
      // Not renewed when busy: the lease lasts three beats, so the next beat renews it.
      const renewed = await this.unlessBusy("job lease not renewed this beat", { job_id: id, type: run.type }, () =>
        renewLease(this.db, id, this.leaseOf(id), leaseUntil),
      );
      if (renewed !== false || run.abort.signal.aborted) continue;
      this.log.warn("job lease lost to another worker; its run is stopped", { job_id: id, type: run.type });
      run.abort.abort();
    }
  }
}
