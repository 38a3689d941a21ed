/**
 * Signed, expiring media URLs: `{base}/media/<key>?exp=<unix>&sig=<hmac>`. The signature covers
 * key and expiry, so neither can be changed; it is compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";

let secret: Uint8Array | null = null;

/** Set once at start (config value or the secret kept in DATA_DIR). */
export function setMediaSigningSecret(value: string | Uint8Array): void {
  secret = typeof value === "string" ? new TextEncoder().encode(value) : value;
}

function sign(key: string, exp: number): string {
  if (!secret) throw new Error("media signing secret not initialised");
  return new Bun.CryptoHasher("sha256", secret).update(`${key}\n${exp}`).digest("hex");
}

export function signedMediaUrl(
  cfg: { baseUrl: string; mediaUrlTtlSeconds: number },
  key: string,
  ttlSeconds?: number,
): string {
  const exp = Math.floor(Date.now() / 1000) + (ttlSeconds ?? cfg.mediaUrlTtlSeconds);
  return `${cfg.baseUrl}/media/${key}?exp=${exp}&sig=${sign(key, exp)}`;
}

export type MediaCheck = "ok" | "expired" | "invalid";

export function verifyMediaSignature(key: string, exp: string | null, sig: string | null): MediaCheck {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
  const expected = Buffer.from(sign(key, Number(exp)), "hex");
  if (!timingSafeEqual(expected, Buffer.from(sig, "hex"))) return "invalid";
  return Number(exp) * 1000 < Date.now() ? "expired" : "ok";
}
