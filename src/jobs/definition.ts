/**
 * How a domain declares a job: its type name and payload schema (what enqueueing needs), and a
 * handler made from the pieces it uses (built once at start-up). The queue knows no domain: the
 * composition root registers every definition with the worker.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { Sql } from "../db/sql.ts";
import type { FailureReason } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { JobRow } from "./row.ts";

/** A job's name and the shape of its payload; enqueueing with it checks the payload against the schema. */
export interface JobType<S extends TSchema = TSchema> {
  readonly type: string;
  readonly payload: S;
}

export const jobType = <S extends TSchema>(type: string, payload: S): JobType<S> => ({ type, payload });

export interface JobContext {
  /** Aborted when the server shuts down: stop at the next commit point and return. */
  signal: AbortSignal;
  log: Logger;
}

export interface JobHandler<P = unknown> {
  run(job: JobRow, payload: P, ctx: JobContext): Promise<unknown>;
  /**
   * Called once when the job ends failed (not retried any more), so the domain can record the
   * failure (course status, events) in one transaction: `tx`, the one that ends the job.
   * `payload` is null when the stored payload itself was what failed the job.
   */
  onFailure?(job: JobRow, reason: FailureReason, payload: P | null, tx: Sql): void | Promise<void>;
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

/** A domain's job: type, payload schema, and its handler made from the dependencies `D`. */
export interface JobDefinition<S extends TSchema, D> extends JobType<S> {
  handler(deps: D): JobHandler<Static<S>>;
}

export const defineJob = <S extends TSchema, D>(
  kind: JobType<S>,
  handler: (deps: D) => JobHandler<Static<S>>,
): JobDefinition<S, D> => ({ type: kind.type, payload: kind.payload, handler });

/** A definition with its handler built: what the worker runs. */
export interface RegisteredJob {
  readonly type: string;
  readonly payload: TSchema;
  /** Called only with a payload that fits `payload` (the worker checks it first). */
  readonly handler: JobHandler<unknown>;
}

export function registerJob<S extends TSchema, D>(def: JobDefinition<S, D>, deps: D): RegisteredJob {
  return { type: def.type, payload: def.payload, handler: def.handler(deps) };
}
