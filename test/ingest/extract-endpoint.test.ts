import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";
import { encryptedPdf, textPdf, zipBombDocx } from "./build-fixtures.ts";
import { type FakeYoutube, startFakeYoutube, VIDEO_WITH_CAPTIONS, VIDEO_WITHOUT_CAPTIONS } from "./fake-youtube.ts";
import { corpus } from "./support.ts";

let server: TestApp;
let yt: FakeYoutube;
let web: ReturnType<typeof Bun.serve>;
let webBase = "";
let key = "";

const MAX_FILE_BYTES = 3 * 1024 * 1024;

beforeAll(async () => {
  yt = await startFakeYoutube();
  const page = await Bun.file(corpus("html/readability-v8-blog/source.html")).bytes();
  web = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/post"
        ? new Response(page, { headers: { "content-type": "text/html" } })
        : new Response("no", { status: 404 }),
  });
  webBase = `http://127.0.0.1:${web.port}`;
  server = await startApp({
    env: { OUTBOUND_ALLOW: "127.0.0.1", YOUTUBE_BASE_URL: yt.origin, MAX_UPLOAD_FILE_BYTES: String(MAX_FILE_BYTES) },
  });
  key = await server.createKey("extract-tenant", "production");
});
afterAll(async () => {
  await server?.stop();
  web?.stop(true);
  yt?.stop();
});

const file = async (path: string, name: string) => new File([await Bun.file(corpus(path)).bytes()], name);
/** A built fixture as an upload (copied into a plain ArrayBuffer-backed array, as File wants). */
const named = (bytes: Uint8Array, name: string) => new File([new Uint8Array(bytes)], name);

async function extract(form: FormData, apiKey = key) {
  return call(server, "/v2/documents/extract", { method: "POST", key: apiKey, body: form });
}

describe("POST /v2/documents/extract", () => {
  test("every kind of source in one request: documents, counts, billing, stored originals", async () => {
    const form = new FormData();
    form.append("files", await file("pdf/tracemonkey.pdf", "tracemonkey.pdf"));
    form.append("files", await file("docx/docling-word_sample.docx", "word_sample.docx"));
    form.append("files", await file("pptx/docling-powerpoint_sample.pptx", "slides.pptx"));
    form.append("files", await file("images/tesseractjs-simple.png", "simple.png"));
    form.append("files", named(await encryptedPdf(), "locked.pdf"));
    form.append("files", new File([new Uint8Array()], "empty.txt"));
    form.append(
      "youtube_urls",
      JSON.stringify([
        `https://youtu.be/${VIDEO_WITH_CAPTIONS}`,
        `https://www.youtube.com/watch?v=${VIDEO_WITHOUT_CAPTIONS}`,
      ]),
    );
    form.append("web_urls", JSON.stringify([`${webBase}/post`]));
    const res = await extract(form);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.count).toBe(9);
    expect(body.ready).toBe(6);
    expect(body.errored).toBe(3);

    const byName = Object.fromEntries(body.documents.map((d: any) => [d.filename, d]));
    const pdf = byName["tracemonkey.pdf"];
    expect(Object.keys(pdf).sort()).toEqual(
      [
        "billed_amount_usd",
        "char_count",
        "created_at",
        "error_message",
        "filename",
        "id",
        "markdown",
        "mime_type",
        "pages",
        "source_type",
        "source_url",
        "status",
      ].sort(),
    );
    expect(pdf).toMatchObject({
      source_type: "file",
      mime_type: "application/pdf",
      pages: 14,
      status: "ready",
      error_message: null,
      billed_amount_usd: 0.028,
    });
    expect(pdf.char_count).toBe(pdf.markdown.length);
    expect(pdf.markdown).toContain("# Trace-based Just-in-Time Type Specialization for Dynamic Languages");
    expect(pdf.source_url).toStartWith(`${server.url}/media/`);
    const original = await server.fetch(pdf.source_url);
    expect(original.status).toBe(200);
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(await Bun.file(corpus("pdf/tracemonkey.pdf")).bytes());

    expect(byName["word_sample.docx"]).toMatchObject({ status: "ready", billed_amount_usd: 0.001 });
    expect(byName["slides.pptx"]).toMatchObject({ status: "ready", pages: 3, billed_amount_usd: 0.001 });
    expect(byName["simple.png"]).toMatchObject({
      status: "ready",
      pages: 1,
      mime_type: "image/png",
      billed_amount_usd: 0.002,
    });
    expect(byName["simple.png"].markdown).toContain("Tesseract.js");

    expect(byName["locked.pdf"]).toMatchObject({ status: "error", billed_amount_usd: 0, char_count: 0, markdown: "" });
    expect(byName["locked.pdf"].error_message).toContain("password-protected");
    expect(byName["empty.txt"]).toMatchObject({ status: "error", billed_amount_usd: 0 });
    expect(byName["empty.txt"].error_message).toBe('"empty.txt" is empty (0 bytes)');

    const video = byName[`https://youtu.be/${VIDEO_WITH_CAPTIONS}`];
    expect(video).toMatchObject({
      source_type: "youtube",
      pages: null,
      status: "ready",
      billed_amount_usd: 0.0005,
      source_url: `https://youtu.be/${VIDEO_WITH_CAPTIONS}`,
    });
    expect(video.markdown).toStartWith("[00:00] Hi, I'm Vanessa");
    const noCaptions = byName[`https://www.youtube.com/watch?v=${VIDEO_WITHOUT_CAPTIONS}`];
    expect(noCaptions).toMatchObject({ source_type: "youtube", status: "error", billed_amount_usd: 0 });
    expect(noCaptions.error_message).toContain("has no captions");

    const page = byName[`${webBase}/post`];
    expect(page).toMatchObject({
      source_type: "web",
      status: "ready",
      mime_type: "text/html",
      billed_amount_usd: 0.001,
      source_url: `${webBase}/post`,
    });
    expect(page.markdown).toContain("## Using standalone mode in Emscripten");

    // 14 pages + 1 image page at 0.002, three documents/pages at 0.001, one video at 0.0005.
    expect(body.total_billed_usd).toBe(0.0335);

    const usage = await call(server, "/v2/usage", { key });
    expect(usage.status).toBe(200);
    expect(usage.body.total_usd).toBe(0.0335);
    expect(usage.body.operations).toEqual([
      { operation: "extract.documents", events: 3, quantity: 3, amount_usd: 0.003 },
      { operation: "extract.pages", events: 2, quantity: 15, amount_usd: 0.03 },
      { operation: "extract.videos", events: 1, quantity: 1, amount_usd: 0.0005 },
    ]);
    // A production key has no test-key caps to report.
    expect(usage.body.test_key_limits).toBeNull();
    expect(usage.body.period.start).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
  });

  test("hostile files are per-entry errors and the server stays up", async () => {
    const form = new FormData();
    form.append("files", named(zipBombDocx(40), "bomb.docx"));
    form.append("files", named(await textPdf([{ heading: "Fine", body: ["A normal page."] }]), "fine.pdf"));
    const res = await extract(form);
    expect(res.status).toBe(200);
    const [bomb, fine] = res.body.documents;
    expect(bomb).toMatchObject({ filename: "bomb.docx", status: "error", billed_amount_usd: 0 });
    expect(bomb.error_message).toContain("zip bomb");
    expect(fine).toMatchObject({ filename: "fine.pdf", status: "ready", billed_amount_usd: 0.002 });
    expect((await call(server, "/health")).status).toBe(200);
  });

  test("no source is 400", async () => {
    const res = await extract(new FormData());
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toContain("at least one of files, youtube_urls or web_urls");
    expect((await call(server, "/v2/documents/extract", { method: "POST", key })).status).toBe(400);
  });

  test("more than 10 files is 413", async () => {
    const form = new FormData();
    for (let i = 0; i < 11; i++) form.append("files", new File([`note ${i}`], `n${i}.txt`));
    const res = await extract(form);
    expect(res.status).toBe(413);
    expect(errorOf(res).message).toBe("At most 10 files per request");
  });

  test("a file over the per-file limit is 413 naming it", async () => {
    const form = new FormData();
    form.append("files", new File([new Uint8Array(MAX_FILE_BYTES + 1024).fill(97)], "huge.txt"));
    const res = await extract(form);
    expect(res.status).toBe(413);
    expect(errorOf(res).message).toContain('"huge.txt" is larger than 3 MB');
  });

  test("a text file named .pdf is 415 naming it, and nothing is processed", async () => {
    const form = new FormData();
    form.append("files", new File(["plain words"], "notes.pdf"));
    form.append("files", await file("docx/docling-word_sample.docx", "ok.docx"));
    const res = await extract(form);
    expect(res.status).toBe(415);
    expect(errorOf(res).message).toContain('"notes.pdf" is named .pdf but its content is not a PDF');
  });

  test("legacy PPT is 415 telling to convert to PPTX", async () => {
    const form = new FormData();
    form.append("files", await file("pptx/legacy-fake-power-point.ppt", "old.ppt"));
    const res = await extract(form);
    expect(res.status).toBe(415);
    expect(errorOf(res).message).toContain("save it as PPTX");
  });

  test.each([
    ["web_urls", "not json"],
    ["web_urls", '{"url":"https://example.com"}'],
    ["youtube_urls", '["ftp://example.com/x"]'],
    ["web_urls", '["not a url"]'],
  ])("malformed %s (%s) is 422", async (field, value) => {
    const form = new FormData();
    form.append(field, value);
    const res = await extract(form);
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toContain(field);
  });

  test("a web URL the SSRF guard refuses is that entry's error", async () => {
    const form = new FormData();
    form.append("web_urls", JSON.stringify(["http://169.254.169.254/latest/meta-data/"]));
    const res = await extract(form);
    expect(res.status).toBe(200);
    expect(res.body.documents[0]).toMatchObject({ status: "error", billed_amount_usd: 0 });
    expect(res.body.documents[0].error_message).toContain("OUTBOUND_ALLOW");
  });

  test("without an API key it is 401", async () => {
    const form = new FormData();
    form.append("web_urls", JSON.stringify([`${webBase}/post`]));
    expect((await call(server, "/v2/documents/extract", { method: "POST", body: form })).status).toBe(401);
  });
});
