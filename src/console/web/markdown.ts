/**
 * Markdown and document text made safe to show. Chapters, notes and passages come from uploaded
 * documents, which are untrusted: marked renders, DOMPurify removes scripts, event handlers and
 * javascript: links, and anything that would load from elsewhere (images, media, frames, forms).
 */
import DOMPurify from "dompurify";
import { marked } from "marked";

const FORBID_TAGS = [
  "img",
  "picture",
  "source",
  "video",
  "audio",
  "iframe",
  "frame",
  "object",
  "embed",
  "form",
  "input",
  "button",
  "style",
  "link",
  "meta",
  "base",
  "svg",
  "math",
];

// Links from documents open elsewhere without handing this page to the target.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href")) {
    node.setAttribute("rel", "noopener noreferrer nofollow");
    node.setAttribute("target", "_blank");
  }
});

export function markdownToSafeHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html, { FORBID_TAGS, FORBID_ATTR: ["style", "srcset"] });
}
