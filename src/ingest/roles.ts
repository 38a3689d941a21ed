/**
 * Roles of blocks: which text teaches (body) and which is front or back matter. Found from the
 * headings first (a "References" section, "Appendix D Concept index", "Acknowledgements"), then
 * from the shape of the text where no heading says it: a run of bibliography entries at the end of
 * a paper, dot-leader lines of a table of contents, the title and author lines before a paper's
 * abstract. Roles an extractor already set (running headers, page numbers, margin stamps) are kept.
 */

import { linkCitations } from "./citations.ts";
import type { Block, BlockRole } from "./document.ts";
import { noticeSections, openingLines, pageRoles, sectionLicences, trailingLicences } from "./front-matter.ts";
import { frontSections } from "./front-sections.ts";
import { isNameList, leadingNames } from "./name-list.ts";

const INDEXING_HEADING_RE = /^(keywords|key words|index terms)$/;

/** Section headings that name their role, matched after numbering is stripped. */
const HEADING_ROLES: [RegExp, BlockRole][] = [
  [
    /^(references?|bibliography|works cited|literature cited|cited literature|references and notes|notes and references|citations|notes|see also|external links|further reading)$/,
    "references",
  ],
  [/^acknowledge?ments?$/, "acknowledgements"],
  [/^(table of contents|contents|contents at a glance|list of (figures|tables))$/, "toc"],
  [/^(\w+( and \w+)? )?ind(ex|exes|ices)$|^index of /, "index"],
  [/^abstract$/, "abstract"],
  // A paper's or report's indexing terms under their own heading; opening matter only (see rolesFromHeadings).
  [INDEXING_HEADING_RE, "title_page"],
  [/^(front cover|cover|cover page|title page|half[- ]title|dedication|epigraph|also by\b.*)$/, "title_page"],
  // Copyright and licences by whole title only: an essay called "Copyright and Globalization" is text to teach.
  [
    /^(copyright( (and|&) licen[cs](e|es|ing)| notices?| page| information| statement)?|licen[cs](e|es|ing)( (and|&) copyright| information| terms| notices?| agreement)?|copying( conditions| this manual| permissions)?|colophon|declaration|revision history|document history|errata)$/,
    "boilerplate",
  ],
  [
    /^(legal notices?|notices|trademarks|disclaimers?|about (the|this) authors?|author(s|s['’]|['’]s)? (biograph\w*|address\w*)|authors|contributors)\b|^permissions$/,
    "boilerplate",
  ],
];

const APPENDIX_RE = /^appendi(x|ces)\b\s*([a-z](?=\s|$|[.:—–-]))?[.:—–-]?\s*/;
/** "3", "3.2.", "A.1", "IV." and the like before a heading's words. */
const NUMBERING_RE = /^((\d+|[a-z]|[ivxlc]+)([.)]|(\.\d+)+\.?)?)\s+(?=\p{L})/u;
const LETTER_NUMBERED_RE = /^[A-Z](\.\d+)*\.?\s+\p{L}/u;

function normalizeHeading(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, " ")
    .replace(/[:.\s]+$/, "")
    .trim();
}

/** The role a section heading names, if any. */
export function headingRole(text: string): BlockRole | null {
  let h = normalizeHeading(text);
  const appendix = APPENDIX_RE.exec(h);
  if (appendix) h = h.slice(appendix[0].length);
  else h = h.replace(NUMBERING_RE, "");
  for (const [re, role] of HEADING_ROLES) if (re.test(h)) return role;
  return appendix ? "appendix" : null;
}

const YEAR_RE = /\b(1[89]\d\d|20\d\d)[a-z]?\b/;
const LABEL_RE = /^\s*(?:\[(\w{1,12})\]|(\d{1,3})\.\s)/;
const AUTHOR_START_RE =
  /^\s*(\[\w{1,12}\]\s*|\d{1,3}\.\s+)?(\p{Lu}[\p{L}'’-]+,\s*(\p{Lu}\.|\p{Lu}[\p{L}-]+)|(\p{Lu}\.\s?){1,3}\s*\p{Lu}[\p{L}'’-]+,?)/u;
const VENUE_RE =
  /\b(in proceedings|proceedings of|proc\.|journal|conference|symposium|workshop|arxiv|preprint|pp\.|vol\.|volume|press|doi|isbn|acm|ieee|springer|transactions|university|technical report|edition|ed\.)/i;
/** "… and Caiming Xiong. 2020. Learning to …" (ACL style), "In Empirical Methods …", "56(3):1–12", "pages 1–9". */
const ENTRY_SHAPE_RE =
  /\.\s(1[89]\d\d|20\d\d)[a-z]?\.\s|\.\s+In\s+\p{Lu}|\b\d+\(\d+(\.\d+)?\):\s?\d+|\bpages?\s\d+\s?[–-]\s?\d+|\babs\/\d/u;

/** Whether a paragraph reads like a bibliography entry: a year, and a label, author list, venue or entry shape. */
export function looksLikeReference(text: string): boolean {
  if (text.length < 25 || text.length > 1200 || !YEAR_RE.test(text)) return false;
  return LABEL_RE.test(text) || AUTHOR_START_RE.test(text) || VENUE_RE.test(text) || ENTRY_SHAPE_RE.test(text);
}

/** A contents entry's line: dot leaders, then its page number. */
const LEADER_LINE_RE = /(\.\s?){3,}\s*([ivxlc]+|\d{1,4})$/i;
/** Most characters a contents entry's words hold on a line: the leaders, longest after the shortest titles, aside. */
const MAX_ENTRY_CHARS = 160;
const entryChars = (line: string) => line.replace(/(\.\s?){3,}/g, " ").trim().length;

/**
 * Contents entries: a block (a monospaced manual sets them as code) ending in a leader line, whose
 * lines are mostly leader lines (an entry's title wrapped over two lines is one of them).
 */
function isTocLine(b: Block): boolean {
  if (b.kind !== "paragraph" && b.kind !== "list_item" && b.kind !== "code") return false;
  const lines = b.text.trim().split("\n");
  const leaders = lines.filter((l) => LEADER_LINE_RE.test(l.trim())).length;
  return (
    LEADER_LINE_RE.test(lines.at(-1)!.trim()) &&
    leaders * 2 >= lines.length &&
    lines.every((l) => entryChars(l) <= MAX_ENTRY_CHARS)
  );
}

/** A contents entry's title wrapped onto blocks of its own before its leader line: short, no sentence. */
const isWrappedEntry = (b: Block) =>
  (b.kind === "paragraph" || b.kind === "list_item" || b.kind === "code") &&
  !b.text.includes("\n") &&
  b.text.length <= MAX_ENTRY_CHARS &&
  !/[.!?:]$/.test(b.text.trim());
/** Most blocks an entry's title wraps onto before its leader line (GNU Prolog lists ten predicates in one entry, over five lines). */
const MAX_WRAPPED_BLOCKS = 4;

const isText = (b: Block) => b.kind === "paragraph" || b.kind === "list_item" || b.kind === "reference";
const isFurniture = (b: Block) => b.role === "header_footer" || b.role === "page_number";

/** Whether a heading carries a section number ("3", "12.10"). */
const isNumbered = (text: string) => /^\s*\d+(\.\d+)*\.?\s+\p{L}/u.test(text);

/**
 * Sections whose heading names a role take that role, nested headings included. An abstract and
 * its keywords open a document: a numbered section called "Abstract" or "Keywords", or one after
 * numbered sections began (a manual's section on an abstract environment, a language's keywords),
 * is text like any other.
 */
function rolesFromHeadings(blocks: Block[], roles: (BlockRole | null)[]): void {
  // `blocks`: how many blocks past its heading the section's role holds, where it is not up to the next heading.
  let open: { level: number; role: BlockRole; blocks?: number } | null = null;
  let afterReferences = false;
  let numbered = false;
  blocks.forEach((b, i) => {
    if (isFurniture(b)) return;
    if (open?.blocks !== undefined && open.blocks-- <= 0) open = null;
    if (b.kind === "heading") {
      const level = b.level ?? 1;
      if (open && level <= open.level) open = null;
      const numberedHere = isNumbered(b.text);
      if (!open) {
        let role = headingRole(b.text);
        const indexing = INDEXING_HEADING_RE.test(normalizeHeading(b.text).replace(NUMBERING_RE, ""));
        if ((role === "abstract" || indexing) && (numbered || numberedHere)) role = null;
        // Lettered sections after the references are a paper's appendices ("A Distant Supervision").
        if (!role && afterReferences && LETTER_NUMBERED_RE.test(b.text)) role = "appendix";
        if (role) {
          // Indexing terms are the one paragraph under their heading; what follows (an executive
          // summary the layout gave no heading) is not.
          open = indexing ? { level, role, blocks: 1 } : { level, role };
          if (role === "references") afterReferences = true;
        }
      }
      numbered ||= numberedHere;
    }
    // A margin stamp the extractor marked keeps its role inside an appendix or a bibliography.
    if (open && roles[i] !== "boilerplate") roles[i] = open.role;
  });
}

/**
 * A bibliography with no heading: the last run of at least four entries, three in four of its
 * paragraphs shaped like references, in the last half of the document.
 */
function trailingBibliography(blocks: Block[], roles: (BlockRole | null)[]): void {
  const candidates = blocks.map((b, i) => (isText(b) && !roles[i] && !isFurniture(b) ? i : -1)).filter((i) => i >= 0);
  let end = -1;
  let start = -1;
  let hits = 0;
  let misses = 0;
  for (let k = candidates.length - 1; k >= 0; k--) {
    const i = candidates[k]!;
    if (looksLikeReference(blocks[i]!.text)) {
      if (end < 0) end = i;
      start = i;
      hits++;
    } else if (end >= 0) {
      misses++;
      if (misses * 3 > hits) break;
    }
  }
  if (hits < 4 || start < blocks.length / 2) return;
  for (let i = start; i <= end; i++)
    if (!roles[i] && !isFurniture(blocks[i]!) && blocks[i]!.kind !== "heading") roles[i] = "references";
}

/** A page number set apart at a line's end ("Matrix Operations and Vectors | 60"). */
const SET_PAGE_RE = /\s\|\s(\d{1,4})$/;
const LEADER_RE = /(?:\.\s?){3,}\s*(\d{1,4})$/;

/** The last page number of a paragraph whose every line is a contents entry, one at least set apart. */
function setPage(b: Block): number | null {
  if (b.kind !== "paragraph") return null;
  const lines = b.text.split("\n");
  if (!lines.some((l) => SET_PAGE_RE.test(l))) return null;
  if (!lines.every((l) => l.length <= 160 && (SET_PAGE_RE.test(l) || LEADER_RE.test(l)))) return null;
  const last = lines.at(-1)!;
  const m = SET_PAGE_RE.exec(last) ?? LEADER_RE.exec(last);
  return m ? Number(m[1]) : null;
}

/**
 * Runs of contents lines with no heading: dot-leader lines ending in page numbers, or lines whose
 * page number is set apart at the right, numbers never decreasing down the run (a table's last
 * column of figures does not read in page order). An entry's title wrapped onto lines before its
 * leader line is in the run, and so is the heading right over a run that fills its section
 * ("Short Contents" at the back of a manual): it titles the contents.
 */
function tocRuns(blocks: Block[], roles: (BlockRole | null)[]): void {
  let runStart = -1;
  let lastPage = 0;
  const close = (end: number) => {
    if (runStart >= 0 && end - runStart >= 3) {
      for (let i = runStart; i < end; i++) roles[i] ??= "toc";
      // Only over a section that holds nothing else: a chapter's own short contents leave it a chapter.
      const title = runStart - 1;
      const next = blocks.findIndex((o, k) => k >= end && !isFurniture(o));
      if (title >= 0 && blocks[title]!.kind === "heading" && (next < 0 || blocks[next]!.kind === "heading"))
        roles[title] ??= "toc";
    }
    runStart = -1;
    lastPage = 0;
  };
  /** Whether blocks from `i` on are an entry's wrapped title, then its leader line. */
  const wrapsTo = (i: number) => {
    for (let j = i, n = 0; j < blocks.length && n <= MAX_WRAPPED_BLOCKS; j++) {
      if (isFurniture(blocks[j]!)) continue;
      if (isTocLine(blocks[j]!)) return n > 0;
      if (!isWrappedEntry(blocks[j]!)) return false;
      n++;
    }
    return false;
  };
  blocks.forEach((b, i) => {
    if (isFurniture(b)) return;
    const page = setPage(b);
    if (isTocLine(b) || (page !== null && page >= lastPage) || (runStart >= 0 && wrapsTo(i))) {
      if (runStart < 0) runStart = i;
      if (page !== null) lastPage = page;
    } else {
      close(i);
      if (page !== null) {
        runStart = i;
        lastPage = page;
      }
    }
  });
  close(blocks.length);
}

const OPENING_HEADING_RE = /^((1|i)[.)]?\s+)?(introduction|overview|background|preface|getting started)\b/i;
const INDEXING_TERMS_RE =
  /^(keywords|key words|index terms|general terms|ccs concepts|categories and subject descriptors|acm reference format)\b/i;
const ABSTRACT_START_RE = /^abstract\b[\s.:—–-]*/i;

/**
 * A paged document's opening before its first section: short lines (title, authors, affiliations,
 * e-mail addresses) are the title page; a long paragraph there, or one led by "Abstract", is the
 * abstract.
 */
function titlePage(blocks: Block[], roles: (BlockRole | null)[]): void {
  if (!blocks.some((b) => b.page != null)) return;
  const first = blocks.findIndex(
    (b, i) =>
      roles[i] === "abstract" ||
      (b.kind === "heading" && (OPENING_HEADING_RE.test(b.text) || /^1(\.|\s)/.test(b.text))),
  );
  if (first <= 0 || (blocks[first]!.page ?? 1) > 2) return;
  const opening = blocks.slice(0, first);
  if (opening.reduce((n, b) => n + b.text.length, 0) > 6000) return;
  let abstract = false;
  opening.forEach((b, i) => {
    if (roles[i] || isFurniture(b)) return;
    if (ABSTRACT_START_RE.test(b.text) || (abstract && isText(b)) || (isText(b) && b.text.length > 400)) {
      abstract = true;
      roles[i] = "abstract";
    } else {
      roles[i] = "title_page";
    }
  });
}

/**
 * A paged document whose first page holds only a few short lines and no section (a manual's cover:
 * title, subtitle, authors): that page is the title page. A document of one page (a scanned sign,
 * a picture of one word) is its own content, not a cover.
 */
function coverPage(blocks: Block[], roles: (BlockRole | null)[]): void {
  if (!blocks.some((b) => (b.page ?? 1) > 1)) return;
  const page = [...blocks.keys()].filter((i) => blocks[i]!.page === 1 && !isFurniture(blocks[i]!));
  const lines = page.filter((i) => !roles[i]).map((i) => blocks[i]!);
  if (lines.length === 0 || lines.length > 8) return;
  if (lines.some((b) => b.text.length > 200 || /[.!?]$/.test(b.text.trim()) || b.kind === "table")) return;
  for (const i of page) roles[i] ??= "title_page";
}

const NOTICE_RE = /^(copyright\b|permission (to make digital|is granted))|\bcopyright (c\s?)?©/i;

/**
 * Copyright and permission notices on the first two pages ("Permission to make digital or hard
 * copies …", "Copyright © 2009 ACM …") are boilerplate, with the short lines between two of them
 * ("PLDI'09, June 15–20, 2009, Dublin, Ireland.").
 */
function copyrightNotices(blocks: Block[], roles: (BlockRole | null)[]): void {
  const notices = [...blocks.keys()].filter(
    (i) => !roles[i] && (blocks[i]!.page ?? 3) <= 2 && isText(blocks[i]!) && NOTICE_RE.test(blocks[i]!.text),
  );
  notices.forEach((i, k) => {
    roles[i] = "boilerplate";
    const next = notices[k + 1];
    if (next === undefined || blocks[next]!.page !== blocks[i]!.page) return;
    for (let j = i + 1; j < next; j++)
      if (!roles[j] && isText(blocks[j]!) && blocks[j]!.text.length < 200) roles[j] = "boilerplate";
  });
}

/**
 * A list of people's names under a document's title, before its first section (the authors of a
 * DOCX paper or a title slide, which have no pages for the title-page rule to read), is the title page.
 */
function authorLines(blocks: Block[], roles: (BlockRole | null)[]): void {
  const next = blocks.findIndex((b, i) => i > 0 && b.kind === "heading");
  const end = Math.min(next < 0 ? blocks.length : next, 8);
  for (let i = 0; i < end; i++)
    if (!roles[i] && isText(blocks[i]!) && isNameList(blocks[i]!.text)) roles[i] = "title_page";
}

// Fewer entries, or fewer people, than this are people mentioned in passing (or "Player A",
// "Player B" taking turns), not a list of them.
const MIN_CREDITS = 3;
const MIN_CREDITED = 5;
const MAX_CREDIT_CHARS = 400;

/**
 * A contributor or thanks list inside a section (an editor's note thanking the people who made the
 * book): a run of short paragraphs each opening with people's names and what they did, and the line
 * introducing the run (ending with a colon). Whom a book thanks is not what it teaches.
 */
function creditRuns(blocks: Block[], roles: (BlockRole | null)[]): void {
  const credit = (i: number) =>
    i < blocks.length && !roles[i] && isText(blocks[i]!) && blocks[i]!.text.length <= MAX_CREDIT_CHARS
      ? leadingNames(blocks[i]!.text)
      : [];
  for (let i = 0; i < blocks.length; ) {
    let end = i;
    const people = new Set<string>();
    for (let names = credit(end); names.length > 0; names = credit(end)) {
      for (const n of names) people.add(n);
      end++;
    }
    if (end - i >= MIN_CREDITS && people.size >= MIN_CREDITED) {
      const intro = i - 1;
      if (intro >= 0 && !roles[intro] && isText(blocks[intro]!) && /:\s*$/.test(blocks[intro]!.text))
        roles[intro] = "acknowledgements";
      for (let k = i; k < end; k++) roles[k] = "acknowledgements";
    }
    i = Math.max(end, i + 1);
  }
}

/**
 * A paper's indexing lines ("Keywords …", "Categories and Subject Descriptors …") sit under or after
 * its abstract, whichever rule found it; they are title-page metadata, not text to teach.
 */
function indexingLines(blocks: Block[], roles: (BlockRole | null)[]): void {
  blocks.forEach((b, i) => {
    if (roles[i] === "abstract" && INDEXING_TERMS_RE.test(b.text)) roles[i] = "title_page";
  });
  keywordLists(blocks, roles);
}

/** "Keywords: architecture, authentication, …": the label, then a list of terms. */
const KEYWORD_LIST_RE = /^(keywords|key words|index terms)\s*[:—–-]\s*(.+)$/is;
/** A list, not a sentence: at least three items of a few words each. */
const MIN_KEYWORDS = 3;
const MAX_KEYWORD_WORDS = 6;

const isKeywordList = (text: string): boolean => {
  const items = KEYWORD_LIST_RE.exec(text.trim())?.[2]?.split(/[,;]/) ?? [];
  return items.length >= MIN_KEYWORDS && items.every((t) => t.trim().split(/\s+/).length <= MAX_KEYWORD_WORDS);
};

/**
 * A report's keyword list with no heading of its own ("Keywords: …" after its abstract, alone on a
 * page in a NIST standard): indexing metadata of its opening, found before the document's contents
 * page or, with none, before its first heading. Later in a document, such a line is text (a
 * language's keywords).
 */
function keywordLists(blocks: Block[], roles: (BlockRole | null)[]): void {
  const contents = roles.indexOf("toc");
  const opening = contents >= 0 ? contents : blocks.findIndex((b) => b.kind === "heading");
  for (let i = 0; i < opening; i++)
    if (!roles[i] && blocks[i]!.kind === "paragraph" && isKeywordList(blocks[i]!.text)) roles[i] = "title_page";
}

/** Where a block of a bracket-numbered reference list holds the next entries too ("… 2008. [6] A. Author …"). */
const NEXT_ENTRY_RE = /\s(?=\[\d{1,3}\]\s+\p{Lu})/u;

/**
 * Reference entries become `reference` blocks with their label ("[12]" or "12."), so citations
 * can link to them; a block that a layout ran several entries into is split at their labels.
 */
function asReferenceEntries(blocks: Block[]): Block[] {
  return blocks.flatMap((b) => {
    if (b.role !== "references" || !isText(b)) return [b];
    const texts = /^\s*\[\d/.test(b.text)
      ? b.text
          .split(NEXT_ENTRY_RE)
          .map((t) => t.trim())
          .filter(Boolean)
      : [b.text];
    return texts.map((text) => {
      const m = LABEL_RE.exec(text);
      const label = m ? (m[1] ?? m[2]) : undefined;
      const { markdown: _markdown, ...rest } = b;
      return { ...(texts.length > 1 ? rest : b), text, kind: "reference" as const, ...(label ? { label } : {}) };
    });
  });
}

/** Every block with its role; citation markers in the body linked to the reference entries. */
export function assignRoles(blocks: Block[]): Block[] {
  const roles: (BlockRole | null)[] = blocks.map((b) => (b.role !== "body" ? b.role : null));
  rolesFromHeadings(blocks, roles);
  tocRuns(blocks, roles);
  trailingBibliography(blocks, roles);
  copyrightNotices(blocks, roles);
  titlePage(blocks, roles);
  coverPage(blocks, roles);
  pageRoles(blocks, roles, headingRole);
  trailingLicences(blocks, roles);
  sectionLicences(blocks, roles);
  noticeSections(blocks, roles);
  openingLines(blocks, roles);
  authorLines(blocks, roles);
  creditRuns(blocks, roles);
  frontSections(blocks, roles);
  indexingLines(blocks, roles);
  const withRoles = blocks.map((b, i) => (roles[i] && roles[i] !== b.role ? { ...b, role: roles[i]! } : b));
  return linkCitations(asReferenceEntries(withRoles));
}
