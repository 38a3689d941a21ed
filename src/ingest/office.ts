/**
 * DOCX, ODT, PPTX and ODP as blocks, read from officeparser's AST: headings (for DOCX from its
 * styles and outline levels), lists, tables cell by cell, footnotes. Documents become one segment
 * per heading section; presentations one per slide, with its number and speaker notes.
 */
import { type OfficeContentNode, type OfficeParserAST, parseOffice } from "officeparser";
import { AppError } from "../errors.ts";
import { MIME_TYPES } from "./detect.ts";
import { type Block, block, escapeInline } from "./document.ts";
import { astKind, type BlockContext, type NodeKind, NoteLabels, nodeBlocks } from "./office-blocks.ts";
import { docxStyles } from "./office-styles.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult, FileLimits } from "./types.ts";
import { assertSafeZip, MAX_ZIP_ENTRIES } from "./zip-guard.ts";

export type OfficeKind = "docx" | "pptx" | "odt" | "odp";

async function parse(
  data: Uint8Array,
  kind: OfficeKind,
  filename: string,
  maxXmlBytes: number,
): Promise<OfficeParserAST> {
  try {
    return await parseOffice(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      fileType: kind,
      ignoreComments: true,
      // The raw `<w:p>` of each paragraph, for its own outline level (officeparser reads none).
      includeRawContent: kind === "docx",
      serializeRawContent: false,
      // officeparser inflates only the XML parts it reads, counting the bytes as they come out.
      decompressionLimits: { maxUncompressedBytes: maxXmlBytes, maxZipEntries: MAX_ZIP_ENTRIES },
    });
  } catch (err) {
    const issue = (err as { officeIssue?: { code?: string; message?: string } }).officeIssue;
    if (issue?.code === "ZIP_SIZE_LIMIT_EXCEEDED" || issue?.code === "ZIP_ENTRY_COUNT_LIMIT_EXCEEDED") {
      throw new AppError("ARCHIVE_TOO_LARGE", `"${filename}" was refused as a likely zip bomb: ${issue.message}`);
    }
    const why = issue?.message ?? (err as Error).message;
    throw new AppError("UNREADABLE_FILE", `"${filename}" could not be read as ${kind.toUpperCase()}: ${why}`);
  }
}

const plainText = (node: OfficeContentNode): string => (node.text ?? "").replace(/\s+/g, " ").trim();
/** A line of a table of contents: a title and its page, never a sentence. */
const isContentsEntry = (text: string) => text.length <= 160 && !/[.!?]$/.test(text);

/**
 * A slide: its title a heading whose text is the title alone (headings paths and chunk headings
 * read it), shown in markdown as "Slide N: Title"; an untitled slide still gets a "Slide N"
 * heading, so its text is not taken to sit under the previous slide's title. Speaker notes follow
 * a "Speaker notes:" marker.
 */
function slideBlocks(slide: OfficeContentNode, index: number, notes: NoteLabels): Block[] {
  const number = Number((slide.metadata as { slideNumber?: number } | undefined)?.slideNumber ?? index + 1);
  const loc = { slide: number };
  const children = slide.children ?? [];
  const titleNode = children.find((c) => c.type === "heading" && plainText(c));
  const title = titleNode ? plainText(titleNode) : null;
  // Headings inside a slide sit below the slide's own level-2 heading.
  const ctx: BlockContext = { loc, notes, classify: (n) => astKind(n, 2) };
  const heading = title
    ? block("heading", title, loc, { level: 2, markdown: `Slide ${number}: ${escapeInline(title)}` })
    : block("heading", `Slide ${number}`, loc, { level: 2 });
  const body = nodeBlocks(
    children.filter((c) => c !== titleNode),
    ctx,
  );
  // A notes page ends with its slide-number placeholder, which says nothing.
  const noteParts = (slide.notes ?? []).flatMap((n) => n.children ?? []).filter((p) => plainText(p) !== String(number));
  const noteBlocks = nodeBlocks(noteParts, ctx);
  const marker = noteBlocks.length
    ? [block("paragraph", "Speaker notes:", loc, { markdown: "**Speaker notes:**" })]
    : [];
  return [heading, ...body, ...marker, ...noteBlocks];
}

function metaTitle(ast: OfficeParserAST): string | null {
  const meta = ast.metadata as { title?: unknown; nativeProperties?: Record<string, unknown> } | undefined;
  const title = meta?.title ?? meta?.nativeProperties?.["dc:title"];
  return typeof title === "string" && title.trim() ? title.trim() : null;
}

/**
 * How each paragraph of a DOCX reads: its style's name or outline level, or its own outline
 * level. A "Title" paragraph is the top heading, and when there is one the section headings
 * nest below it (Heading 1 at level 2), as docling and pandoc read it. A "Subtitle" is title
 * matter, and the entries of a Word table of contents (styles "toc 1"…, the field's cached text,
 * under its "TOC Heading") are contents, never text to teach.
 */
function docxClassifier(
  data: Uint8Array,
  content: OfficeContentNode[],
): { classify: (n: OfficeContentNode) => NodeKind; title: string | null } {
  const styles = docxStyles(data);
  const kindOf = (n: OfficeContentNode) =>
    styles.paragraphKind((n.metadata as { style?: string } | undefined)?.style, n.rawContent);
  const titleNode = content.find(
    (n) => (n.type === "paragraph" || n.type === "heading") && kindOf(n).kind === "title" && plainText(n),
  );
  const shift = titleNode ? 1 : 0;
  const classify = (n: OfficeContentNode): NodeKind => {
    const kind = kindOf(n);
    switch (kind.kind) {
      case "title":
        return { kind: "heading", level: 1 };
      case "subtitle":
        return { kind: "paragraph", role: "title_page" };
      case "contents":
        if (kind.heading) return { kind: "heading", level: 1 + shift, role: "toc" };
        // A sentence someone typed in a contents style after the field is text, not an entry.
        return isContentsEntry(plainText(n)) ? { kind: "paragraph", role: "toc" } : { kind: "paragraph" };
      case "heading":
        return { kind: "heading", level: Math.min(kind.level + shift, 6) };
      case "caption":
        return { kind: "caption" };
      case "body":
        // Numbering id 0 is Word's "no numbering": a paragraph taken out of a list.
        return { kind: n.type === "list" && n.metadata?.listId !== "0" ? "list_item" : "paragraph" };
    }
  };
  return { classify, title: titleNode ? plainText(titleNode) : null };
}

export async function extractOffice(
  path: string,
  filename: string,
  kind: OfficeKind,
  limits: FileLimits,
): Promise<ExtractResult> {
  const data = new Uint8Array(await Bun.file(path).arrayBuffer());
  assertSafeZip(data, filename, limits.maxXmlBytes);
  const ast = await parse(data, kind, filename, limits.maxXmlBytes);
  const mimeType = MIME_TYPES[kind];
  const notes = new NoteLabels();

  if (kind === "pptx" || kind === "odp") {
    const slides = ast.content.filter((n) => n.type === "slide");
    const perSlide = slides.map((s, i) => slideBlocks(s, i, notes));
    const firstTitle = slides.map((s) => s.children?.find((c) => c.type === "heading" && plainText(c))).find(Boolean);
    return resultOf(
      perSlide.flat(),
      { title: metaTitle(ast) ?? (firstTitle ? plainText(firstTitle) : null), mimeType, pages: slides.length },
      "slide",
    );
  }

  const docx = kind === "docx" ? docxClassifier(data, ast.content) : null;
  const blocks = nodeBlocks(ast.content, { loc: {}, notes, classify: docx?.classify ?? ((n) => astKind(n)) });
  const firstHeading = blocks.find((b) => b.kind === "heading" && b.level === 1)?.text ?? null;
  // A document is one billed unit: its page count would depend on the printer (the saved `Pages`
  // property is only what the last editor laid out).
  return resultOf(blocks, { title: metaTitle(ast) ?? docx?.title ?? firstHeading, mimeType, pages: 1 }, "section");
}
