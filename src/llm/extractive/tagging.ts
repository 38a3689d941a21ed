/**
 * Part-of-speech tagging (compromise), once per text: a course's outline, its chapters, their key
 * concepts and the study guide read the same sentences, and tagging them again was most of a
 * course's CPU. The builders' thread keeps what it tagged for its latest builds (keepTags), up to a
 * bound on the text held, oldest first out; elsewhere (answers on the server's thread, which read a
 * question's few sentences) every call tags afresh.
 */
import { nlp, tagWords } from "../compromise.ts";

/** One tagged word of a sentence, as compromise's json() gives it. */
export interface TaggedTerm {
  text: string;
  pre: string;
  post: string;
  tags: string[];
}

export type TaggedDoc = ReturnType<typeof nlp>;

/** Text keyed entries, least recently used first, holding at most `maxChars` of text. */
class TextCache<T> {
  private entries = new Map<string, T>();
  private chars = 0;
  maxChars = 0;

  has(text: string): boolean {
    return this.entries.has(text);
  }

  get(text: string, make: () => T): T {
    const hit = this.entries.get(text);
    if (hit !== undefined) {
      this.entries.delete(text);
      this.entries.set(text, hit);
      return hit;
    }
    const value = make();
    if (text.length > this.maxChars) return value;
    this.entries.set(text, value);
    this.chars += text.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    return value;
  }
}

const sentences = new TextCache<{ terms: TaggedTerm[] }[]>();
const docs = new TextCache<TaggedDoc>();

/**
 * Keeps tagged text for reuse, up to `maxChars` characters of it. Tagged words (the builders' main
 * use) cost about 40 bytes a character; compromise's documents, kept for its name and verb
 * queries on short phrases, several times that, so they get a tenth of the bound.
 */
export function keepTags(maxChars: number): void {
  sentences.maxChars = maxChars;
  docs.maxChars = Math.floor(maxChars / 10);
}

/**
 * The sentences of `text`, each with its tagged words, read off the document's own terms: json()
 * first builds a record of every word with fields no builder reads, then thrown away.
 */
export const taggedSentences = (text: string): { terms: TaggedTerm[] }[] => sentences.get(text, () => tagAlone(text));

type Sentences = { terms: TaggedTerm[] }[];

const plain = (docs: { text: string; pre: string; post: string; tags?: Set<string> }[][]): Sentences =>
  docs.map((terms) => ({
    terms: terms.map(({ text, pre, post, tags }) => ({ text, pre, post, tags: [...(tags ?? [])] })),
  }));

const tagAlone = (text: string): Sentences => plain(tagWords(text).docs);

/**
 * The tagged sentences of each of `texts`, those not kept yet tagged in one pass of the tagger, one
 * text a line: a call per sentence cost the tagger's fixed work each time, and a sentence tags the
 * same on its own line as alone (compromise tags within a sentence; a line always ends one). A line
 * whose sentence runs on into the next, or a text a line cannot hold, is tagged alone.
 */
export function taggedTexts(texts: string[]): Sentences[] {
  const batched = [...new Set(texts)].filter((t) => !sentences.has(t) && /^\S[^\n]*$/.test(t));
  const fresh = batched.length > 1 ? tagLines(batched) : new Map<string, Sentences>();
  return texts.map((t) => sentences.get(t, () => fresh.get(t) ?? tagAlone(t)));
}

const spanOf = (terms: TaggedTerm[]) => terms.reduce((n, t) => n + t.pre.length + t.text.length + t.post.length, 0);

/**
 * Each line's sentences, from one tagging of them all (its sentences' words cover the text they
 * were read from, character for character); a line a sentence crosses into or out of is left out.
 */
function tagLines(lines: string[]): Map<string, Sentences> {
  const docs = plain(tagWords(lines.join("\n")).docs);
  // Measured before any line's break is taken off its last word.
  const spans = docs.map((doc) => spanOf(doc.terms));
  const out = new Map<string, Sentences>();
  let d = 0;
  let from = 0;
  let start = 0;
  for (const line of lines) {
    const end = start + line.length;
    while (d < docs.length && from < start) from += spans[d++]!;
    const own: Sentences = [];
    let to = from;
    for (let k = d; from === start && k < docs.length && to < end; k++) {
      own.push(docs[k]!);
      to += spans[k]!;
    }
    if (from === start && own.length > 0 && (to === end || to === end + 1)) out.set(line, withoutBreak(own, to > end));
    start = end + 1;
  }
  return out;
}

/** The sentences of a line as tagged alone: the line's break, read as part of its last word or after it, taken off. */
function withoutBreak(own: Sentences, broken: boolean): Sentences {
  if (!broken) return own;
  const last = own.at(-1)!.terms.at(-1)!;
  if (last.post.endsWith("\n")) last.post = last.post.slice(0, -1);
  else if (last.text.endsWith("\n")) last.text = last.text.slice(0, -1);
  return own;
}

/** Whether a sentence of `text` opens on a word tagged `tag` (compromise's `has("^#Tag")`), read off the kept tags. */
export const opensWithTag = (text: string, tag: string): boolean =>
  taggedSentences(text).some((s) => s.terms[0]?.tags.includes(tag) ?? false);

/** Whether a word of `text` is tagged `tag` (compromise's `has("#Tag")`), read off the kept tags. */
export const hasTag = (text: string, tag: string): boolean =>
  taggedSentences(text).some((s) => s.terms.some((t) => t.tags.includes(tag)));

/** `text` as a compromise document, for its own queries (names, verbs, plurals). Read it; never change it. */
export const taggedDoc = (text: string): TaggedDoc => docs.get(text, () => nlp(text));
