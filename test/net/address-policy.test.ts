import { describe, expect, test } from "bun:test";
import { isAddressAllowed, isPublicAddress, parseAllowList } from "../../src/net/address-policy.ts";

describe("which addresses are public", () => {
  test.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "240.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:10.1.2.3",
    "64:ff9b::a00:1",
    "2002:7f00:1::",
    // IPv4-compatible (deprecated), as written and as the URL parser turns it: refused whatever it carries.
    "::127.0.0.1",
    "::7f00:1",
    "[::7f00:1]",
    "::a9fe:a9fe",
    "::10.0.0.1",
    "::8.8.8.8",
    "::ffff:0:127.0.0.1",
    "64:ff9b:1::7f00:1",
  ])("%s is refused", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each(["93.184.216.34", "8.8.8.8", "100.128.0.1", "2606:4700:4700::1111", "::ffff:93.184.216.34"])(
    "%s is public",
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe("OUTBOUND_ALLOW", () => {
  const allow = parseAllowList(["127.0.0.1", "10.20.0.0/16", "fd12::/16", "Internal.Example.com."]);

  test("an allowed address or CIDR opens exactly that", () => {
    expect(isAddressAllowed("127.0.0.1", allow)).toBe(true);
    expect(isAddressAllowed("127.0.0.2", allow)).toBe(false);
    expect(isAddressAllowed("10.20.30.40", allow)).toBe(true);
    expect(isAddressAllowed("10.21.0.1", allow)).toBe(false);
    expect(isAddressAllowed("fd12::5", allow)).toBe(true);
    expect(isAddressAllowed("169.254.169.254", allow)).toBe(false);
  });

  test("an allowed IPv4 address also covers its IPv4-mapped IPv6 form", () => {
    expect(isAddressAllowed("::ffff:127.0.0.1", allow)).toBe(true);
  });

  test("host names are kept, case and trailing dot aside", () => {
    expect(allow.hosts.has("internal.example.com")).toBe(true);
  });
});
