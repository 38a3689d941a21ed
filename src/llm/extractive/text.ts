/** Text plumbing for the extractive engine: markdown to sentences, tokens, stems. */

import { stemmer } from "stemmer";
import { eng } from "stopword";
import { hasLostText } from "../../ingest/document.ts";
import { splitSentences } from "../../ingest/sentences.ts";
import { sectionTitle } from "../../util.ts";
import type { Passage } from "../types.ts";
import { remembered } from "./remembered.ts";

// The package's English list omits negations, modals and other function words that make poor key phrases.
const EXTRA_STOPWORDS = [
  "not",
  "no",
  "nor",
  "its",
  "will",
  "may",
  "so",
  "just",
  "even",
  "does",
  "per",
  "us",
  "shall",
  "onto",
  "upon",
  "via",
  "yet",
  "therefore",
  "however",
  "thus",
  "hence",
  "whose",
  "whom",
  "why",
  "when",
  "within",
  "without",
  "across",
  "among",
  "above",
  "below",
  "against",
  "during",
  "until",
  "although",
  "though",
  "unless",
  "whether",
  "either",
  "neither",
  "every",
  "few",
  "several",
  "own",
  "ever",
  "often",
  "usually",
  "also",
  "etc",
  "eg",
  "ie",
  "use",
  "used",
  "using",
  "uses",
  "one",
  "two",
  "new",
  "first",
  "second",
  "example",
  "following",
  "see",
  "given",
  "let",
  "lets",
  "can't",
  "don't",
  "it's",
  "i'm",
  "we're",
  "they're",
  "you're",
  "here's",
  "there's",
  "that's",
  "let's",
  "isn't",
  "aren't",
  "doesn't",
  "won't",
  "cannot",
  "okay",
  "yes",
  "yeah",
  "oh",
  "really",
  "things",
  "thing",
  "something",
  "anything",
  "everything",
  "lot",
  "lots",
  "kind",
  "sort",
  "able",
  "put",
  "going",
  "want",
  "know",
  "think",
  "say",
  "says",
  "way",
  "ways",
  "well",
  "back",
  "gets",
  "go",
  "goes",
  "made",
  "makes",
  "need",
  "needs",
];
export const STOPWORDS = new Set([...eng, ...EXTRA_STOPWORDS]);

// A word ends in a letter or digit: the quote after 'Mozilla' is not part of it.
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}'’_-]*[\p{L}\p{N}])?/gu;

export const words = (text: string): string[] => text.match(WORD) ?? [];

// A closed list: a question typed as spoken ("What's the recommended way…", "Why can't…") reads as written out.
const CONTRACTIONS: [RegExp, string][] = [
  [/\b(can)[’']t\b/gi, "$1not"],
  [/\b(w)on[’']t\b/gi, "$1ill not"],
  [/\b(\p{L}+)n[’']t\b/giu, "$1 not"],
  [/\b(what|who|where|when|how|why|which|that|there|it|here)[’']s\b/gi, "$1 is"],
  [/\b(\p{L}+)[’']re\b/giu, "$1 are"],
  [/\b(\p{L}+)[’']ve\b/giu, "$1 have"],
  [/\b(\p{L}+)[’']ll\b/giu, "$1 will"],
  [/\b(\p{L}+)[’']d\b/giu, "$1 would"],
];

/** `text` with its contractions written out ("what's" → "what is", "can't" → "cannot"). */
export const expandContractions = (text: string): string =>
  // Every contraction has an apostrophe: most text has none to expand, and is passed over at once.
  /[’']/.test(text) ? CONTRACTIONS.reduce((t, [re, by]) => t.replace(re, by), text) : text;
export const wordCount = (text: string) => words(text).length;
export const isStopword = (w: string) => STOPWORDS.has(w.toLowerCase());
// Porter reads the "s" of "focus" or "status" as a plural and drops it, while "focuses" stems to "focus".
const LATIN_US = /\p{L}{2}us$/u;
// A book says "function" thousands of times, and every question's passages their own words again:
// each word is stemmed once.
export const stem = remembered((w: string): string => {
  const lower = w.toLowerCase().replace(/[’']s$/, "");
  return LATIN_US.test(lower) ? lower : stemmer(lower);
}, 100_000);

/** Stems of the content words of `text` (stopwords and bare numbers dropped), each word first put through `base` when given. */
export function contentStems(text: string, base?: (lower: string) => string): string[] {
  return words(text)
    .map((w) => (base ? base(w.toLowerCase()) : w))
    .filter((w) => !isStopword(w) && !/^\d+$/.test(w) && w.length > 1)
    .map(stem);
}

/** Plain prose from markdown/HTML-ish text: no code, links reduced to their text, no emphasis marks. */
export function plainText(markdown: string): string {
  return (
    markdown
      .replace(/```[\s\S]*?```/g, " ")
      // A tag, not a name written in angle brackets (`\<artwork\>` in a markup manual), which the
      // escapes below give back as text.
      .replace(/(?<!\\)<[^>]+>/g, " ")
      .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
      .replace(/`([^`]+)`/g, "$1")
      // Emphasis only at token boundaries, as markdown reads it: `%*%`, `a*b` and snake_case stay as written.
      .replace(/(^|[\s(["'])([*_]{1,3})(?=[^\s*_])([^*_\n]*?[^\s*_])\2(?=$|[\s)\]"'.,;:!?])/gm, "$1$3")
      .replace(/\[\d+\]/g, "")
      // Backslash escapes (`file\_test`, `\[CLS\]`) read as the characters they escape.
      .replace(/\\([\\`*_[\]<>|#+\-.!{}()])/g, "$1")
      .replace(/[ \t]+/g, " ")
  );
}

export interface Sentence {
  text: string;
  /** Position across the whole input, for reading order. */
  index: number;
  passageId: string;
  heading: string | null;
  stems: string[];
  /** Whether the sentence before it in its passage and section is the previous Sentence (none left out between). */
  follows: boolean;
}

// Prose sentences only: headings, table rows, captions, code and fragments make poor summaries and quizzes.
const CODE = /\/\/|:=|=>|==|[{}]|;\s*$/;
// A caption extracted as a sentence ("Figure 1: Retriever top-k accuracy with…") describes a picture the learner does not see.
const CAPTION = /^(figure|fig\.|table|tab\.|listing|algorithm|chart|exhibit)\s*\d+[a-z]?\s*[:.|–—-]/i;
export const isCaption = (s: string) => CAPTION.test(s);
export const isProse = (s: string) => {
  const n = wordCount(s);
  const letters = s.match(/\p{L}/gu)?.length ?? 0;
  return (
    n >= 6 &&
    n <= 70 &&
    /[a-z]/.test(s) &&
    !/\|/.test(s) &&
    !CODE.test(s) &&
    !CAPTION.test(s) &&
    !hasLostText(s) &&
    letters >= s.length * 0.6 &&
    (s.match(/\d/g)?.length ?? 0) < s.length / 4
  );
};

/**
 * Sentences that only point elsewhere in their document ("In Section 4 we describe…", "this
 * paper", "as shown in Figure 3") or send the reader to another ("the reader should look at the
 * appropriate section in the User's Manual"): out of their document they say nothing to a learner.
 */
const POINTS_ELSEWHERE =
  /\b(in|see|of|from)\s+(section|sec\.|chapter|figure|fig\.|table|appendix|equation|eq\.)\s*[\dA-Z]|\b(section|figure|fig\.|table|appendix)\s+\d+(\.\d+)*\s+(shows|describes|presents|gives|lists|summari[sz]es|illustrates|compares|reports|contains|breaks down|plots|depicts)|\bthis (paper|article|report|thesis|manual|document|work|study)\b|\b(we|i) (describe|present|discuss|show|explain|outline|review)\b.{0,40}\b(section|chapter|below|later|next)\b|\b(as (shown|described|discussed|mentioned|noted)) (above|below|earlier|later|before)\b|\bthe (rest|remainder) of (this|the) (paper|article|chapter|section)\b|\b(sections?|chapters?) \d+(\.\d+)* (is|are|describes?|presents?|gives?|covers?|discuss(es)?|shows?|concludes?|introduces?)\b|^(in )?this (section|chapter)\b|\b(look at|refer to|consult|turn to|see) the ([a-z’'-]+ ){0,3}(section|chapter|manual|documentation|appendix)s?\b/i;
/**
 * Sentences that walk through a figure, table or listing the learner does not see: they name one
 * anywhere ("read along with Figure 2", "the diagram", "the left column", "the bottom block", "in
 * the first example" of a table of examples, "line 4"), or labels that only the figure explains,
 * two of them or one with a subscript ("TraceMonkey calls T16, which calls the nested trace T45",
 * "a trace T23,1"). A single label is kept: "L2 distance", "T5", "X11".
 */
const WALKS_FIGURE =
  /\b(figure|fig\.|listing|table|algorithm|diagram)s?\s*\d|\b(the|this|that|each|following) (figure|diagram|illustration|screenshot|listing|picture)s?\b|\b(graph|plot|chart|table)s? (above|below)\b|\bthe following (graph|plot|chart|table)\b|\b(left|right|top|bottom|upper|lower|middle)(-hand)? (column|panel|plot|graph|figure|chart|picture|diagram|image|half|corner|subfigure|box|block|row)s?\b|\bthe (first|second|third|fourth|last) (example|row|column|entry|block|panel)\b|\blines? \d+\b/i;
const FIGURE_LABEL = /(?<![\p{L}\p{N}])\p{Lu}\d{1,2}(,\d{1,2})?(?![\p{L}\p{N}])/gu;
const namesFigureLabels = (s: string) => {
  const labels = new Set(s.match(FIGURE_LABEL) ?? []);
  return labels.size >= 2 || [...labels].some((l) => l.includes(","));
};

export const pointsElsewhere = (s: string) => POINTS_ELSEWHERE.test(s) || WALKS_FIGURE.test(s) || namesFigureLabels(s);

// Back matter teaches nothing: its sentences are left out of every extractive artefact.
const BACK_MATTER = /^(references|bibliography|works cited|citations|acknowledge?ments?|notes and references)$/i;
const isBackMatter = (heading: string | null) => BACK_MATTER.test(sectionTitle(heading) ?? "");

/** Sentences of passages in reading order; markdown headings become each sentence's heading. */
export function sentencesOf(passages: Passage[]): Sentence[] {
  const out: Sentence[] = [];
  for (const p of passages)
    for (const s of passageSentences(`${p.id}\u0000${p.heading ?? "\u0001"}\u0000${p.text}`))
      out.push({
        text: s.text,
        index: out.length,
        passageId: s.passageId,
        heading: s.heading,
        stems: s.stems,
        follows: s.follows,
      });
  return out;
}

// A build reads the same passages again and again (the outline the whole source and then each
// chapter, each chapter its sources, its material, the study guide): each passage is split once.
// Keyed by the passage's id, heading and text, so a changed passage is split afresh.
const passageSentences = remembered((key: string): Omit<Sentence, "index">[] => {
  const idEnd = key.indexOf("\u0000");
  const headingEnd = key.indexOf("\u0000", idEnd + 1);
  const id = key.slice(0, idEnd);
  const givenHeading = key.slice(idEnd + 1, headingEnd);
  const text = key.slice(headingEnd + 1);
  let heading = givenHeading === "\u0001" ? null : givenHeading;
  const out: Omit<Sentence, "index">[] = [];
  let follows = false;
  const blocks = plainText(text).split(/\n\s*\n|\n(?=\s*(?:#|[-*+] |\d+[.)] ))/);
  for (const block of blocks) {
    // Blocks are split before heading lines, so a heading opens its block; its text may follow
    // on the next lines (PDF and office extraction write it that way).
    const h = /^\s*#{1,6}\s+(.+)$/.exec(block.trimStart().split("\n")[0] ?? "");
    if (h?.[1]) {
      heading = h[1].trim();
      follows = false;
      if (block.trim().split("\n").length === 1) continue;
    }
    const body = block
      .replace(/^\s*#{1,6}\s+.*$/gm, " ")
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, "")
      .replace(/\s*\n\s*/g, " ");
    if (isBackMatter(heading)) continue;
    for (const raw of splitSentences(body)) {
      const text = raw.trim();
      if (!isProse(text)) {
        follows = false;
        continue;
      }
      out.push({ text, passageId: id, heading, stems: contentStems(text), follows });
      follows = true;
    }
  }
  return out;
}, 5_000);

export const titleCase = (s: string) =>
  s
    .split(/\s+/)
    .map((w, i) => (i > 0 && isStopword(w) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// A quiz looks for one phrase in sentence after sentence: its pattern is compiled once.
const phrasePattern = remembered(
  (phrase) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, "iu"),
  10_000,
);

/** Case-insensitive whole-phrase match. */
export const containsPhrase = (text: string, phrase: string): boolean => phrasePattern(phrase).test(text);

/** Deterministic 32-bit hash (FNV-1a) for seeded choices: same input, same output. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
