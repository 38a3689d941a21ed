/**
 * Web pages: fetched through the SSRF-guarded client, then read like an uploaded file. The page's
 * bytes decide what it is, so a URL that serves a PDF is extracted as a PDF; HTML keeps its
 * title and gets absolute links.
 */
import { mkdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { AppError } from "../errors.ts";
import { safeFetch } from "../net/safe-fetch.ts";
import { newId } from "../util.ts";
import { assertExtractable, detectFileKind } from "./detect.ts";
import { runExtraction } from "./run-extraction.ts";
import type { ExtractionOptions, ExtractResult, IngestConfig } from "./types.ts";

const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/pdf;q=0.8,*/*;q=0.5";
const USER_AGENT = "Mozilla/5.0 (compatible; courseforge/0.1; +https://github.com/courseforge)";

/** A file name whose extension tells the detector the text types it cannot see in the bytes. */
function nameFor(finalUrl: string, mediaType: string): string {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "page.html";
  if (mediaType === "text/plain") return "page.txt";
  if (mediaType === "text/markdown") return "page.md";
  return basename(new URL(finalUrl).pathname) || "download";
}

export async function extractWebPage(
  url: string,
  cfg: IngestConfig,
  opts: ExtractionOptions = {},
): Promise<ExtractResult> {
  const res = await safeFetch(url, { allow: cfg.outboundAllow, headers: { accept: ACCEPT, "user-agent": USER_AGENT } });
  if (!res.ok) throw new AppError("FETCH_FAILED", `${url} answered HTTP ${res.status}`);
  if (res.body.length === 0) throw new AppError("NO_TEXT_FOUND", `${url} returned an empty page`);
  const contentType = res.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  const charset = /charset\s*=\s*"?([\w:-]+)/i.exec(contentType)?.[1];
  const filename = nameFor(res.url, mediaType);

  const dir = join(cfg.dataDir, "tmp");
  await mkdir(dir, { recursive: true });
  const path = join(dir, `web-${newId()}`);
  await Bun.write(path, res.body);
  try {
    const { kind } = await detectFileKind(path, filename);
    assertExtractable(kind, filename);
    return await runExtraction(
      { path, filename, kind, baseUrl: res.url, charset, index: opts.index, markdownOnly: opts.markdownOnly },
      cfg,
      opts,
    );
  } finally {
    await rm(path, { force: true });
  }
}
