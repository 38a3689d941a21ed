import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { extractUrl, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { corpus, failure, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
let server: ReturnType<typeof Bun.serve>;
let base = "";

beforeAll(async () => {
  const wiki = await Bun.file(corpus("html/readability-wikipedia/source.html")).bytes();
  const pdf = await Bun.file(corpus("pdf/tracemonkey.pdf")).bytes();
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname === "/wiki/Mozilla")
        return new Response(wiki, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (pathname === "/old-link") return Response.redirect("/wiki/Mozilla", 301);
      if (pathname === "/download")
        return new Response(pdf, { headers: { "content-type": "application/octet-stream" } });
      if (pathname === "/latin1") {
        const html =
          "<html><head><title>Caf\u00e9</title></head><body><article><p>" +
          "Cr\u00e8me br\u00fbl\u00e9e et caf\u00e9. ".repeat(40) +
          "</p></article></body></html>";
        return new Response(Buffer.from(html, "latin1"), {
          headers: { "content-type": "text/html; charset=ISO-8859-1" },
        });
      }
      if (pathname === "/gif")
        return new Response(new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0]), {
          headers: { "content-type": "image/gif" },
        });
      return new Response("gone", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => {
  server.stop(true);
  stopExtractionWorkers();
  tmp.remove();
});

const cfg = () => ingestConfig(tmp.dir, { outboundAllow: ["127.0.0.1"] });

describe("extractUrl on web pages", () => {
  test("a page: main content as markdown, title kept, relative links made absolute", async () => {
    const r = await extractUrl(`${base}/wiki/Mozilla`, cfg());
    expect(r.sourceType).toBe("web");
    expect(r.title).toBe("Mozilla - Wikipedia");
    expect(r.mimeType).toBe("text/html");
    expect(r.markdown).toContain("**Mozilla** is a [free-software]");
    expect(r.markdown).toContain(`(${base}/wiki/Free_software)`);
  });

  test("redirects are followed (and checked)", async () => {
    const r = await extractUrl(`${base}/old-link`, cfg());
    expect(r.title).toBe("Mozilla - Wikipedia");
  });

  test("a URL serving a PDF is extracted as a PDF", async () => {
    const r = await extractUrl(`${base}/download`, cfg());
    expect(r.mimeType).toBe("application/pdf");
    expect(r.pages).toBe(14);
    expect(r.title).toBe("Trace-based Just-in-Time Type Specialization for Dynamic Languages");
  });

  test("the charset from the Content-Type header is honoured", async () => {
    const r = await extractUrl(`${base}/latin1`, cfg());
    expect(r.markdown).toContain("Crème brûlée et café.");
  });

  test("a 404 is a clear error naming the URL", async () => {
    const err = await failure(extractUrl(`${base}/missing`, cfg()));
    expect(err.message).toBe(`${base}/missing answered HTTP 404`);
  });

  test("an unsupported content type is a clear error", async () => {
    const err = await failure(extractUrl(`${base}/gif`, cfg()));
    expect(err.status).toBe(415);
    expect(err.message).toContain("image/gif");
  });

  test("without OUTBOUND_ALLOW a loopback page is refused", async () => {
    const err = await failure(extractUrl(`${base}/wiki/Mozilla`, ingestConfig(tmp.dir)));
    expect(err.code).toBe("URL_NOT_ALLOWED");
  });
});
