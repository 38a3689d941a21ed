/**
 * Which addresses outbound requests may reach. Only public unicast addresses pass: ipaddr.js
 * classifies every special range (loopback, RFC 1918 private, link-local and the cloud metadata
 * address 169.254.169.254, CGNAT 100.64/10, unique-local fc00::/7 including AWS's fd00:ec2::254,
 * unspecified, multicast, broadcast, reserved, and the IPv6 forms that embed an IPv4 address:
 * mapped, NAT64, 6to4, Teredo). The deprecated IPv4-compatible form (::a.b.c.d, which URL parsing
 * turns into ::7f00:1 and ipaddr.js calls plain unicast) is judged as the IPv4 address it carries.
 * OUTBOUND_ALLOW can open hosts or CIDRs that the operator trusts.
 */
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export interface AllowList {
  hosts: Set<string>;
  ranges: [Address, number][];
}

const normalizeHost = (host: string): string =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");

/** Entries are host names, IP addresses or CIDRs ("10.0.0.0/8", "::1/128"). */
export function parseAllowList(entries: readonly string[]): AllowList {
  const list: AllowList = { hosts: new Set(), ranges: [] };
  for (const raw of entries) {
    const entry = normalizeHost(raw.trim());
    if (!entry) continue;
    if (ipaddr.isValidCIDR(entry)) list.ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.parse(entry);
      list.ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
    } else list.hosts.add(entry);
  }
  return list;
}

/**
 * The address as ipaddr.js should see it. IPv6 text goes through the WHATWG URL parser first:
 * ipaddr.js reads "::127.0.0.1" as ::ffff:127.0.0.1, where URLs and sockets mean ::7f00:1.
 */
function parseAddress(ip: string): Address {
  const bare = ip.replace(/^\[|\]$/g, "");
  if (!bare.includes(":")) return ipaddr.parse(bare);
  try {
    return ipaddr.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  } catch {
    return ipaddr.parse(bare);
  }
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries. */
function canonical(ip: string): Address {
  const addr = parseAddress(ip);
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

/**
 * ::a.b.c.d, the IPv4-compatible form RFC 4291 deprecated: never a public destination, and a
 * stack that still honours it reaches the IPv4 address inside (::7f00:1 is 127.0.0.1).
 */
function isIPv4Compatible(addr: Address): boolean {
  if (addr.kind() !== "ipv6") return false;
  const p = (addr as ipaddr.IPv6).parts;
  return p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1);
}

export function isPublicAddress(ip: string): boolean {
  const addr = canonical(ip);
  return addr.range() === "unicast" && !isIPv4Compatible(addr);
}

/** Inside one of the ranges (an IPv4 range also covers its IPv4-mapped IPv6 form, and the reverse). */
export function inRanges(ip: string, ranges: AllowList["ranges"]): boolean {
  const addr = canonical(ip);
  return ranges.some(([net, bits]) => {
    if (net.kind() === addr.kind()) return addr.match(net, bits);
    if (net.kind() === "ipv6" && (net as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return addr.match((net as ipaddr.IPv6).toIPv4Address(), bits - 96);
    }
    return false;
  });
}

export const isHostAllowed = (host: string, allow: AllowList): boolean => allow.hosts.has(normalizeHost(host));

/** An address may be reached when it is public or inside an allowed range. */
export const isAddressAllowed = (ip: string, allow: AllowList): boolean =>
  isPublicAddress(ip) || inRanges(ip, allow.ranges);

export const isIpLiteral = (host: string): boolean => ipaddr.isValid(normalizeHost(host));

export { normalizeHost };
