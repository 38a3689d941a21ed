/** Webhook secrets and the X-Service-Signature they produce. */
import { createHmac, randomBytes } from "node:crypto";

/** `whsec_` + 32 random bytes, base64url (43 characters). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** Hex HMAC-SHA256 of the exact bytes sent, keyed with the whole secret string (prefix included). */
export function signBody(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}
