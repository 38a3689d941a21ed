/**
 * The SSRF guard: a URL may be fetched only over http(s), and only when every address its host
 * resolves to is public (or allow-listed). The checked address is returned so the connection can
 * be pinned to it (see safe-fetch.ts).
 */
import { lookup } from "node:dns/promises";
import { AppError } from "../errors.ts";
import {
  type AllowList,
  isAddressAllowed,
  isHostAllowed,
  isIpLiteral,
  normalizeHost,
  parseAllowList,
} from "./address-policy.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name to addresses; tests pass their own to point a name at a private address. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface CheckedUrl {
  url: URL;
  /** The address the connection must use. */
  address: string;
  family: 4 | 6;
}

const urlNotAllowed = (message: string) => new AppError("URL_NOT_ALLOWED", message);

function parseHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new AppError("INVALID_URL", `"${String(input).slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw urlNotAllowed(`${url.protocol.replace(/:$/, "")} URLs are not allowed; only http and https`);
  }
  return url;
}

async function resolveHost(host: string, resolve: Resolver): Promise<ResolvedAddress[]> {
  if (isIpLiteral(host)) return [{ address: host, family: host.includes(":") ? 6 : 4 }];
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new AppError(
      "HOST_UNRESOLVABLE",
      `the host ${host} could not be resolved (${(err as { code?: string }).code ?? (err as Error).message})`,
    );
  }
  if (addresses.length === 0) throw new AppError("HOST_UNRESOLVABLE", `the host ${host} has no address`);
  return addresses;
}

export async function checkUrl(
  input: string | URL,
  allow: AllowList,
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
  const url = parseHttpUrl(input);
  const host = normalizeHost(url.hostname);
  const addresses = await resolveHost(host, resolve);
  if (!isHostAllowed(host, allow)) {
    // Every address must pass, not just the first: the connection is pinned to one of them,
    // but a name that also points inside the network is refused outright.
    const blocked = addresses.find((a) => !isAddressAllowed(a.address, allow));
    if (blocked) {
      const via = isIpLiteral(host) ? "" : ` (${host} resolves to ${blocked.address})`;
      throw urlNotAllowed(
        `${url.origin} is a private, loopback, link-local or otherwise internal address${via}; set OUTBOUND_ALLOW to reach it`,
      );
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family };
}

/** Throws 422 URL_NOT_ALLOWED unless `url` is http(s) to a public (or allow-listed) address. */
export function assertPublicUrl(
  url: string | URL,
  cfg: { outboundAllow: readonly string[] },
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
  return checkUrl(url, parseAllowList(cfg.outboundAllow), resolve);
}
