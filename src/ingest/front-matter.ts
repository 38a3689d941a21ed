/**
 * Front and back matter by what the pages are, not by what they are titled. A book opens with
 * pages that are not its text: a cover, half-title and title page, a copyright page dense in
 * imprint lines (ISBN, ©, "All rights reserved", cataloguing data, printing lines), a dedication or
 * epigraph alone on its page, contents. They come before the first page of running prose (or the
 * first chapter's heading, in a manual of terse entries), and they are sparse or shaped like lists. At the back stand an index (alphabetised short entries with page
 * numbers) and licence texts (a licence's own preamble, then long legal text to the end).
 */
import { type Block, type BlockRole, TEACHING_ROLES } from "./document.ts";
import { isNameList } from "./name-list.ts";

type Roles = (BlockRole | null)[];

/** Kinds of imprint evidence: each counts once however often it occurs. */
const IMPRINT_EVIDENCE: RegExp[] = [
  /\bISBN\b|\bISSN\b/i,
  /©|\(c\)\s*(1[89]|20)\d\d|\bcopyright\b/i,
  /\ball rights reserved\b|\btous droits\b|\btutti i diritti\b/i,
  /\bprinted (in|on|and bound|by)\b|\bacid[- ]free\b|\brecycled paper\b/i,
  /\blibrary of congress\b|\bcatalog(u)?ing[- ]in[- ]publication\b|\bbritish library\b|\bCIP\b/,
  /\b(first|second|third|\d+(st|nd|rd|th)) (edition|printing|published)\b|\bpublished (by|in)\b|\b(versione?|edition|revision) \d/i,
  /\b10 9 8 7 6 5 4 3( 2 1)?\b|\b1 2 3 4 5 6 7 8 9 10\b/,
  /\bpermission is granted\b|\bverbatim copying\b|\bwithout (the )?(prior )?(written )?permission\b|\bpermitted (in any medium|to copy)\b/i,
  /\bcreative commons\b|\bcc[ -]by\b|\blicen[cs]ed under\b|\blicen[cs]e\b|\blicenza\b/i,
  /\btrademarks?\b|®|™/i,
  /\b(typeset|cover (design|art|image|photo)|copertina|set in \w+ type)\b/i,
  // A disclaimer of endorsement or warranty.
  /\b(imply|constitute) (an? )?(recommendation|endorsement)\b|\bendorsed by\b|\bwithout (any )?warranty\b|\bdisclaim/i,
];

/** How many kinds of imprint evidence a text holds. */
export function imprintEvidence(text: string): number {
  return IMPRINT_EVIDENCE.reduce((n, re) => n + (re.test(text) ? 1 : 0), 0);
}

const wordsIn = (text: string) => text.split(/\s+/).filter(Boolean).length;
const isFurniture = (b: Block) => b.role === "header_footer" || b.role === "page_number";
const isText = (b: Block) => b.kind === "paragraph" || b.kind === "list_item" || b.kind === "heading";
/** A paragraph long enough to be running prose. */
const PROSE_WORDS = 40;

interface Page {
  page: number;
  blocks: number[];
  words: number;
  longest: number;
  lines: string[];
}

function pagesOf(blocks: Block[]): Page[] {
  const byPage = new Map<number, Page>();
  blocks.forEach((b, i) => {
    if (b.page == null || isFurniture(b)) return;
    let p = byPage.get(b.page);
    if (!p) {
      p = { page: b.page, blocks: [], words: 0, longest: 0, lines: [] };
      byPage.set(b.page, p);
    }
    const w = wordsIn(b.text);
    p.blocks.push(i);
    p.words += w;
    if (b.kind === "paragraph" || b.kind === "list_item") p.longest = Math.max(p.longest, w);
    p.lines.push(
      ...b.text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
    );
  });
  return [...byPage.values()].sort((a, b) => a.page - b.page);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

/** A contents or index line: words, then a page number or a list of them ("Graphs 12", "tree, 34, 56–58"). */
const PAGE_REF_LINE_RE =
  /^\D.*?\p{L}.*?[\s.,|]\s*(\d{1,4}|[ivxlc]{1,6})([–-]\d{1,4})?(,\s*(\d{1,4}|[ivxlc]{1,6})([–-]\d{1,4})?)*$/iu;

const normalTitle = (s: string) =>
  s
    .toLowerCase()
    .replace(/^((\d+|[ivxlc]+)(\.\d+)*\.?|chapter \w+|part \w+)\s+/i, "")
    .replace(/[\s.|\d]+$/, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * A contents page: most of its lines end in a page number, or many name headings the document
 * has further on (contents printed without page numbers).
 */
function isContentsPage(p: Page, titledLater: (line: string) => boolean, continues = false): boolean {
  const refs = p.lines.filter((l) => l.length <= 160 && PAGE_REF_LINE_RE.test(l)).length;
  // The last lines of contents run over from the page before need no more than to look like entries.
  if (continues) return refs >= 0.5 * p.lines.length;
  if (p.lines.length < 4) return false;
  const named = p.lines.filter(titledLater).length;
  // Titles are matched whole, and a layout may run two entries into one line: a third suffices.
  return refs >= 0.5 * p.lines.length || named >= Math.max(4, p.lines.length / 3);
}

/** An index page: many short entries ending in page numbers, mostly in alphabetical order. */
function isIndexPage(p: Page): boolean {
  const entries = p.lines.filter((l) => l.length <= 80 && PAGE_REF_LINE_RE.test(l));
  if (entries.length < 8 || entries.length < 0.6 * p.lines.length) return false;
  const initials = entries.map((l) =>
    l
      .normalize("NFD")
      .replace(/[^\p{L}]/gu, "")
      .charAt(0)
      .toLowerCase(),
  );
  let ordered = 0;
  for (let k = 1; k < initials.length; k++) if (initials[k]! >= initials[k - 1]!) ordered++;
  return ordered >= 0.85 * (initials.length - 1);
}

/**
 * A page given mostly to lists of people's names (a contributors or thanks page: "Eric Abrahamsen,
 * Lenimar Nunes de Andrade, Eilinger August, …"): whom a book thanks, however much prose
 * introduces them, is not what it teaches.
 */
function isNamesPage(p: Page, blocks: Block[]): boolean {
  const names = p.blocks.filter((i) => isText(blocks[i]!) && isNameList(blocks[i]!.text));
  return names.length >= 3 && names.reduce((n, i) => n + wordsIn(blocks[i]!.text), 0) >= 0.5 * p.words;
}

/** A page's first block with words (a rule of underscores drawn as text is no title). */
const firstWords = (p: Page, blocks: Block[]) => p.blocks.map((i) => blocks[i]!).find((b) => /\p{L}/u.test(b.text));

/** The heading of a first chapter or part: "1 Numbers", "1. Introduction", "Chapter 1", "CHAPTER ONE", "Part I". */
const FIRST_CHAPTER_RE = /^((chapter|part)\s+(1|one|i)\b|1\.?\s+\p{L})/iu;

/** A page that opens with a first chapter's heading: the book's text has begun, however terse its prose. */
const opensFirstChapter = (p: Page, blocks: Block[]) => {
  const b = firstWords(p, blocks);
  // A contents entry set as a heading ends in its page number.
  return b?.kind === "heading" && FIRST_CHAPTER_RE.test(b.text) && !/\s(\d+|[ivxlc]+)$/i.test(b.text);
};

/** A heading, or a short line that is not a sentence: a page opening with it starts something new. */
const opensWithTitle = (b: Block | undefined) =>
  !b || b.kind === "heading" || (wordsIn(b.text) <= 5 && !/[.!?,;]$/.test(b.text));

/** A page's first line when it names its own role ("Acknowledgements", "Dedication"), read as a heading. */
function namedRole(p: Page, blocks: Block[], headingRole: (text: string) => BlockRole | null): BlockRole | null {
  const first = firstWords(p, blocks);
  if (!first || !isText(first) || wordsIn(first.text) > 5) return null;
  return headingRole(first.text);
}

/** A grant of licence terms: "you may redistribute it and/or modify it under the terms of …". */
const GRANT_RE = /\b(may|free to) (redistribute|copy|modify|share)\b|\bredistribute (it )?and\/or modify\b/i;
/** Most words a licence statement standing alone on a front page holds (a full licence is a section of its own). */
const MAX_GRANT_WORDS = 150;

/** A front page that only states the book's licence: short, naming a licence and granting its terms. */
const grantsLicence = (p: Page) => {
  const text = p.lines.join("\n");
  return p.words <= MAX_GRANT_WORDS && LICENCE_NAME_RE.test(text) && GRANT_RE.test(text);
};

/**
 * The pages of a paginated document before its first page of running prose (the front zone), and
 * its index pages at the back, given roles by what each page is. The front zone is at most half
 * the document: a text with no prose page early (a slide deck) has none.
 */
export function pageRoles(blocks: Block[], roles: Roles, headingRole: (text: string) => BlockRole | null): void {
  const pages = pagesOf(blocks);
  if (pages.length < 4) return;
  const typical = median(pages.map((p) => p.words));
  const setPage = (p: Page, role: BlockRole) => {
    for (const i of p.blocks) roles[i] ??= role;
  };
  // Where each short line (a heading, or a title a layout left as a paragraph) last stands.
  const lastSeen = new Map<string, number>();
  pages.forEach((p, k) => {
    for (const i of p.blocks) if (wordsIn(blocks[i]!.text) <= 12) lastSeen.set(normalTitle(blocks[i]!.text), k);
  });
  const titlesAfter = (k: number) => (line: string) => {
    const title = normalTitle(line);
    return title.length > 0 && (lastSeen.get(title) ?? -1) > k;
  };

  let bodyStart = -1;
  for (let k = 0; k < pages.length / 2; k++) {
    const p = pages[k]!;
    const named = namedRole(p, blocks, headingRole);
    const imprint = imprintEvidence(p.lines.join("\n")) >= 3;
    const assigned = p.blocks.every((i) => roles[i] && roles[i] !== "body");
    const prose = p.longest >= PROSE_WORDS && p.words >= Math.min(100, typical);
    // A reference manual's entries are short paragraphs ("SINH (number) … Returns the hyperbolic
    // sine"): its first chapter's heading, not a long paragraph, says its text has begun.
    // Its entries' recurring labels ("[Function]", "Package:LISP") read like a contents page's titles.
    const opens = opensFirstChapter(p, blocks) || (prose && !isContentsPage(p, titlesAfter(k)));
    if (opens && !named && !imprint && !assigned && !isNamesPage(p, blocks)) {
      bodyStart = k;
      break;
    }
  }
  const front = bodyStart < 0 ? pages.slice(0, 1) : pages.slice(0, bodyStart);
  /** What a page before the first page of prose is, by its own evidence. */
  const frontRole = (p: Page, k: number): BlockRole | null => {
    // Before what it names: a book's licence given as its "Abstract" is its licence.
    if (grantsLicence(p)) return "boilerplate";
    const named = namedRole(p, blocks, headingRole);
    if (named) return named;
    if (isNamesPage(p, blocks)) return "acknowledgements";
    const evidence = imprintEvidence(p.lines.join("\n"));
    if (evidence >= 3) return "boilerplate";
    // Before weaker imprint evidence: a contents page may list "Copyright and License".
    const afterContents = k > 0 && front[k - 1]!.blocks.every((i) => roles[i] === "toc");
    if (isContentsPage(p, titlesAfter(k), afterContents)) return "toc";
    if (evidence >= 2 && p.words <= 250) return "boilerplate";
    // Sparse or without a paragraph of prose: cover, half-title, title page, dedication, epigraph, "also by".
    if (bodyStart >= 0 && (p.words <= typical / 2 || p.longest < PROSE_WORDS / 2)) return "title_page";
    return null;
  };
  front.forEach((p, k) => {
    const role = frontRole(p, k);
    if (role) setPage(p, role);
  });
  // Up to the contents, a page that names itself ("Acknowledgements") is that matter even when it
  // is prose, and so are the pages it runs on to, until one opens with a new title. Right after the
  // contents, pages that name a non-teaching role (an errata table, a list of figures) still are.
  const contentsEnd = pages.findLastIndex((p, k) => k < pages.length / 4 && p.blocks.some((i) => roles[i] === "toc"));
  let carried: BlockRole | null = null;
  for (let k = front.length; k < pages.length; k++) {
    const p = pages[k]!;
    const named = namedRole(p, blocks, headingRole);
    if (k > contentsEnd && (contentsEnd < 0 || !named || TEACHING_ROLES.has(named))) break;
    if (named) carried = TEACHING_ROLES.has(named) ? null : named;
    else if (opensWithTitle(firstWords(p, blocks))) carried = null;
    if (carried) setPage(p, carried);
  }
  // An imprint page may follow a first page of prose (a blurb); it still stands among the first pages.
  for (const p of pages.slice(front.length, Math.max(front.length, Math.ceil(pages.length * 0.1))))
    if (imprintEvidence(p.lines.join("\n")) >= 4 && p.words <= 400) setPage(p, "boilerplate");

  for (const p of pages.slice(front.length)) if (isNamesPage(p, blocks)) setPage(p, "acknowledgements");

  const backFrom = Math.floor(pages.length * 0.6);
  for (const p of pages.slice(backFrom))
    if (isIndexPage(p)) for (const i of p.blocks) if (!roles[i] || roles[i] === "references") roles[i] = "index";
}

const LEGAL_RE =
  /\b(hereby|shall|herein|hereunder|thereof|therein|licensee|licensor|sublicens\w*|merchantability|warrant(y|ies|ed)?|liable|liability|notwithstanding|pursuant|terms and conditions|royalt(y|ies)|indemnif\w*|void|waive\w*|provided that)\b/gi;
/** Legal terms per hundred words over which a run of text reads as a licence (prose about licences stays far below). */
const LEGAL_DENSITY = 0.4;
/** A licence's preamble names it, holds its copyright line and says who may copy it. */
const LICENCE_NAME_RE = /\blicen[cs]e\b/i;
const PERMISSION_RE =
  /\b(permitted|permission|allowed) to (copy|distribute)|\bverbatim copies\b|\bpermission is granted\b/i;

/**
 * Licence texts appended after the body (GPL, GFDL…): a unit (a heading, or a page's first
 * block) in the last third whose opening names a licence, holds a copyright line and grants
 * copying, and from which the text to the end is dense in legal terms. All of it is boilerplate.
 */
export function trailingLicences(blocks: Block[], roles: Roles): void {
  const teaching = (i: number) => !roles[i] || roles[i] === "body" || roles[i] === "appendix";
  const texts = blocks.map((b, i) => (isFurniture(b) || !teaching(i) ? "" : b.text));
  const total = texts.reduce((n, t) => n + t.length, 0);
  if (total === 0) return;
  let seen = 0;
  const starts: number[] = [];
  blocks.forEach((b, i) => {
    seen += texts[i]!.length;
    if (seen < total * 0.66 || !texts[i]) return;
    const opensPage = b.page != null && i > 0 && blocks[i - 1]!.page !== b.page;
    if (b.kind === "heading" || opensPage) starts.push(i);
  });
  for (const [k, start] of starts.entries()) {
    // The opening is the unit's own first blocks, never the next unit's preamble.
    const opening = texts
      .slice(start, Math.min(starts[k + 1] ?? blocks.length, start + 12))
      .join("\n")
      .slice(0, 1500);
    if (!LICENCE_NAME_RE.test(opening) || !PERMISSION_RE.test(opening) || imprintEvidence(opening) < 2) continue;
    const rest = texts.slice(start).join("\n");
    const words = wordsIn(rest);
    if (words < 300 || (100 * (rest.match(LEGAL_RE)?.length ?? 0)) / words < LEGAL_DENSITY) continue;
    // A licence's own appendix ("How to Apply These Terms") is part of it, not an appendix to teach.
    for (let i = start; i < blocks.length; i++) if (teaching(i) && !isFurniture(blocks[i]!)) roles[i] = "boilerplate";
    return;
  }
}

/**
 * A licence text under its own heading inside the document (a web manual's "Manuals" chapter
 * ending with the GFDL): a section whose opening names a licence, holds a copyright line and grants
 * copying, and whose text up to the next heading of its level or above is dense in legal terms.
 */
export function sectionLicences(blocks: Block[], roles: Roles): void {
  const teaching = (i: number) => !roles[i] || roles[i] === "body" || roles[i] === "appendix";
  const text = (i: number) => (isFurniture(blocks[i]!) || !teaching(i) ? "" : blocks[i]!.text);
  blocks.forEach((b, start) => {
    if (b.kind !== "heading" || !teaching(start)) return;
    const level = b.level ?? 1;
    let end = blocks.findIndex((o, i) => i > start && o.kind === "heading" && (o.level ?? 1) <= level);
    if (end < 0) end = blocks.length;
    const unit = [...blocks.keys()].slice(start, end).map(text);
    // The opening is the section's own text before its first subsection: a chapter ending with a licence is not one.
    const sub = blocks.findIndex((o, i) => i > start && o.kind === "heading");
    const opening = unit
      .slice(0, Math.min(12, (sub < 0 ? end : sub) - start))
      .join("\n")
      .slice(0, 1500);
    if (!LICENCE_NAME_RE.test(opening) || !PERMISSION_RE.test(opening) || imprintEvidence(opening) < 2) return;
    const all = unit.join("\n");
    const words = wordsIn(all);
    if (words < 300 || (100 * (all.match(LEGAL_RE)?.length ?? 0)) / words < LEGAL_DENSITY) return;
    for (let i = start; i < end; i++) if (teaching(i) && !isFurniture(blocks[i]!)) roles[i] = "boilerplate";
  });
}

/** A copyright notice: "copyright (C) 1997-2021", "Copyright © 2016", "© 1989". */
const NOTICE_RE = /(?:\bcopyright\b\s*(?:\(c\)|©)?|©)\s*(?:1[89]|20)\d\d/gi;
/** A section holding this many notices, one at least every this many words, lists notices. */
const MIN_NOTICES = 3;
const WORDS_PER_NOTICE = 300;

/**
 * A section made of copyright notices (a manual's closing "Copyright and credits": who holds each
 * part of the code, under which terms, whom it thanks): as dense in dated copyright lines as an
 * imprint page, where prose about copyright names it without dating it. All of it is boilerplate.
 */
export function noticeSections(blocks: Block[], roles: Roles): void {
  const teaching = (i: number) => !roles[i] || roles[i] === "body" || roles[i] === "appendix";
  blocks.forEach((b, start) => {
    if (b.kind !== "heading" || !teaching(start)) return;
    const level = b.level ?? 1;
    let end = blocks.findIndex((o, i) => i > start && o.kind === "heading" && (o.level ?? 1) <= level);
    if (end < 0) end = blocks.length;
    const text = blocks
      .slice(start, end)
      .filter((o, k) => teaching(start + k) && !isFurniture(o))
      .map((o) => o.text)
      .join("\n");
    const notices = text.match(NOTICE_RE)?.length ?? 0;
    if (notices < MIN_NOTICES || wordsIn(text) > notices * WORDS_PER_NOTICE) return;
    for (let i = start; i < end; i++) if (teaching(i) && !isFurniture(blocks[i]!)) roles[i] = "boilerplate";
  });
}

/** Most lines a cover or title block holds. */
const OPENING_LINES = 8;

/**
 * A document without pages (DOCX, HTML) that has a table of contents near its start opens with
 * front matter: the short lines before its first paragraph of prose that are not sentences and
 * not headings ("2015 v2.1", "October 2021", a subtitle) are its title matter.
 */
export function openingLines(blocks: Block[], roles: Roles): void {
  if (blocks.some((b) => b.page != null)) return;
  const early = Math.max(1, Math.ceil(blocks.length * 0.2));
  if (!roles.slice(0, early).includes("toc")) return;
  const prose = blocks.findIndex((b, i) => !roles[i] && b.kind === "paragraph" && wordsIn(b.text) >= PROSE_WORDS);
  if (prose < 0) return;
  const lines = [...blocks.keys()]
    .slice(0, prose)
    .filter((i) => !roles[i] && (blocks[i]!.kind === "paragraph" || blocks[i]!.kind === "list_item"));
  if (lines.length > OPENING_LINES) return;
  for (const i of lines)
    if (wordsIn(blocks[i]!.text) <= 12 && !/[.!?:]$/.test(blocks[i]!.text)) roles[i] = "title_page";
}
