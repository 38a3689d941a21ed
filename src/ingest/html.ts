/**
 * HTML as blocks: the main content only (Readability over a linkedom DOM), read element by
 * element (html-blocks.ts); links made absolute, code line breaks and languages kept, the page
 * title kept.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { domBlocks, markCodeLanguages } from "./html-blocks.ts";
import { resultOf } from "./result.ts";
import { decodeText } from "./text.ts";
import type { ExtractResult } from "./types.ts";

type HtmlDocument = ReturnType<typeof parseHTML>["document"];

/** Links and images made absolute, so they still work once the markdown leaves the page. */
function absolutizeLinks(doc: HtmlDocument, baseUrl: string): void {
  for (const [selector, attr] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const el of doc.querySelectorAll(selector)) {
      const value = el.getAttribute(attr);
      if (!value || value.startsWith("#")) continue;
      try {
        el.setAttribute(attr, new URL(value, baseUrl).href);
      } catch {
        // A malformed URL stays as written.
      }
    }
  }
}

/** Syntax highlighters put `<br>` inside `<pre>`; code is read as text, so make them newlines. */
function keepCodeLineBreaks(doc: HtmlDocument): void {
  for (const br of doc.querySelectorAll("pre br")) br.replaceWith(doc.createTextNode("\n"));
}

/** MediaWiki's "[edit]" links sit inside every heading of every wiki page; they are chrome, not content. */
function dropEditLinks(doc: HtmlDocument): void {
  for (const el of doc.querySelectorAll(".mw-editsection")) el.remove();
}

export function extractHtml(html: string, baseUrl?: string): ExtractResult {
  const { document } = parseHTML(html);
  dropEditLinks(document);
  if (baseUrl) absolutizeLinks(document, baseUrl);
  keepCodeLineBreaks(document);
  markCodeLanguages(document);
  const fallbackTitle = document.querySelector("title")?.textContent?.trim() || null;
  const bodyHtml = document.body?.innerHTML ?? html;
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  const content = parseHTML(`<!doctype html><html><body>${article?.content || bodyHtml}</body></html>`).document;
  const title = article?.title?.trim() || fallbackTitle;
  return resultOf(domBlocks(content.body), { title, mimeType: "text/html", pages: 1 }, "section");
}

/** The charset a page declares in a `<meta>` tag near its start, if any. */
function metaCharset(head: Uint8Array): string | null {
  const text = new TextDecoder("latin1").decode(head.subarray(0, 4096));
  return /<meta[^>]+charset\s*=\s*["']?([\w:-]+)/i.exec(text)?.[1] ?? null;
}

/** An HTML file or fetched page; `charset` is the one an HTTP header declared, which wins. */
export async function extractHtmlFile(
  path: string,
  opts: { baseUrl?: string; charset?: string } = {},
): Promise<ExtractResult> {
  const data = await Bun.file(path).bytes();
  return extractHtml(decodeText(data, opts.charset ?? metaCharset(data)), opts.baseUrl);
}
