/**
 * One signed POST of a delivery's stored body, through the SSRF guard: the target's resolved
 * address is checked now (not only at registration), redirects are not followed (a 3xx is a
 * failed delivery), TLS is verified (WEBHOOK_CA_FILE adds private CAs for webhooks alone). Never
 * throws: every outcome becomes an AttemptResult for the delivery log.
 */
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { type Clock, isoNow } from "../clock.ts";
import type { Config } from "../config.ts";
import { safeFetch } from "../net/safe-fetch.ts";
import type { AttemptResult } from "./attempts.ts";
import { signBody, standardWebhookHeaders } from "./signing.ts";

/** The answer is not used; a receiver that sends more than this fails the attempt instead of filling memory. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface SendOptions {
  timeoutMs: number;
  /** OUTBOUND_ALLOW: hosts or CIDRs reachable although private or loopback. */
  allow: string[];
  /** Stamps each attempt's start. */
  clock: Clock;
  /** Trusted TLS roots when WEBHOOK_CA_FILE is set: the standard ones and its certificates. */
  ca?: string[];
}

/**
 * The options every delivery is sent with, built once at start. WEBHOOK_CA_FILE is read here, so a
 * missing or empty file stops the start rather than failing every delivery later.
 */
export function webhookSendOptions(
  cfg: Pick<Config, "webhookTimeoutMs" | "outboundAllow" | "webhookCaFile">,
  clock: Clock,
): SendOptions {
  const opts: SendOptions = { timeoutMs: cfg.webhookTimeoutMs, allow: cfg.outboundAllow, clock };
  if (!cfg.webhookCaFile) return opts;
  let pem: string;
  try {
    pem = readFileSync(cfg.webhookCaFile, "utf8");
  } catch (err) {
    throw new Error(`WEBHOOK_CA_FILE ${cfg.webhookCaFile} cannot be read: ${(err as Error).message}`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----"))
    throw new Error(`WEBHOOK_CA_FILE ${cfg.webhookCaFile} holds no PEM certificate`);
  return { ...opts, ca: [...rootCertificates, pem] };
}

export interface OutgoingDelivery {
  url: string;
  secret: string;
  deliveryId: string;
  event: string;
  body: string;
}

export async function sendDelivery(opts: SendOptions, d: OutgoingDelivery): Promise<AttemptResult> {
  const startedAt = isoNow(opts.clock);
  const t0 = performance.now();
  const done = (statusCode: number | null, error: string | null): AttemptResult => ({
    ok: error === null,
    statusCode,
    error,
    startedAt,
    durationMs: performance.now() - t0,
  });
  try {
    const res = await safeFetch(d.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(d.body)),
        "user-agent": "courseforge-webhooks",
        "x-service-event": d.event,
        "x-service-delivery": d.deliveryId,
        "x-service-signature": signBody(d.secret, d.body),
        ...standardWebhookHeaders(d.secret, d.deliveryId, d.body, Math.floor(opts.clock.now().getTime() / 1000)),
      },
      body: d.body,
      timeoutMs: opts.timeoutMs,
      maxRedirects: 0,
      maxBytes: MAX_RESPONSE_BYTES,
      allow: opts.allow,
      ca: opts.ca,
    });
    if (res.ok) return done(res.status, null);
    if (res.status >= 300 && res.status < 400) {
      return done(res.status, `redirect to ${res.headers.get("location") ?? "(no location)"} not followed`);
    }
    return done(res.status, `receiver answered HTTP ${res.status}`);
  } catch (err) {
    return done(null, err instanceof Error ? err.message : String(err));
  }
}
