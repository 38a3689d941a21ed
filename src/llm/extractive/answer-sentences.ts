/**
 * The sentences an answer may quote: whole sentences of the passages, each once. Passages are
 * chunks of extracted documents, so their text carries the extraction's seams: a paragraph broken
 * into one block per PDF line ("The DPR model used in our main experiments" / "is trained using…"),
 * words hyphenated across those breaks, quotations split by the sentence splitter, a chunk that
 * starts mid-sentence. Blocks that continue one another are joined again and quotations kept whole;
 * what is still not a whole sentence (no capital or number at its start, no terminal punctuation at
 * its end, a table row, a heading) is never quoted. A sentence that two passages share (a chapter
 * and the source it was condensed from, overlapping chunks) is kept once, in its first passage.
 */

import { type Rejoiner, rejoiner, rejoinHyphenated } from "../../ingest/clean-text.ts";
import { type BlockRole, hasLostText } from "../../ingest/document.ts";
import { splitSentences } from "../../ingest/sentences.ts";
import type { Passage } from "../types.ts";
import { abbreviations, coverage, type KeyTerm, readTerms, termsOf, withAbbreviations } from "./answer-terms.ts";
import { remembered } from "./remembered.ts";
import { plainText, wordCount } from "./text.ts";

/** A passage as question answering receives it: its role says whether it is prose to quote. */
export interface AnswerPassage extends Passage {
  role?: BlockRole;
}

/** All the passages say, headings included: where the names a question asks about must appear. */
export const passagesText = (passages: AnswerPassage[]) => passages.flatMap(passagePieces).join("\n");

const passagePieces = (p: AnswerPassage) => [...(p.headingPath ?? []), p.heading ?? "", p.text];

// A passage, a heading, comes back for question after question: each one's terms are read once.
const pieceTerms = remembered(termsOf, 5_000);

/**
 * The terms of `passagesText`, read piece by piece: no term spans the line between two pieces, so
 * the union of theirs is the joined text's.
 */
export function passagesTerms(passages: AnswerPassage[]): Set<string> {
  const out = new Set<string>();
  for (const piece of passages.flatMap(passagePieces)) for (const t of pieceTerms(piece)) out.add(t);
  return out;
}

/** A sentence of a passage, quotable or not. */
interface ReadSentence {
  text: string;
  /** Its content-word stems, numbers and code names (answer-terms.ts). */
  terms: Set<string>;
  /** Its content-word stems in order (answer-terms.ts termStems): where the question's terms stand. */
  stems: string[];
  /** Its terms with those of the sentences on either side and of its passage's headings: what it is read with. */
  context: Set<string>;
  /** The terms of its whole passage and headings: what must hold the question's key terms (answer.ts). */
  passageTerms: Set<string>;
  /** The terms of its document's title (its passage's first heading): what every sentence of it is about. */
  title: Set<string>;
}

export interface AnswerSentence extends ReadSentence {
  /** Index of its passage in the list given. */
  passage: number;
  /** Order within its passage, counting the sentences that are not quoted. */
  position: number;
  /** The pieces right after it that are no whole sentence (list items without a full stop), up to the next one that is. */
  following: string[];
}

// List items read after a sentence that announces them: enough for a list, not a whole section.
const FOLLOWING = 8;
// A formula's number, set in a cell of its own by PDF extraction ("sim(q, p) = … | (1)").
const EQUATION_NUMBER = /\s*\|?\s*\(\d{1,3}\)$/;

// A bibliography entry has a sentence's punctuation but states nothing; contents, index and page
// furniture state nothing either.
const NOT_QUOTED: ReadonlySet<BlockRole> = new Set(["references", "toc", "index", "header_footer", "page_number"]);

// A colon ends a sentence that announces the list after it (answer.ts quotes them together).
const ENDS_SENTENCE = /[.!?:]["'”’)\]]*$/;
const STARTS_SENTENCE = /^["'“‘([]*[\p{Lu}\p{N}]/u;
// A code name may open a sentence in lower case ("sort(x) returns…", "is.na(x) gives…").
const STARTS_WITH_CODE = /^(?:[\p{Ll}_][\w.]*[(._]|_\w)/u;

const ENDS_CLAUSE = /[.!?:;]["'”’)\]]*$/;
// A table row has a cell bar at an end or several between cells; R's `|` and `||` in prose do not make one.
const TABLE_ROW = /^\s*\||\|\s*$|(?:\s\|\s.*){2}/;
// An R or shell console line quoted inside a sentence ("The function sink, > sink("x") will divert…").
const CONSOLE_LINE = /^[>$]\s/;

interface Block {
  text: string;
  /** A list item: it stands alone even without a full stop. */
  item: boolean;
}

/**
 * Whether `next` carries on the sentence `block` left open: it starts in lower case, or the PDF's
 * one-block-per-line extraction broke a paragraph before a capitalised word ("…and one additional" /
 * "BM25 negative passage per question."): then `block` is prose of several words ending in a word.
 */
function continues(block: Block, next: Block): boolean {
  const text = block.text.trimEnd();
  if (ENDS_CLAUSE.test(text) || next.item) return false;
  // Code ("… }") is not prose that a lower-case block carries on.
  // A URL on its own line ("…available from" / "http://ggobi.org/" / "and these…") is carried on too.
  if (/^[\p{Ll}(]/u.test(next.text.trimStart())) return /[\p{L}\p{N},)/-]$/u.test(text);
  return (
    !block.item && wordCount(text) >= 3 && /\p{Ll}$/u.test(text) && !TABLE_ROW.test(text) && !TABLE_ROW.test(next.text)
  );
}

/** Blocks of one passage's plain text: paragraphs, list items, tables; headings left out, broken paragraphs joined. */
function blocksOf(text: string): string[] {
  const raw: Block[] = plainText(text)
    .split(/\n\s*\n|\n(?=\s*(?:#|[-*+] |\d+[.)] ))/)
    .map((b) => {
      const lines = b.split("\n").filter((line) => !/^\s*#{1,6}\s/.test(line));
      const item = lines.length > 0 && /^\s*(?:[-*+]|\d+[.)])\s+/.test(lines[0]!);
      return {
        text: lines
          .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").trim())
          .join(" ")
          .trim(),
        item,
      };
    })
    .filter((b) => b.text);
  const joined: Block[] = [];
  for (const b of raw) {
    const last = joined.at(-1);
    const beforeLast = joined.at(-2);
    if (last && /^\p{Lu}$/u.test(last.text) && /^\p{Ll}/u.test(b.text)) {
      // A drop cap extracted as its own block ("D" / "rop caps are used…").
      last.text += b.text;
    } else if (
      last &&
      beforeLast &&
      CONSOLE_LINE.test(last.text) &&
      /^\p{Ll}/u.test(b.text) &&
      !ENDS_CLAUSE.test(beforeLast.text.replace(/,$/, ""))
    ) {
      joined.pop();
      beforeLast.text = `${beforeLast.text} ${last.text} ${b.text}`;
    } else if (last && continues(last, b)) last.text = `${last.text} ${b.text}`;
    else joined.push({ ...b });
  }
  return joined.map((b) => b.text);
}

// sbd reads a lone capital before a full stop as an initial ("David M. Smith"), so "…stored within
// R. The collection…" stays one sentence; after a lower-case word it is a one-letter word ending one.
const LONE_CAPITAL_END = /(?<=\s\p{Ll}+\s\p{Lu}\.)\s+(?=\p{Lu}\p{Ll})/u;

const DOT = "\u2024";

/** Sentences of a block, a quotation cut by the splitter joined back to the sentence that opens it. */
function sentencesOfBlock(block: string): string[] {
  // A footnote mark glued to a sentence's full stop ("in the end.5 Each") hides the boundary.
  // An ellipsis ("0, 1, . . . , 9") is no sentence end: its dots are held back from the splitter.
  // (A dot inside a word, "add.c" or ".RData", is no boundary to splitSentences.)
  const text = block
    .replace(/(\p{L})\.\d{1,2}\s+(?=\p{Lu})/gu, "$1. ")
    .replace(/\.(?:\s?\.){2,}/g, (dots) => dots.replaceAll(".", DOT));
  const out: string[] = [];
  let open = "";
  for (const s of splitSentences(text).flatMap((x) => x.split(LONE_CAPITAL_END))) {
    const piece = s.trim();
    // A piece in lower case goes on with the one before: the splitter took a dot inside it for an
    // end (a URL a PDF line broke: "https://CRAN.R-project. org").
    if (!open && out.length > 0 && /^\p{Ll}/u.test(piece) && !STARTS_WITH_CODE.test(piece)) open = out.pop()!;
    open = open ? `${open} ${piece}` : piece;
    const straight = (open.match(/"/g) ?? []).length;
    const curly = (open.match(/“/g) ?? []).length - (open.match(/”/g) ?? []).length;
    if (straight % 2 === 0 && curly <= 0) {
      out.push(open);
      open = "";
    }
  }
  if (open) out.push(open);
  return out.map((s) => s.replaceAll(DOT, "."));
}

/** A sentence that can be quoted as it stands: whole, and holding all the page printed. */
function isWhole(s: string): boolean {
  const n = wordCount(s);
  const letters = s.match(/\p{L}/gu)?.length ?? 0;
  return (
    n >= 3 &&
    n <= 80 &&
    (STARTS_SENTENCE.test(s) || STARTS_WITH_CODE.test(s)) &&
    ENDS_SENTENCE.test(s) &&
    !TABLE_ROW.test(s) &&
    !hasLostText(s) &&
    letters >= s.length * 0.5
  );
}

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

// A code block stands in the text as one letterless piece until its sentences are split, then as
// its code: a sentence announcing it ("…the function rm is available:") is quoted with it.
const FENCED = /```[^\n]*\n([\s\S]*?)```/g;
const HELD = /\uE000(\d+)\uE001/g;

function holdCode(text: string): { text: string; code: string[] } {
  const code: string[] = [];
  const held = text.replace(FENCED, (_m, body: string) => {
    code.push(`\`${body.trim().replace(/\s+/g, " ")}\``);
    return `\n\n\uE000${code.length - 1}\uE001\n\n`;
  });
  return { text: held, code };
}

// A passage comes back for question after question: each sentence's terms are read once.
const sentenceTerms = remembered(readTerms, 20_000);

// A passage comes back for question after question: its blocks and their sentences are read once.
const passageBlocks = remembered((passage: string) => {
  const { text, code } = holdCode(passage);
  return { blocks: blocksOf(text), code };
}, 5_000);
const blockSentences = remembered(sentencesOfBlock, 20_000);

/** Every sentence, whole or not, of each passage that may be quoted from. */
function readPassages(passages: AnswerPassage[]): { passage: number; sentences: ReadSentence[] }[] {
  // The passages' vocabulary is read only when a block has a split word to mend.
  let vocabulary: Rejoiner | undefined;
  const words: Rejoiner = {
    isWord(head, tail) {
      vocabulary ??= rejoiner(new Set(passages.flatMap((p) => p.text.toLowerCase().match(/\p{L}+/gu) ?? [])));
      return vocabulary.isWord(head, tail);
    },
  };
  const known = abbreviations(passages.map((p) => p.text).join("\n"));
  return passages.flatMap((p, passage) => {
    if (p.role && NOT_QUOTED.has(p.role)) return [];
    const heading = termsOf([...(p.headingPath ?? []), p.heading ?? ""].join(" "));
    const title = termsOf(p.headingPath?.[0] ?? "");
    // Joined blocks leave "Sec- tion": mended like any other split word.
    const { blocks, code } = passageBlocks(p.text);
    const all = blocks
      .flatMap((block) => blockSentences(rejoinHyphenated(block, words)))
      .map((sentence) => sentence.replace(HELD, (_m, i: string) => code[Number(i)]!));
    const read = all.map(sentenceTerms);
    const terms = read.map((r) => withAbbreviations(r.terms, known));
    const passageTerms = new Set([...terms.flatMap((t) => [...t]), ...heading]);
    const sentences = all.map((text, i) => ({
      text,
      terms: terms[i]!,
      stems: read[i]!.stems,
      context: new Set([...(terms[i - 1] ?? []), ...terms[i]!, ...(terms[i + 1] ?? []), ...heading]),
      passageTerms,
      title,
    }));
    return [{ passage, sentences }];
  });
}

export function answerSentences(passages: AnswerPassage[]): AnswerSentence[] {
  const seen = new Set<string>();
  const out: AnswerSentence[] = [];
  for (const { passage, sentences } of readPassages(passages)) {
    const whole = sentences.map((s) => isWhole(s.text));
    // Index of the next whole sentence after each one (their count when none): one pass, not a search per sentence.
    const nextWhole: number[] = [];
    for (let i = sentences.length - 1, next = sentences.length; i >= 0; i--) {
      nextWhole[i] = next;
      if (whole[i]) next = i;
    }
    sentences.forEach((s, position) => {
      if (!whole[position]) return;
      const k = key(s.text);
      if (seen.has(k)) return;
      seen.add(k);
      const following = sentences
        .slice(position + 1, Math.min(nextWhole[position]!, position + 1 + FOLLOWING))
        .map((x) => x.text.replace(EQUATION_NUMBER, ""));
      out.push({ ...s, passage, position, following });
    });
  }
  return out;
}

/**
 * How well the passages support a question: the best weighted share of its key terms that one
 * passage, headings included, holds (0–1). Every sentence counts here, whole or not: a model reads
 * a slide's bullet points too.
 */
export function keyTermSupport(terms: KeyTerm[], passages: AnswerPassage[]): number {
  let best = 0;
  for (const { sentences } of readPassages(passages))
    best = Math.max(best, coverage(terms, sentences[0]?.passageTerms ?? new Set()));
  return best;
}
