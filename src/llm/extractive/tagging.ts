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
export const taggedSentences = (text: string): { terms: TaggedTerm[] }[] =>
  sentences.get(text, () =>
    tagWords(text).docs.map((terms) => ({
      terms: terms.map(({ text, pre, post, tags }) => ({ text, pre, post, tags: [...(tags ?? [])] })),
    })),
  );

/** Whether a sentence of `text` opens on a word tagged `tag` (compromise's `has("^#Tag")`), read off the kept tags. */
export const opensWithTag = (text: string, tag: string): boolean =>
  taggedSentences(text).some((s) => s.terms[0]?.tags.includes(tag) ?? false);

/** Whether a word of `text` is tagged `tag` (compromise's `has("#Tag")`), read off the kept tags. */
export const hasTag = (text: string, tag: string): boolean =>
  taggedSentences(text).some((s) => s.terms.some((t) => t.tags.includes(tag)));

/** `text` as a compromise document, for its own queries (names, verbs, plurals). Read it; never change it. */
export const taggedDoc = (text: string): TaggedDoc => docs.get(text, () => nlp(text));
