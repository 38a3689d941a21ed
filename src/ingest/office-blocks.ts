/**
 * officeparser's AST as document blocks: paragraphs with their web links, tab stops kept as
 * separators, list items with their depth, tables cell by cell (merged cells left empty, never
 * shifted), footnotes and endnotes as labelled blocks right after the block that cites them;
 * paragraphs set wholly in a fixed-pitch font are code, consecutive ones one listing.
 */
import type { OfficeContentNode } from "officeparser";
import { type Block, type BlockKind, type BlockLocation, type BlockRole, block, escapeInline } from "./document.ts";

/**
 * What a paragraph-like node (paragraph, heading, list item) becomes, and its role when its style
 * says it (a Word table of contents' entries, a title page's title and subtitle).
 */
export type NodeKind = ({ kind: "heading"; level: number } | { kind: "paragraph" | "caption" | "list_item" }) & {
  role?: BlockRole;
};

export interface BlockContext {
  loc: BlockLocation;
  classify(node: OfficeContentNode): NodeKind;
  notes: NoteLabels;
}

/** Footnotes are numbered 1, 2, 3 and endnotes i, ii, iii in the order they are cited, as Word does by default. */
export class NoteLabels {
  private footnotes = 0;
  private endnotes = 0;

  next(note: OfficeContentNode): string {
    if ((note.metadata as { noteType?: string } | undefined)?.noteType === "endnote") return roman(++this.endnotes);
    return String(++this.footnotes);
  }
}

function roman(n: number): string {
  const digits: [number, string][] = [
    [1000, "m"],
    [900, "cm"],
    [500, "d"],
    [400, "cd"],
    [100, "c"],
    [90, "xc"],
    [50, "l"],
    [40, "xl"],
    [10, "x"],
    [9, "ix"],
    [5, "v"],
    [4, "iv"],
    [1, "i"],
  ];
  let out = "";
  for (const [value, numeral] of digits) for (; n >= value; n -= value) out += numeral;
  return out;
}

/** The AST's own reading of a node (ODT, PPTX, ODP): its type and heading level. */
export function astKind(node: OfficeContentNode, headingShift = 0): NodeKind {
  if (node.type === "heading")
    return { kind: "heading", level: Math.min(Number(node.metadata?.level ?? 1) + headingShift, 6) };
  return { kind: node.type === "list" ? "list_item" : "paragraph" };
}

interface Run {
  text: string;
  link: string | null;
  font?: string;
}

/** Fixed-pitch font families a document sets code in. */
const MONOSPACE_FONT_RE =
  /mono|courier|consolas|menlo|monaco|lucida console|inconsolata|source code|fira code|\bcode\b/i;

/** A paragraph whose every visible run is in a fixed-pitch font: a line of code. */
const isCodeLine = (inline: Inline): boolean => {
  const visible = inline.runs.filter((r) => r.text.trim());
  return visible.length > 0 && visible.every((r) => r.font !== undefined && MONOSPACE_FONT_RE.test(r.font));
};

interface Inline {
  runs: Run[];
  notes: OfficeContentNode[];
}

const WEB_LINK_RE = /^(https?:|mailto:)/i;

/** Text runs and cited notes of inline content; line breaks become newlines. */
function collectInline(nodes: OfficeContentNode[], into: Inline): Inline {
  for (const n of nodes) {
    switch (n.type) {
      case "text": {
        const link = n.metadata?.link;
        into.runs.push({
          text: n.text ?? "",
          link: link && WEB_LINK_RE.test(link) ? link : null,
          font: n.formatting?.font,
        });
        break;
      }
      case "break": {
        const type = n.metadata?.breakType;
        into.runs.push({ text: type === "textWrapping" || type === "carriageReturn" ? "\n" : " ", link: null });
        break;
      }
      case "image":
      case "chart":
      case "comment":
      case "note":
        break;
      default:
        if (n.children?.length) collectInline(n.children, into);
        else if (n.text) into.runs.push({ text: n.text, link: null });
    }
    if (n.notes) into.notes.push(...n.notes);
  }
  return into;
}

const inlineOf = (nodes: OfficeContentNode[]): Inline => collectInline(nodes, { runs: [], notes: [] });

/**
 * Line by line: spaces collapsed, and a tab stop (a TOC's "Tables⇥2", a form's "Name:⇥Ada")
 * turned into a visible separator, so the words on either side never glue.
 */
function tidy(text: string, separator: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .split("\t")
        .map((part) => part.replace(/[ \u00a0]+/g, " ").trim())
        .filter(Boolean)
        .join(separator),
    )
    .filter(Boolean)
    .join("\n");
}

const markdownLink = (text: string, url: string) =>
  `[${escapeInline(text)}](${/[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url})`;

/** Plain text, and inline markdown when a web link makes it differ. */
function render(inline: Inline): { text: string; markdown?: string } {
  const text = tidy(inline.runs.map((r) => r.text).join(""), " | ");
  if (!inline.runs.some((r) => r.link && r.text.trim())) return { text };
  // Runs of one link (a link split by formatting changes) make one markdown link.
  const merged: Run[] = [];
  for (const run of inline.runs) {
    const last = merged[merged.length - 1];
    if (last && last.link === run.link) last.text += run.text;
    else merged.push({ ...run });
  }
  const markdown = merged
    .map((r) => {
      if (!r.link || !r.text.trim()) return escapeInline(r.text);
      const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(r.text)!;
      return `${lead}${markdownLink(body!, r.link)}${trail}`;
    })
    .join("");
  return { text, markdown: tidy(markdown, " \\| ") };
}

/** The notes a block cites, as footnote blocks, and their labels for the block's `cites`. */
function noteBlocks(notes: OfficeContentNode[], ctx: BlockContext): { cites: string[]; blocks: Block[] } {
  const cites: string[] = [];
  const blocks: Block[] = [];
  for (const note of notes) {
    const label = ctx.notes.next(note);
    cites.push(label);
    const paragraphs = (note.children ?? []).map((p) => render(inlineOf([p]))).filter((p) => p.text);
    if (paragraphs.length === 0) continue;
    const text = paragraphs.map((p) => p.text).join("\n");
    const markdown = paragraphs.some((p) => p.markdown)
      ? paragraphs.map((p) => p.markdown ?? escapeInline(p.text)).join("\n")
      : undefined;
    blocks.push(block("footnote", text, ctx.loc, { label, ...(markdown ? { markdown } : {}) }));
  }
  return { cites, blocks };
}

function textBlock(node: OfficeContentNode, ctx: BlockContext): Block[] {
  const inline = inlineOf(
    node.children?.length ? node.children : [{ type: "text", text: node.text ?? "" } as OfficeContentNode],
  );
  inline.notes.unshift(...(node.notes ?? []));
  const { cites, blocks: notes } = noteBlocks(inline.notes, ctx);
  const kind = ctx.classify(node);
  if (kind.kind === "paragraph" && inline.notes.length === 0 && isCodeLine(inline)) {
    // Code keeps its indentation and spacing, which tidy would collapse.
    const line = inline.runs
      .map((r) => r.text)
      .join("")
      .replace(/\s+$/, "");
    return [block("code", line, ctx.loc)];
  }
  let { text, markdown } = render(inline);
  const extra: Partial<Block> = cites.length ? { cites } : {};
  if (kind.kind === "heading") {
    text = text.replace(/\n/g, " ");
    markdown = markdown?.replace(/\n/g, " ");
    extra.level = kind.level;
  } else if (kind.kind === "list_item") {
    const meta = node.type === "list" ? node.metadata : undefined;
    extra.level = Number(meta?.indentation ?? 0);
    extra.ordered = meta?.listType === "ordered";
  }
  if (markdown) extra.markdown = markdown;
  if (kind.role) extra.role = kind.role;
  return [block(kind.kind as BlockKind, text, ctx.loc, extra), ...notes];
}

/** A table as one block of cells; tables nested in a cell follow it as blocks of their own. */
function tableBlocks(table: OfficeContentNode, ctx: BlockContext): Block[] {
  const rows: string[][] = [];
  const after: Block[] = [];
  const notes: OfficeContentNode[] = [];
  let width = 0;
  for (const row of table.children ?? []) {
    if (row.type !== "row") continue;
    const cells: string[] = [];
    for (const cell of row.children ?? []) {
      if (cell.type !== "cell") continue;
      const parts: string[] = [];
      for (const c of cell.children ?? []) {
        if (c.type === "table") {
          after.push(...tableBlocks(c, ctx));
          continue;
        }
        const inline = inlineOf([c]);
        notes.push(...inline.notes);
        parts.push(render(inline).text);
      }
      // A cell stands at its own column: cells a merge covers stay empty instead of pulling later cells left.
      const col = cell.metadata?.col ?? cells.length;
      cells[col] = parts.join(" ").replace(/\s+/g, " ").trim();
      width = Math.max(width, col + (cell.metadata?.colSpan ?? 1));
    }
    if (cells.some((c) => c)) rows.push(cells);
  }
  const { cites, blocks: noteList } = noteBlocks(notes, ctx);
  if (rows.length === 0) return [...after, ...noteList];
  const grid = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
  const tableBlock = block("table", grid.map((r) => r.join(" | ")).join("\n"), ctx.loc, {
    cells: grid,
    ...(cites.length ? { cites } : {}),
  });
  return [tableBlock, ...after, ...noteList];
}

/** What a table's cells hold, row by row and cell by cell. */
const cellContents = (table: OfficeContentNode): OfficeContentNode[] =>
  (table.children ?? []).flatMap((row) =>
    row.type === "row"
      ? (row.children ?? []).flatMap((cell) => (cell.type === "cell" ? (cell.children ?? []) : []))
      : [],
  );

/**
 * Whether a table lays out part of the document's outline: a cell holds a paragraph whose style makes
 * it a heading (a banner table with a chapter's title beside its decoration). The author put that
 * heading in the outline, so it is read as the document's text, not as a cell of a data table.
 */
const holdsHeading = (table: OfficeContentNode, ctx: BlockContext): boolean =>
  cellContents(table).some(
    (c) => (c.type === "paragraph" || c.type === "heading") && c.text?.trim() && ctx.classify(c).kind === "heading",
  );

/** Consecutive code lines (one paragraph each in the document) as one listing, blank lines between them kept. */
function joinCodeLines(blocks: Block[]): Block[] {
  const out: Block[] = [];
  let blank = false;
  for (const b of blocks) {
    const last = out.at(-1);
    const listing = last?.kind === "code" && !last.lang;
    if (listing && b.kind === "paragraph" && !b.text.trim()) blank = true;
    else if (listing && b.kind === "code" && !b.lang) last.text += `${blank ? "\n\n" : "\n"}${b.text}`;
    else out.push(b);
    if (b.text.trim()) blank = false;
  }
  return out.map((b) => (b.kind === "code" ? { ...b, text: b.text.replace(/^\s*\n|\s+$/g, "") } : b));
}

/** Blocks of a run of AST nodes, in reading order. */
export function nodeBlocks(nodes: OfficeContentNode[], ctx: BlockContext): Block[] {
  return joinCodeLines(nodeBlocksOf(nodes, ctx));
}

function nodeBlocksOf(nodes: OfficeContentNode[], ctx: BlockContext): Block[] {
  const out: Block[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case "paragraph":
      case "heading":
      case "list":
        out.push(...textBlock(node, ctx));
        break;
      case "table":
        out.push(...(holdsHeading(node, ctx) ? nodeBlocksOf(cellContents(node), ctx) : tableBlocks(node, ctx)));
        break;
      case "code":
        if (node.text?.trim())
          out.push(block("code", node.text, ctx.loc, node.metadata?.language ? { lang: node.metadata.language } : {}));
        break;
      case "image":
      case "chart":
      case "comment":
      case "break":
      case "note":
        break;
      default:
        // Containers (drawings, text frames, pages) hold paragraphs of their own.
        if (node.children?.length) out.push(...nodeBlocksOf(node.children, ctx));
        else if (node.text?.trim()) out.push(...textBlock(node, ctx));
    }
  }
  return out;
}
