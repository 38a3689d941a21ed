/**
 * HTML to markdown: the main content only (Readability over a linkedom DOM), converted by turndown
 * with GFM tables; code blocks, links and the page title kept.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { gfm } from "turndown-plugin-gfm";
import { markdownToBlocks } from "./document.ts";
import { normalizeMarkdown } from "./markdown.ts";
import { resultOf } from "./result.ts";
import { decodeText } from "./text.ts";
import type { ExtractResult } from "./types.ts";

type HtmlDocument = ReturnType<typeof parseHTML>["document"];

function createTurndown(): TurndownService {
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", hr: "---" });
  td.use(gfm);
  // Heading permalinks ("#", "¶") repeat the heading as noise.
  td.addRule("permalink", {
    filter: (node) => node.nodeName === "A" && /^#/.test(node.getAttribute("href") ?? "") && /^[#¶§🔗]?$/u.test((node.textContent ?? "").trim()),
    replacement: () => "",
  });
  // As the GFM plugin's cell rule, but block content (lists, paragraphs) is flattened onto the
  // row: a newline inside a cell would end the table.
  td.addRule("flatTableCell", {
    filter: ["th", "td"],
    replacement: (content, node) => {
      const first = node.parentNode?.firstChild === node || [...(node.parentNode?.childNodes ?? [])].indexOf(node) === 0;
      return `${first ? "| " : " "}${content.trim().replace(/\s*\n\s*/g, " ")} |`;
    },
  });
  // Images carry no text to extract; their alt text is kept in place of them.
  td.addRule("image", { filter: "img", replacement: (_content, node) => (node as HTMLElement).getAttribute("alt") ?? "" });
  td.remove(["script", "style", "noscript", "iframe", "form", "button"]);
  return td;
}

const turndown = createTurndown();

/** Links and images made absolute, so they still work once the markdown leaves the page. */
function absolutizeLinks(doc: HtmlDocument, baseUrl: string): void {
  for (const [selector, attr] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
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

/** Syntax highlighters put `<br>` inside `<pre>`; turndown reads only text there, so make them newlines. */
function keepCodeLineBreaks(doc: HtmlDocument): void {
  for (const br of doc.querySelectorAll("pre br")) br.replaceWith(doc.createTextNode("\n"));
}

/**
 * The GFM plugin writes a table as markdown only when its first row is a header row right at the
 * start of the table, and leaves raw HTML otherwise. So a caption becomes a paragraph before the
 * table, and the first row's cells are promoted to header cells.
 */
function prepareTables(doc: HtmlDocument): void {
  for (const table of doc.querySelectorAll("table")) {
    for (const caption of table.querySelectorAll("caption")) {
      const p = doc.createElement("p");
      p.textContent = caption.textContent ?? "";
      table.before(p);
      caption.remove();
    }
    const row = table.querySelector("tr");
    if (!row || row.querySelector("th")) continue;
    for (const cell of [...row.children]) {
      if (cell.nodeName !== "TD") continue;
      const th = doc.createElement("th");
      while (cell.firstChild) th.appendChild(cell.firstChild);
      cell.replaceWith(th);
    }
  }
}

/** MediaWiki's "[edit]" links sit inside every heading of every wiki page; they are chrome, not content. */
function dropEditLinks(doc: HtmlDocument): void {
  for (const el of doc.querySelectorAll(".mw-editsection")) el.remove();
}

function htmlToMarkdown(html: string, baseUrl?: string): { title: string | null; markdown: string } {
  const { document } = parseHTML(html);
  dropEditLinks(document);
  if (baseUrl) absolutizeLinks(document, baseUrl);
  keepCodeLineBreaks(document);
  const fallbackTitle = document.querySelector("title")?.textContent?.trim() || null;
  const bodyHtml = document.body?.innerHTML ?? html;
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  const content = parseHTML(`<!doctype html><html><body>${article?.content || bodyHtml}</body></html>`).document;
  prepareTables(content);
  const markdown = normalizeMarkdown(turndown.turndown(content.body.innerHTML));
  return { title: article?.title?.trim() || fallbackTitle, markdown };
}

export function extractHtml(html: string, baseUrl?: string): ExtractResult {
  const { title, markdown } = htmlToMarkdown(html, baseUrl);
  return resultOf(markdownToBlocks(markdown), { title, mimeType: "text/html", pages: 1 }, "section");
}

/** The charset a page declares in a `<meta>` tag near its start, if any. */
function metaCharset(head: Uint8Array): string | null {
  const text = new TextDecoder("latin1").decode(head.subarray(0, 4096));
  return /<meta[^>]+charset\s*=\s*["']?([\w:-]+)/i.exec(text)?.[1] ?? null;
}

/** An HTML file or fetched page; `charset` is the one an HTTP header declared, which wins. */
export async function extractHtmlFile(path: string, opts: { baseUrl?: string; charset?: string } = {}): Promise<ExtractResult> {
  const data = await Bun.file(path).bytes();
  return extractHtml(decodeText(data, opts.charset ?? metaCharset(data)), opts.baseUrl);
}
