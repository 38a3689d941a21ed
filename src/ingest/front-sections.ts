/**
 * Front and back matter by what a section holds, for documents without pages (DOCX, HTML) where
 * the page rules cannot look. A section whose text is mostly the matter a book's opening pages
 * hold (copyright and licence lines, lists or grids of people's names, contents, title lines) is
 * that matter as a whole, its heading and its short introductions included, wherever it stands: a
 * standard's "Frontispiece" (what the standard is in a paragraph, its licence, its leads and
 * contributors) is not a chapter. A preface or foreword is taught by what it holds (prose, not
 * opening matter), whatever its title, and so is an editor's note that thanks people: names alone
 * are one kind of opening matter, and a front section holds two.
 */
import type { Block, BlockRole } from "./document.ts";
import { imprintEvidence } from "./front-matter.ts";
import { isNameList, isNameTable } from "./name-list.ts";

type Roles = (BlockRole | null)[];

/** Roles of opening matter that count as evidence: a section holding mostly these is one of them. */
const FRONT_ROLES: ReadonlySet<BlockRole> = new Set(["boilerplate", "acknowledgements", "title_page", "toc"]);
/** Fewer blocks of evidence than this are a line in passing (a section's own copyright note). */
const MIN_EVIDENCE_BLOCKS = 2;
/** Share of a section's words that must be opening matter. */
const FRONT_SHARE = 0.5;

const wordsIn = (text: string) => text.split(/\s+/).filter(Boolean).length;
const isFurniture = (b: Block) => b.role === "header_footer" || b.role === "page_number";

/** What opening matter a block is by its own evidence, if any; a block with a teaching or back-matter role is none. */
function evidenceRole(b: Block, role: BlockRole | null): BlockRole | null {
  if (role) return FRONT_ROLES.has(role) ? role : null;
  if (b.kind === "table") return b.cells && isNameTable(b.cells) ? "acknowledgements" : null;
  if (b.kind !== "paragraph" && b.kind !== "list_item") return null;
  if (isNameList(b.text)) return "acknowledgements";
  return imprintEvidence(b.text) >= 2 ? "boilerplate" : null;
}

/** The role of the opening matter that fills most of the section's words, when it fills at least half. */
function sectionRole(blocks: Block[], roles: Roles, from: number, end: number): BlockRole | null {
  const byRole = new Map<BlockRole, number>();
  let total = 0;
  let evidence = 0;
  for (let i = from; i < end; i++) {
    const b = blocks[i]!;
    if (b.kind === "heading" || isFurniture(b)) continue;
    const words = wordsIn(b.text);
    total += words;
    const role = evidenceRole(b, roles[i] ?? null);
    if (!role) continue;
    evidence++;
    byRole.set(role, (byRole.get(role) ?? 0) + words);
  }
  const front = [...byRole.values()].reduce((n, w) => n + w, 0);
  // Opening matter of two kinds (a licence beside the names of those who made it, a title page beside
  // contents) makes a front section; a note that only thanks people keeps its own prose taught, its
  // list left out by the list's own role.
  if (evidence < MIN_EVIDENCE_BLOCKS || byRole.size < 2 || front < FRONT_SHARE * total) return null;
  return [...byRole.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** Sections of a document without pages that are opening matter by their text: every block takes its role. */
export function frontSections(blocks: Block[], roles: Roles): void {
  if (blocks.some((b) => b.page != null)) return;
  for (let s = 0; s < blocks.length; s++) {
    const h = blocks[s]!;
    if (h.kind !== "heading" || roles[s]) continue;
    const level = h.level ?? 1;
    let end = blocks.findIndex((o, i) => i > s && o.kind === "heading" && (o.level ?? 1) <= level);
    if (end < 0) end = blocks.length;
    const role = sectionRole(blocks, roles, s + 1, end);
    if (!role) continue;
    for (let i = s; i < end; i++) if (!roles[i] && !isFurniture(blocks[i]!)) roles[i] = role;
    s = end - 1;
  }
}
