/**
 * DOCX, ODT, PPTX and ODP to markdown with officeparser, whose AST keeps headings, lists and
 * tables. Documents become one segment per heading section; presentations one per slide, with
 * its number and speaker notes.
 */
import { parseOffice, type OfficeContentNode, type OfficeParserAST } from "officeparser";
import { AppError } from "../errors.ts";
import { MIME_TYPES } from "./detect.ts";
import { type Block, block, markdownToBlocks } from "./document.ts";
import { firstHeading, normalizeMarkdown } from "./markdown.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult } from "./types.ts";
import { assertSafeZip, MAX_INFLATED_BYTES, MAX_ZIP_ENTRIES } from "./zip-guard.ts";

export type OfficeKind = "docx" | "pptx" | "odt" | "odp";

const MARKDOWN_OPTIONS = {
  includeFormatting: false,
  generateIds: false,
  renderMetadata: false,
  includeImages: false,
  mdConfig: { fallbackToHtml: false, dialect: { extends: "github", attributeLists: "none" } },
} as const;

async function parse(data: Uint8Array, kind: OfficeKind, filename: string): Promise<OfficeParserAST> {
  try {
    return await parseOffice(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      fileType: kind,
      ignoreComments: true,
      decompressionLimits: { maxUncompressedBytes: MAX_INFLATED_BYTES, maxZipEntries: MAX_ZIP_ENTRIES },
    });
  } catch (err) {
    const issue = (err as { officeIssue?: { code?: string; message?: string } }).officeIssue;
    if (issue?.code === "ZIP_SIZE_LIMIT_EXCEEDED" || issue?.code === "ZIP_ENTRY_COUNT_LIMIT_EXCEEDED") {
      throw new AppError(422, "ARCHIVE_TOO_LARGE", `"${filename}" was refused as a likely zip bomb: ${issue.message}`);
    }
    const why = issue?.message ?? (err as Error).message;
    throw new AppError(422, "UNREADABLE_FILE", `"${filename}" could not be read as ${kind.toUpperCase()}: ${why}`);
  }
}

/** Renders nodes with the AST's own generator; bookmark anchors (`{#toc123}`) are dropped. */
async function render(ast: OfficeParserAST, content: OfficeContentNode[]): Promise<string> {
  if (content.length === 0) return "";
  const { value } = await { ...ast, metadata: {}, content }.to("md", MARKDOWN_OPTIONS);
  return normalizeMarkdown(String(value).replace(/^(#{1,6} .*?)\s*\{#[^}]*\}\s*$/gm, "$1"));
}

/** Headings inside a slide sit below the slide's own `##` heading. */
function demoteHeadings(node: OfficeContentNode): OfficeContentNode {
  const children = node.children?.map(demoteHeadings);
  if (node.type !== "heading") return { ...node, children } as OfficeContentNode;
  const level = Number((node.metadata as { level?: number } | undefined)?.level ?? 1);
  return { ...node, children, metadata: { ...node.metadata, level: Math.min(level + 2, 6) } } as OfficeContentNode;
}

const plainText = (node: OfficeContentNode): string => (node.text ?? "").replace(/\s+/g, " ").trim();

async function slideBlocks(ast: OfficeParserAST, slide: OfficeContentNode, index: number): Promise<Block[]> {
  const number = Number((slide.metadata as { slideNumber?: number } | undefined)?.slideNumber ?? index + 1);
  const children = slide.children ?? [];
  const titleNode = children.find((c) => c.type === "heading" && plainText(c));
  const title = titleNode ? plainText(titleNode) : null;
  const body = await render(ast, children.filter((c) => c !== titleNode).map(demoteHeadings));
  // A notes page ends with its slide-number placeholder, which says nothing.
  const noteParts = (slide.notes ?? []).flatMap((n) => n.children ?? []).filter((p) => plainText(p) !== String(number));
  const notes = await render(ast, noteParts);
  const loc = { slide: number };
  const heading = block("heading", title ? `Slide ${number}: ${title}` : `Slide ${number}`, loc, { level: 2 });
  const notesBlocks = notes ? [block("paragraph", "Speaker notes:", loc, { markdown: "**Speaker notes:**" }), ...markdownToBlocks(notes, loc)] : [];
  return [heading, ...markdownToBlocks(body, loc), ...notesBlocks];
}

function metaTitle(ast: OfficeParserAST): string | null {
  const meta = ast.metadata as { title?: unknown; nativeProperties?: Record<string, unknown> } | undefined;
  const title = meta?.title ?? meta?.nativeProperties?.["dc:title"];
  return typeof title === "string" && title.trim() ? title.trim() : null;
}

export async function extractOffice(path: string, filename: string, kind: OfficeKind): Promise<ExtractResult> {
  const data = new Uint8Array(await Bun.file(path).arrayBuffer());
  assertSafeZip(data, filename);
  const ast = await parse(data, kind, filename);
  const mimeType = MIME_TYPES[kind];

  if (kind === "pptx" || kind === "odp") {
    const slides = ast.content.filter((n) => n.type === "slide");
    const perSlide = await Promise.all(slides.map((s, i) => slideBlocks(ast, s, i)));
    const firstTitle = perSlide.map((b) => b[0]?.text.replace(/^Slide \d+:?\s*/, "")).find((t) => t);
    return resultOf(perSlide.flat(), { title: metaTitle(ast) ?? firstTitle ?? null, mimeType, pages: slides.length }, "slide");
  }

  const markdown = await render(ast, ast.content);
  const pagesProp = (ast.metadata as { nativeProperties?: Record<string, unknown> } | undefined)?.nativeProperties?.Pages;
  const pages = typeof pagesProp === "number" && pagesProp > 0 ? pagesProp : 1;
  return resultOf(markdownToBlocks(markdown), { title: metaTitle(ast) ?? firstHeading(markdown, 1), mimeType, pages }, "section");
}
