/**
 * Course text as HTML for LMS pages. Chapter text comes from documents, so markdown is rendered by
 * marked and then sanitised: no scripts, event handlers, styles, frames, forms or remote images,
 * and links only to http(s) and mail. Plain strings are escaped.
 */
import { Marked, type Token } from "marked";
import type SanitizeHtml from "sanitize-html";

const marked = new Marked({ gfm: true, async: false });

const policy = (sanitizeHtml: typeof SanitizeHtml): SanitizeHtml.IOptions => ({
  allowedTags: [
    ...["h1", "h2", "h3", "h4", "h5", "h6", "p", "blockquote", "pre", "code", "ul", "ol", "li", "hr", "br"],
    ...["em", "strong", "del", "sub", "sup", "a", "table", "thead", "tbody", "tr", "th", "td"],
  ],
  allowedAttributes: { a: ["href", "title", "rel", "target"], th: ["align"], td: ["align"] },
  allowedSchemes: ["http", "https", "mailto"],
  disallowedTagsMode: "escape",
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }) },
});

export const escapeHtml = (text: string) => Bun.escapeHTML(text);

/** Markdown to sanitised HTML; markup the policy does not allow is shown as text, not dropped. */
export function markdownToHtml(markdown: string): string {
  // Required on first use, not at server start (with its parsers, a quarter of a second of CPU);
  // a literal name keeps it in the compiled executable.
  const sanitizeHtml = require("sanitize-html") as typeof SanitizeHtml;
  return sanitizeHtml(marked.parse(markdown) as string, policy(sanitizeHtml));
}

/**
 * Markdown whose raw HTML reads as text in any viewer: each HTML fragment the markdown lexer finds
 * is written with entities wherever it occurs, so `<script>` in a document shows as `<script>`
 * (the same characters inside a code span then show as entities too: never running them wins).
 */
export function inertMarkdown(markdown: string): string {
  const fragments = new Set<string>();
  marked.walkTokens(marked.lexer(markdown), (t: Token) => {
    if (t.type === "html") fragments.add(t.raw.trim());
  });
  let out = markdown;
  for (const f of [...fragments].filter(Boolean).sort((a, b) => b.length - a.length))
    out = out.split(f).join(escapeHtml(f));
  return out;
}
