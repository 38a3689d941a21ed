/** Webhook event names: what a webhook may subscribe to, and what the service emits. */
import { Type } from "@sinclair/typebox";
import { AppError } from "../errors.ts";
import { jobType } from "../jobs/definition.ts";

/** Names accepted at registration. `job.progress` is accepted but never emitted (as the spec). */
export const SUBSCRIBABLE_EVENTS = ["course.completed", "course.failed", "job.progress"] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/** Events the service actually sends; `test` goes only to the webhook it was asked for. */
export type EmittedEvent = "course.completed" | "course.failed" | "test";

const DEFAULT_EVENTS: SubscribableEvent[] = [...SUBSCRIBABLE_EVENTS];

const isSubscribable = (name: string): name is SubscribableEvent =>
  (SUBSCRIBABLE_EVENTS as readonly string[]).includes(name);

/** The requested subscriptions; 422 naming every unknown one (a schema enum would only say "expected union"). */
export function parseEvents(names: string[] | undefined): SubscribableEvent[] {
  if (names === undefined) return DEFAULT_EVENTS;
  const unknown = names.filter((n) => !isSubscribable(n));
  if (unknown.length > 0) {
    throw new AppError(
      "VALIDATION_ERROR",
      `Unknown event type ${unknown.map((n) => JSON.stringify(n)).join(", ")}; known: ${SUBSCRIBABLE_EVENTS.join(", ")}`,
      {
        unknown,
        known: SUBSCRIBABLE_EVENTS,
      },
    );
  }
  return names.filter(isSubscribable);
}

/** The job type that makes one delivery attempt. */
export const DELIVERY_JOB = jobType(
  "webhook.deliver",
  Type.Object({ delivery_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
);
