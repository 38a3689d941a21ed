import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { AppError } from "../../src/errors.ts";
import { assertPublicUrl, type Resolver } from "../../src/net/guard.ts";
import { safeFetch } from "../../src/net/safe-fetch.ts";

let server: ReturnType<typeof Bun.serve>;
/** How long /slow takes to answer: a call that ends sooner was ended by its own timeout. */
const SLOW_MS = 30_000;
let port = 0;
let local = "";
const hits: string[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      hits.push(`${req.method} ${url.pathname} host=${req.headers.get("host")}`);
      switch (url.pathname) {
        case "/hello":
          return new Response("hello from loopback");
        case "/echo":
          return Response.json({ method: req.method, body: await req.text(), header: req.headers.get("x-test") });
        case "/to-hello":
          return Response.redirect(`${url.origin}/hello`, 302);
        case "/see-other":
          return new Response(null, { status: 303, headers: { location: "/echo" } });
        case "/to-private":
          return Response.redirect(`http://127.0.0.1:${port}/hello`, 302);
        case "/to-metadata":
          return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
        case "/loop":
          return Response.redirect(`${url.origin}/loop?n=${Number(url.searchParams.get("n") ?? 0) + 1}`, 302);
        case "/big":
          return new Response(new Uint8Array(21 * 1024 * 1024).fill(97));
        case "/gzip":
          return new Response(gzipSync("compressed body"), { headers: { "content-encoding": "gzip" } });
        case "/gzip-bomb":
          return new Response(gzipSync(new Uint8Array(30 * 1024 * 1024)), { headers: { "content-encoding": "gzip" } });
        case "/slow":
          await Bun.sleep(SLOW_MS);
          return new Response("late");
        default:
          return new Response("nope", { status: 404 });
      }
    },
  });
  port = server.port!;
  local = `http://127.0.0.1:${port}`;
});
afterAll(() => server.stop(true));

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected the request to be refused");
}

/** A resolver for made-up names, as a hosts file would. */
const hosts =
  (table: Record<string, string>): Resolver =>
  async (name) => {
    const address = table[name];
    if (!address) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  };

describe("the SSRF guard", () => {
  test.each([
    "http://127.0.0.1/",
    "http://localhost/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00:ec2::254]/",
    "http://10.0.0.8/",
    "http://100.64.12.1/",
    "http://0.0.0.0/",
    "http://2130706433/",
    "http://0x7f.0.0.1/",
  ])("%s is refused", async (url) => {
    const err = await refusal(assertPublicUrl(url, { outboundAllow: [] }));
    expect(err.status).toBe(422);
    expect(err.code).toBe("URL_NOT_ALLOWED");
  });

  test("only http and https", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/x", "gopher://example.com/"]) {
      const err = await refusal(assertPublicUrl(url, { outboundAllow: [] }));
      expect(err.message).toContain("only http and https");
    }
  });

  test("a host name that resolves to a private address is refused, naming the address", async () => {
    const err = await refusal(
      assertPublicUrl("http://intranet.example/", { outboundAllow: [] }, hosts({ "intranet.example": "10.1.2.3" })),
    );
    expect(err.message).toContain("intranet.example resolves to 10.1.2.3");
  });

  test("a public answer passes and is returned for pinning", async () => {
    const checked = await assertPublicUrl(
      "https://news.example/a",
      { outboundAllow: [] },
      hosts({ "news.example": "93.184.216.34" }),
    );
    expect(checked.address).toBe("93.184.216.34");
  });

  test("safeFetch refuses loopback, and never connects", async () => {
    const before = hits.length;
    const err = await refusal(safeFetch(`${local}/hello`));
    expect(err.code).toBe("URL_NOT_ALLOWED");
    expect(hits.length).toBe(before);
  });

  test("safeFetch refuses a name resolving to a private address", async () => {
    const err = await refusal(
      safeFetch(`http://sneaky.example:${port}/hello`, { resolve: hosts({ "sneaky.example": "127.0.0.1" }) }),
    );
    expect(err.code).toBe("URL_NOT_ALLOWED");
  });
});

describe("OUTBOUND_ALLOW", () => {
  test("lets a 127.0.0.1 test server through", async () => {
    const res = await safeFetch(`${local}/hello`, { allow: ["127.0.0.1"] });
    expect(res.status).toBe(200);
    expect(res.text()).toBe("hello from loopback");
  });

  test("a CIDR works too", async () => {
    expect((await safeFetch(`${local}/hello`, { allow: ["127.0.0.0/8"] })).ok).toBe(true);
  });

  test("the connection is pinned to the checked address: the name is never looked up again", async () => {
    // pinned.invalid does not exist in DNS; only our resolver knows it. The request still
    // reaches the server, so the socket used the address the guard checked.
    const res = await safeFetch(`http://pinned.invalid:${port}/hello`, {
      allow: ["127.0.0.1"],
      resolve: hosts({ "pinned.invalid": "127.0.0.1" }),
    });
    expect(res.text()).toBe("hello from loopback");
    expect(hits.at(-1)).toBe(`GET /hello host=pinned.invalid:${port}`);
  });
});

describe("redirects", () => {
  test("followed when allowed, with the final URL reported", async () => {
    const res = await safeFetch(`${local}/to-hello`, { allow: ["127.0.0.1"] });
    expect(res.text()).toBe("hello from loopback");
    expect(res.url).toBe(`${local}/hello`);
    expect(res.redirects).toBe(1);
  });

  test("a redirect to a private address is refused", async () => {
    // The first host is allowed by name; the redirect target (127.0.0.1 itself) is not.
    const before = hits.filter((h) => h.startsWith("GET /hello")).length;
    const err = await refusal(
      safeFetch(`http://allowed.example:${port}/to-private`, {
        allow: ["allowed.example"],
        resolve: hosts({ "allowed.example": "127.0.0.1" }),
      }),
    );
    expect(err.code).toBe("URL_NOT_ALLOWED");
    expect(hits.filter((h) => h.startsWith("GET /hello")).length).toBe(before);
  });

  test("a redirect to the metadata address is refused", async () => {
    const err = await refusal(safeFetch(`${local}/to-metadata`, { allow: ["127.0.0.1"] }));
    expect(err.message).toContain("169.254.169.254");
  });

  test("more than 5 redirects fail", async () => {
    const err = await refusal(safeFetch(`${local}/loop`, { allow: ["127.0.0.1"] }));
    expect(err.code).toBe("TOO_MANY_REDIRECTS");
    expect(hits.filter((h) => h.startsWith("GET /loop")).length).toBe(6);
  });

  test("maxRedirects: 0 returns the redirect itself (webhooks)", async () => {
    const res = await safeFetch(`${local}/to-hello`, { allow: ["127.0.0.1"], maxRedirects: 0 });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${local}/hello`);
  });

  test("303 continues as a GET without the body", async () => {
    const res = await safeFetch(`${local}/see-other`, { allow: ["127.0.0.1"], method: "POST", body: "payload" });
    expect(res.json()).toEqual({ method: "GET", body: "", header: null });
  });
});

describe("limits and options", () => {
  test("method, headers and body are sent", async () => {
    const res = await safeFetch(`${local}/echo`, {
      allow: ["127.0.0.1"],
      method: "POST",
      body: '{"a":1}',
      headers: { "x-test": "yes" },
    });
    expect(res.json()).toEqual({ method: "POST", body: '{"a":1}', header: "yes" });
  });

  test("a body over 20 MB is cut off", async () => {
    const err = await refusal(safeFetch(`${local}/big`, { allow: ["127.0.0.1"] }));
    expect(err.code).toBe("RESPONSE_TOO_LARGE");
    expect(err.message).toContain("20 MB");
  });

  test("the cap counts decoded bytes, so a gzip bomb is cut off too", async () => {
    expect((await safeFetch(`${local}/gzip`, { allow: ["127.0.0.1"] })).text()).toBe("compressed body");
    const err = await refusal(safeFetch(`${local}/gzip-bomb`, { allow: ["127.0.0.1"] }));
    expect(err.code).toBe("RESPONSE_TOO_LARGE");
  });

  test("a server that does not answer in time fails with a timeout", async () => {
    const started = performance.now();
    const err = await refusal(safeFetch(`${local}/slow`, { allow: ["127.0.0.1"], timeoutMs: 300 }));
    expect(err.code).toBe("FETCH_TIMEOUT");
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
  });

  test("a closed port is a clear failure", async () => {
    const err = await refusal(safeFetch("http://127.0.0.1:9/", { allow: ["127.0.0.1"] }));
    expect(err.code).toBe("FETCH_FAILED");
    expect(err.message).toContain("ECONNREFUSED");
  });
});
