/**
 * The client a request comes from. Behind a reverse proxy every request's socket peer is the proxy,
 * so per-address limits would put every user in one bucket; when the peer is one of the operator's
 * TRUSTED_PROXIES, the client is read from the proxy's forwarding header (RFC 7239 `Forwarded`,
 * else `X-Forwarded-For`): the nearest hop that is not itself a trusted proxy. Without trusted
 * proxies (the default) the headers are ignored, since any client can write them.
 */
import { type AllowList, inRanges } from "../net/address-policy.ts";

type Ranges = AllowList["ranges"];

const isTrusted = (ip: string, trusted: Ranges): boolean => {
  try {
    return inRanges(ip, trusted);
  } catch {
    // Not an address ("unknown", an obfuscated RFC 7239 identifier): not a proxy of ours.
    return false;
  }
};

/** The hops a forwarding header lists, client first: `for=` values of Forwarded, else X-Forwarded-For. */
function forwardedHops(request: Request): string[] {
  const forwarded = request.headers.get("forwarded");
  if (forwarded) {
    return [...forwarded.matchAll(/for=("?)([^";,]+)\1/gi)].map((m) => {
      const value = m[2]!.trim();
      // "[2001:db8::1]:4711" and "192.0.2.60:8080": the address without its port.
      const v6 = /^\[([^\]]+)\]/.exec(value);
      if (v6) return v6[1]!;
      return /^[\d.]+:\d+$/.test(value) ? value.slice(0, value.lastIndexOf(":")) : value;
    });
  }
  const xff = request.headers.get("x-forwarded-for");
  return xff
    ? xff
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

export function clientAddress(request: Request, peer: string | undefined, trusted: Ranges): string {
  const direct = peer ?? "unknown";
  if (trusted.length === 0 || !isTrusted(direct, trusted)) return direct;
  const hops = forwardedHops(request);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(hops[i]!, trusted)) return hops[i]!;
  return hops[0] ?? direct;
}
