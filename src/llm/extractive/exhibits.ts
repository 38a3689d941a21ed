/**
 * What a chapter shows as it is rather than as sentences: code, tables, lists and displayed
 * formulas ("exhibits").
 * Chunk text marks them (fenced code, " | " table rows, "- " and "1. " list items: see
 * retrieval/chunk.ts); here they are recognised, told apart from prose, tied to the sentence that
 * introduces them, and written back as markdown.
 */
import { escapeInline } from "../../ingest/document.ts";

export type ExhibitKind = "code" | "table" | "list" | "formula";

const FENCE = /^(`{3,}|~{3,})[\w+#-]*\n([\s\S]*?)\n\1$/;
const LIST_ITEM = /^\s*(?:-|\d+\.) \S/;
const TABLE_ROW = / \| /;
/** A relation or an operator of mathematics. */
const MATH = /[=+−∼≈≠≤≥∑∏∫√±×→∈∀∃]/u;
/** Three words of prose in a row: a sentence, not a formula. */
const PROSE_RUN = /\p{Ll}{3,}\s+\p{Ll}{2,}\s+\p{Ll}{3,}/u;

/** A line of a displayed formula: short, no prose, no sentence stop. */
const formulaLine = (line: string): boolean =>
  !PROSE_RUN.test(line) && !/[.!?]$/.test(line.trim()) && line.split(/\s+/).length <= 20;
/** Lines of one displayed formula at most (ingest keeps a display's lines in one paragraph). */
const MAX_FORMULA_LINES = 6;

/**
 * A displayed formula: short lines with mathematics in one at least and no prose ("y = Xβ + e"; a
 * fraction over three lines, whose denominator "n" alone is no mathematics).
 */
const isFormula = (lines: string[]): boolean =>
  lines.length <= MAX_FORMULA_LINES && lines.some((l) => MATH.test(l)) && lines.every(formulaLine);

/** The exhibit a chunk paragraph is, with its lines (code: its source lines), or null for prose. */
export function exhibitOf(paragraph: string): { kind: ExhibitKind; lines: string[] } | null {
  const code = FENCE.exec(paragraph.trim());
  if (code) return { kind: "code", lines: code[2]!.split("\n") };
  const lines = paragraph.split("\n").filter((l) => l.trim());
  if (lines.length === 0) return null;
  if (lines.every((l) => LIST_ITEM.test(l))) return { kind: "list", lines };
  if (lines.length >= 2 && lines.every((l) => TABLE_ROW.test(l))) return { kind: "table", lines };
  if (isFormula(lines)) return { kind: "formula", lines };
  return null;
}

/** Whether a sentence ends without a stop: it runs on into what follows it (": ", "using", "the call"). */
export const runsOn = (s: string): boolean => !/[.!?]["'”’)\]]?$/.test(s.trim());

/** An explicit announcement of an example, a list, a table or a formula. */
const ANNOUNCES = /\b(for example|for instance|as follows|the following|as an? (?:\w+ )?example|consider)\b/i;
/**
 * An announcement that only what follows completes ("… as follows:", "… the following.", "… performs
 * the following actions.", "… are noted below.").
 */
const ANNOUNCES_AT_END = /(:|\b(as follows|the following(?:\s+\p{L}+){0,2}|below|like this))\W*$/iu;

/**
 * Whether a sentence, the last before an exhibit, introduces it: it runs on into it (ending with a
 * colon or no stop at all) or announces it ("for example", "as follows", "the following").
 */
export const introduces = (s: string): boolean => runsOn(s) || ANNOUNCES.test(s);

/** Whether a sentence announces an example that may come a sentence or two later ("As a first example, consider …"). */
export const announces = (s: string): boolean => ANNOUNCES.test(s);

/** Whether a sentence is empty without the exhibit it announces: left out when that is not kept. */
export const needsExhibit = (s: string): boolean => ANNOUNCES_AT_END.test(s.trim());

/** A table's lines as a GFM table, its first row the header. */
function tableMarkdown(lines: string[]): string {
  const rows = lines.map((l) => l.split(" | ").map((c) => escapeInline(c.trim())));
  const width = Math.max(...rows.map((r) => r.length));
  const row = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return [row(rows[0]!), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(row)].join("\n");
}

/** A list item's marker and indent kept, its text escaped. */
const listLine = (l: string): string => {
  const m = /^(\s*(?:-|\d+\.) )(.*)$/.exec(l);
  return m ? `${m[1]}${escapeInline(m[2]!)}` : `- ${escapeInline(l.trim())}`;
};

/** An exhibit as chapter markdown: code fenced, tables as tables, list items with their markers. */
export function exhibitMarkdown(kind: ExhibitKind, lines: string[]): string {
  if (kind === "code") {
    const code = lines.join("\n");
    const fence = "`".repeat(Math.max(3, ...(code.match(/`+/g) ?? []).map((r) => r.length + 1)));
    return `${fence}\n${code}\n${fence}`;
  }
  if (kind === "formula") return escapeInline(lines.join(" ").replaceAll(" | ", "   "));
  return kind === "table" ? tableMarkdown(lines) : lines.map(listLine).join("\n");
}
