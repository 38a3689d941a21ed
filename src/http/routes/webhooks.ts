import { Elysia, t } from "elysia";
import type { Services } from "../../services.ts";
import { deliveryLog } from "../../webhooks/delivery-log.ts";
import { SUBSCRIBABLE_EVENTS } from "../../webhooks/events.ts";
import {
  deleteWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_TENANT,
  ownedWebhook,
  registerWebhook,
} from "../../webhooks/registration.ts";
import { sendTestEvent } from "../../webhooks/test-event.ts";
import { authOf } from "../context.ts";
import { errors, PAGE_QUERY, Page } from "../schemas.ts";

const EventName = t.String({
  description: `One of ${SUBSCRIBABLE_EVENTS.join(", ")} (job.progress is accepted, not emitted yet)`,
});

const WebhookFields = {
  id: t.String(),
  url: t.String(),
  events: t.Array(t.String()),
  active: t.Boolean({
    description: "false after a delivery failed on every retry; register the URL again to re-activate",
  }),
  created_at: t.String(),
};
const Webhook = t.Object(WebhookFields);
const RegisteredWebhook = t.Object({
  ...WebhookFields,
  secret: t.String({
    description:
      "whsec_… signing secret (base64 after the prefix, as Standard Webhooks libraries take it); returned only by registration",
  }),
});

const WebhookIdParams = t.Object({ webhook_id: t.String({ description: "Webhook id" }) });

const TestResult = t.Object({
  delivery_id: t.String({ description: "Sent as X-Service-Delivery" }),
  delivered: t.Boolean({ description: "true when the receiver answered 2xx" }),
  status_code: t.Nullable(t.Integer()),
  duration_ms: t.Integer(),
  error: t.Nullable(t.String()),
});

const Attempt = t.Object({
  attempt: t.Integer({ description: "1 for the first try, 2 for the first retry, …" }),
  started_at: t.String(),
  duration_ms: t.Integer(),
  status_code: t.Nullable(t.Integer()),
  error: t.Nullable(t.String()),
  ok: t.Boolean(),
});
const Delivery = t.Object({
  id: t.String({ description: "Sent as X-Service-Delivery, the same on every retry" }),
  event: t.String(),
  status: t.String({ description: "pending, delivered, failed or canceled (the webhook was deactivated)" }),
  attempt_count: t.Integer(),
  next_attempt_at: t.Nullable(t.String()),
  created_at: t.String(),
  finished_at: t.Nullable(t.String()),
  attempts: t.Array(Attempt),
});

export const webhookRoutes = (svc: Services) => {
  const db = svc.sql;
  return new Elysia({ name: "webhooks" })
    .post(
      "/v2/webhooks",
      async ({ request, body, set }) => {
        const { webhook, created } = await registerWebhook(db, svc.cfg.outboundAllow, authOf(request).tenantId, body);
        set.status = created ? 201 : 200;
        return webhook;
      },
      {
        body: t.Object({
          url: t.String({ minLength: 1, maxLength: 2048, description: "https:// URL of the receiver" }),
          events: t.Optional(
            t.Array(EventName, {
              minItems: 1,
              maxItems: 10,
              description: "Default: course.completed, course.failed, job.progress",
            }),
          ),
        }),
        response: { 200: RegisteredWebhook, 201: RegisteredWebhook, ...errors("WEBHOOK_LIMIT") },
        detail: {
          summary: "Register a webhook",
          description:
            "Tenant-level (no user header). 201 with a new webhook; registering a URL again returns 200 with the same webhook, re-activated, with the new events and a new secret (the previous secret stops signing at once). " +
            `A tenant may have ${MAX_WEBHOOKS_PER_TENANT} webhooks (active or not); one more is 422 WEBHOOK_LIMIT.`,
          tags: ["webhooks"],
        },
      },
    )
    .get("/v2/webhooks", async ({ request }) => ({ data: await listWebhooks(db, authOf(request).tenantId) }), {
      response: { 200: t.Object({ data: t.Array(Webhook) }) },
      detail: { summary: "The tenant's webhooks, newest first (without secrets)", tags: ["webhooks"] },
    })
    .delete(
      "/v2/webhooks/:webhook_id",
      async ({ request, params, set }) => {
        await deleteWebhook(db, authOf(request).tenantId, params.webhook_id);
        set.status = 204;
      },
      {
        params: WebhookIdParams,
        response: { 204: t.Void(), ...errors("WEBHOOK_NOT_FOUND") },
        detail: {
          summary: "Delete a webhook and its delivery log; pending deliveries are dropped",
          tags: ["webhooks"],
        },
      },
    )
    .post(
      "/v2/webhooks/:webhook_id/test",
      async ({ request, params }) =>
        sendTestEvent(db, svc.webhookSend, await ownedWebhook(db, authOf(request).tenantId, params.webhook_id)),
      {
        params: WebhookIdParams,
        response: { 200: TestResult, ...errors("WEBHOOK_NOT_FOUND") },
        detail: {
          summary: "Send a test event now",
          description:
            'Delivers {event: "test", data: {message, webhook_id}} at once, signed like every delivery, and returns the result. Not retried; does not count toward deactivation; also works on an inactive webhook.',
          tags: ["webhooks"],
        },
      },
    )
    .get(
      "/v2/webhooks/:webhook_id/deliveries",
      async ({ request, params, query }) =>
        deliveryLog(db, authOf(request).tenantId, params.webhook_id, query.limit ?? 20, query.cursor),
      {
        params: WebhookIdParams,
        query: t.Object(PAGE_QUERY),
        response: {
          200: Page(Delivery),
          ...errors("WEBHOOK_NOT_FOUND"),
        },
        detail: {
          summary: "Delivery log of a webhook: each delivery with every attempt, newest first",
          tags: ["webhooks"],
        },
      },
    );
};
