/**
 * Webhook secrets and the signatures they produce: the spec's X-Service-Signature, and the
 * Standard Webhooks headers (standardwebhooks.com), with which a receiver's library verifies a
 * delivery and refuses an old or replayed one.
 */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/**
 * `whsec_` + 32 random bytes in base64 (44 characters), the form Standard Webhooks libraries take
 * as it is. (Secrets made before were base64url; their bytes are read the same way here.)
 */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString("base64")}`;
}

/**
 * `webhook-id` (the delivery, the same on every retry: a receiver's idempotency key),
 * `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature`: `v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's bytes.
 */
export function standardWebhookHeaders(
  secret: string,
  deliveryId: string,
  body: string,
  timestampSeconds: number,
): Record<string, string> {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${deliveryId}.${timestampSeconds}.${body}`).digest("base64");
  return {
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${mac}`,
  };
}

/** Hex HMAC-SHA256 of the exact bytes sent, keyed with the whole secret string (prefix included). */
export function signBody(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}
