/** Checks a job payload against its type's schema: when it is enqueued, and again when it is run. */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../errors.ts";
import type { JobType } from "./definition.ts";

/** What is wrong with `value` as a payload of `kind`, or null when it fits. */
function payloadProblem(kind: JobType, value: unknown): string | null {
  const first = Value.Errors(kind.payload, value).First();
  if (!first) return null;
  return `${first.path || "/"}: ${first.message}`;
}

/** Enqueueing a payload that does not fit its schema is a bug in the caller: it throws. */
export function assertPayload<S extends TSchema>(kind: JobType<S>, value: unknown): asserts value is Static<S> {
  const problem = payloadProblem(kind, value);
  if (problem) throw new TypeError(`Invalid payload for job type ${kind.type}: ${problem}`);
}

/**
 * The stored payload of a job about to run. One that no longer parses or fits (edited by hand, or
 * written by an older version) fails the job at once, with the reason, instead of the worker.
 */
export function storedPayload(kind: JobType, stored: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    throw payloadInvalid(kind.type, "not JSON");
  }
  const problem = payloadProblem(kind, value);
  if (problem) throw payloadInvalid(kind.type, problem);
  return value;
}

const payloadInvalid = (type: string, problem: string) =>
  Object.assign(new AppError("JOB_PAYLOAD_INVALID", `The stored payload of this ${type} job is invalid (${problem})`), {
    retriable: false,
  });
