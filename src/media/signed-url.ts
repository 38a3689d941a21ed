/**
 * Signed, expiring media URLs: `{base}/media/<key>?exp=<unix>&sig=<hmac>`. The signature covers
 * key and expiry, so neither can be changed; it is compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Signer } from "./signer.ts";

export type MediaCheck = "ok" | "expired" | "invalid";

export interface MediaUrls {
  url(cfg: { baseUrl: string; mediaUrlTtlSeconds: number }, key: string, ttlSeconds?: number): string;
  verify(key: string, exp: string | null, sig: string | null): MediaCheck;
}

export function createMediaUrls(signer: Signer, clock: Clock): MediaUrls {
  const sign = (key: string, exp: number) => signer.mac(`${key}\n${exp}`, "hex");
  return {
    url(cfg, key, ttlSeconds) {
      const exp = Math.floor(clock.now().getTime() / 1000) + (ttlSeconds ?? cfg.mediaUrlTtlSeconds);
      return `${cfg.baseUrl}/media/${key}?exp=${exp}&sig=${sign(key, exp)}`;
    },
    verify(key, exp, sig) {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
      const expected = Buffer.from(sign(key, Number(exp)), "hex");
      if (!timingSafeEqual(expected, Buffer.from(sig, "hex"))) return "invalid";
      return Number(exp) * 1000 < clock.now().getTime() ? "expired" : "ok";
    },
  };
}
