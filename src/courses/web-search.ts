/**
 * Web search through a SearXNG instance (SEARXNG_URL), fetched with the SSRF-safe outbound
 * fetcher. Search only enriches a chapter, so a failing search is logged and the chapter is
 * written from its other sources.
 */
import { safeFetch } from "../net/safe-fetch.ts";
import type { WebSearchDeps } from "./deps.ts";

export interface WebResult {
  url: string;
  title: string;
  content: string;
}

interface SearxngReply {
  results?: { url?: unknown; title?: unknown; content?: unknown }[];
}

export const SEARCH_UNAVAILABLE_NOTE =
  "Web search was requested, but this server has no search backend configured (SEARXNG_URL is not set); the course was built without web results.";

export async function webSearch(svc: WebSearchDeps, query: string, limit: number): Promise<WebResult[]> {
  const base = svc.cfg.searxngUrl;
  if (!base) return [];
  const url = new URL("search", base.endsWith("/") ? base : `${base}/`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  try {
    const res = await safeFetch(url.toString(), {
      timeoutMs: 10_000,
      headers: { accept: "application/json" },
      allow: svc.cfg.outboundAllow,
    });
    if (!res.ok) throw new Error(`SearXNG answered ${res.status}`);
    const body = (await res.json()) as SearxngReply;
    return (body.results ?? [])
      .filter(
        (r): r is { url: string; title: string; content?: unknown } =>
          typeof r.url === "string" && /^https?:\/\//.test(r.url) && typeof r.title === "string",
      )
      .slice(0, limit)
      .map((r) => ({ url: r.url, title: r.title, content: typeof r.content === "string" ? r.content : "" }));
  } catch (err) {
    svc.log.warn("web search failed", { error: err instanceof Error ? err.message : String(err) });
    return [];
  }
}
