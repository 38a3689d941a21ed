/**
 * The document model every extractor produces: ordered blocks, each with a kind, its plain text,
 * where it stands (page, slide or timestamp) and a role (body, or a kind of front/back matter).
 * Markdown output, segments (for course planning) and chunks (for retrieval) are all read from it.
 *
 * Block text is plain text, not markdown: characters such as `*` and `_` in a PDF's `%*%` are
 * text, and only the markdown renderer escapes them. A block may also carry `markdown`, its
 * inline markdown as the source wrote it (links, code spans, emphasis), which the renderer prefers.
 */
import { Lexer, type Token, type Tokens } from "marked";

export const BLOCK_KINDS = [
  "heading",
  "paragraph",
  "list_item",
  "table",
  "caption",
  "code",
  "footnote",
  "reference",
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export const BLOCK_ROLES = [
  "body",
  "title_page",
  "toc",
  "abstract",
  "acknowledgements",
  "references",
  "index",
  "appendix",
  "boilerplate",
  "header_footer",
  "page_number",
] as const;
export type BlockRole = (typeof BLOCK_ROLES)[number];

/** Roles whose text teaches: courses and course Q&A read only these. */
export const TEACHING_ROLES: ReadonlySet<BlockRole> = new Set(["body", "abstract", "appendix"]);
export const TEACHING_ROLE_LIST: readonly BlockRole[] = [...TEACHING_ROLES];
/** Roles never shown in markdown or indexed: page furniture repeated on every page. */
export const FURNITURE_ROLES: ReadonlySet<BlockRole> = new Set(["header_footer", "page_number"]);
/**
 * Roles a document query searches: everything indexed but a table of contents or an index, whose
 * lines name every topic and answer none. (A question about a cited work still finds the references.)
 */
export const QUERY_ROLES: readonly BlockRole[] = BLOCK_ROLES.filter(
  (r) => r !== "toc" && r !== "index" && !FURNITURE_ROLES.has(r),
);

export interface BlockLocation {
  page?: number | null;
  slide?: number | null;
  /** Seconds from the start of a video. */
  timestamp?: number | null;
}

export interface Block extends BlockLocation {
  kind: BlockKind;
  /** Plain text. A table's rows are lines with cells joined by " | "; code keeps its lines. */
  text: string;
  /** Inline markdown as the source wrote it, when it had any (links, code spans, emphasis). */
  markdown?: string;
  /** Heading level 1-6; list nesting depth from 0. */
  level?: number;
  /** List items: numbered list. */
  ordered?: boolean;
  /** Table rows of cells, header row first. */
  cells?: string[][];
  /** Code: the language, when known. */
  lang?: string;
  role: BlockRole;
  /** Citation labels this block cites ("26"), taken out of its text. */
  cites?: string[];
  /** Reference entries and footnotes: their own label ("26"). */
  label?: string;
}

export interface DocumentModel {
  title: string | null;
  blocks: Block[];
}

/** A block of body text at a location (extractors fill in kind-specific fields). */
export function block(kind: BlockKind, text: string, loc: BlockLocation = {}, extra: Partial<Block> = {}): Block {
  return { kind, text, role: "body", ...loc, ...extra };
}

/** Heading text and path, as chunks and segments cite them. */
export function headingText(b: Block): string {
  return b.text.replace(/\s+/g, " ").trim();
}

/**
 * Where a page drew glyphs its text does not name (a formula's symbols in a math font without a
 * Unicode mapping: "another unit than ε, had you" would read "another unit than , had you"), the
 * block's text holds this mark, U+FFFC, the object replacement character: a sentence holding it
 * lost something, and is not taught, quoted or read aloud as it stands.
 */
export const LOST_TEXT = "\uFFFC";
export const hasLostText = (text: string): boolean => text.includes(LOST_TEXT);

/**
 * Whether a title has a word in it: two letters together, or a numbered section's one-letter name
 * ("12.3.1 C", a language's section in a programming manual).
 */
export const namesSomething = (title: string): boolean =>
  /\p{L}{2}/u.test(title) || /^\d+(?:\.\d+)+\s+\p{L}$/u.test(title.trim());

// ---------------------------------------------------------------------------------------------
// markdown -> blocks (for sources whose converter writes markdown: text files, HTML, office)

const decodeEntities = (s: string): string =>
  s.replace(
    /&(amp|lt|gt|quot|#39|#x27|nbsp);/g,
    (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", nbsp: " " })[e] ?? _m,
  );

/** Plain text of inline tokens: emphasis marks, link targets and escapes gone, code spans kept as text. */
function inlineText(tokens: Token[] | undefined, fallback: string): string {
  if (!tokens) return decodeEntities(fallback);
  let out = "";
  for (const t of tokens) {
    switch (t.type) {
      case "text":
      case "escape":
      case "codespan":
        out +=
          "tokens" in t && t.tokens ? inlineText(t.tokens as Token[], t.text) : decodeEntities((t as Tokens.Text).text);
        break;
      case "br":
        out += "\n";
        break;
      case "image":
        out += (t as Tokens.Image).text;
        break;
      case "html":
        break;
      default:
        out +=
          "tokens" in t && t.tokens
            ? inlineText(t.tokens as Token[], "")
            : "text" in t
              ? decodeEntities(String(t.text))
              : "";
    }
  }
  return out;
}

/** Plain text of a markdown fragment (inline syntax removed by a real parser, so `a*b` survives). */
export function markdownToPlain(markdown: string): string {
  return inlineText(Lexer.lexInline(markdown), markdown)
    .replace(/[ \t]+/g, " ")
    .trim();
}

function listBlocks(list: Tokens.List, loc: BlockLocation, depth: number, out: Block[]): void {
  for (const item of list.items) {
    const own = item.tokens.filter((t) => t.type !== "list");
    const raw = own
      .map((t) => ("raw" in t ? t.raw : ""))
      .join("")
      .trim();
    const text = own
      .map((t) => inlineText("tokens" in t ? (t.tokens as Token[]) : undefined, "text" in t ? String(t.text) : ""))
      .join(" ");
    if (text.trim())
      out.push(block("list_item", clean(text), loc, { level: depth, ordered: list.ordered, markdown: raw }));
    for (const sub of item.tokens) if (sub.type === "list") listBlocks(sub as Tokens.List, loc, depth + 1, out);
  }
}

const clean = (s: string) =>
  s
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();

function tokenBlocks(tokens: Token[], loc: BlockLocation, out: Block[]): void {
  for (const t of tokens) {
    switch (t.type) {
      case "heading": {
        const h = t as Tokens.Heading;
        const text = clean(inlineText(h.tokens, h.text)).replace(/\n/g, " ");
        if (text) out.push(block("heading", text, loc, { level: h.depth, markdown: h.text }));
        break;
      }
      case "paragraph": {
        const p = t as Tokens.Paragraph;
        const text = clean(inlineText(p.tokens, p.text));
        if (text) out.push(block("paragraph", text, loc, { markdown: p.text }));
        break;
      }
      case "text": {
        const text = clean(inlineText((t as Tokens.Text).tokens, (t as Tokens.Text).text));
        if (text) out.push(block("paragraph", text, loc, { markdown: (t as Tokens.Text).text }));
        break;
      }
      case "list":
        listBlocks(t as Tokens.List, loc, 0, out);
        break;
      case "table": {
        const tb = t as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) =>
          cells.map((c) => clean(inlineText(c.tokens, c.text)).replace(/\n/g, " "));
        const cells = [row(tb.header), ...tb.rows.map(row)];
        out.push(block("table", cells.map((r) => r.join(" | ")).join("\n"), loc, { cells }));
        break;
      }
      case "code": {
        const c = t as Tokens.Code;
        if (c.text.trim()) out.push(block("code", c.text, loc, c.lang ? { lang: c.lang } : {}));
        break;
      }
      case "blockquote":
        tokenBlocks((t as Tokens.Blockquote).tokens, loc, out);
        break;
      case "html": {
        const text = clean(decodeEntities((t as Tokens.HTML).text.replace(/<[^>]*>/g, " ")));
        if (text) out.push(block("paragraph", text, loc));
        break;
      }
      default:
        break;
    }
  }
}

/** Blocks of a markdown text, all at one location. */
export function markdownToBlocks(markdown: string, loc: BlockLocation = {}): Block[] {
  const out: Block[] = [];
  tokenBlocks(new Lexer({ gfm: true }).lex(markdown), loc, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// blocks -> markdown

/** Escapes what markdown would read as syntax in plain text: emphasis, code, links, HTML. */
export function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, "\\$1");
}

/** Escapes a line start that markdown would read as a heading, list, quote or rule. */
const escapeLineStart = (line: string): string =>
  line.replace(/^(\s*)([#>+\-=])/, "$1\\$2").replace(/^(\s*\d+)([.)])(?=\s|$)/, "$1\\$2");

const inlineMarkdown = (b: Block): string =>
  b.markdown ??
  b.text
    .split("\n")
    .map((line) => escapeLineStart(escapeInline(line)))
    .join("\n");

function tableMarkdown(b: Block): string {
  const rows = b.cells && b.cells.length > 0 ? b.cells : b.text.split("\n").map((l) => l.split(" | "));
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeInline((r[i] ?? "").replace(/\s+/g, " ").trim())).join(" | ")} |`;
  return [line(rows[0]!), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n");
}

/** One block as markdown. */
export function blockMarkdown(b: Block): string {
  switch (b.kind) {
    case "heading":
      return `${"#".repeat(Math.min(Math.max(b.level ?? 1, 1), 6))} ${inlineMarkdown(b).replace(/\n/g, " ")}`;
    case "list_item":
      return `${"  ".repeat(b.level ?? 0)}${b.ordered ? "1." : "-"} ${inlineMarkdown(b).replace(/\n/g, " ")}`;
    case "table":
      return tableMarkdown(b);
    case "code": {
      const fence = b.text.includes("```") ? "~~~~" : "```";
      return `${fence}${b.lang ?? ""}\n${b.text}\n${fence}`;
    }
    case "caption":
      return `*${inlineMarkdown(b).replace(/\n/g, " ")}*`;
    case "footnote":
    case "reference":
      return b.label && !b.text.startsWith(`[${b.label}]`)
        ? `[${escapeInline(b.label)}] ${inlineMarkdown(b)}`
        : inlineMarkdown(b);
    case "paragraph":
      return inlineMarkdown(b);
  }
}

export interface MarkdownOptions {
  /** Precede each run of front/back matter with an HTML comment naming its role. */
  roleComments?: boolean;
}

/** Blocks as one markdown text; page furniture (running headers, page numbers) left out. */
export function blocksToMarkdown(blocks: Block[], opts: MarkdownOptions = {}): string {
  let out = "";
  let role: BlockRole = "body";
  let prev: Block | null = null;
  const add = (text: string, sep: string) => {
    out += out ? sep + text : text;
  };
  for (const b of blocks) {
    if (FURNITURE_ROLES.has(b.role)) continue;
    if (opts.roleComments && b.role !== role) {
      add(`<!-- role: ${b.role} -->`, "\n\n");
      role = b.role;
      prev = null;
    }
    // Items of one list stay together: a blank line between them would make each its own list.
    add(blockMarkdown(b), prev?.kind === "list_item" && b.kind === "list_item" ? "\n" : "\n\n");
    prev = b;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// blocks -> headings path and segments

/**
 * Each block's enclosing headings (outermost first); a heading's own path includes itself. A front
 * or back matter heading ("Authority", "Keywords", "Acknowledgements") encloses only the matter of
 * its kind under it: the first teaching block after it closes it, so a report's unheaded executive
 * summary does not sit under the keywords that precede it. The document's title, when it is the
 * first heading, still encloses everything (a paper's sections under its title).
 */
export function headingPaths(blocks: Block[]): string[][] {
  const stack: { level: number; text: string; front: boolean }[] = [];
  let first = true;
  return blocks.map((b) => {
    if (b.kind === "heading" && !FURNITURE_ROLES.has(b.role)) {
      const level = b.level ?? 1;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      const title = first && b.role === "title_page";
      stack.push({ level, text: headingText(b), front: !TEACHING_ROLES.has(b.role) && !title });
      first = false;
    } else if (TEACHING_ROLES.has(b.role)) {
      while (stack.length > 0 && stack[stack.length - 1]!.front) stack.pop();
    }
    return stack.map((h) => h.text);
  });
}
