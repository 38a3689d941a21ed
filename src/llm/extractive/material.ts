/** Finished chapters seen as source text, for the quizzes, exams, cards and guides built from them. */
import type { ChapterSummary } from "../artefacts/chapter-summary.ts";
import { type Definition, findDefinitions } from "./definitions.ts";
import { type CauseFact, causeFacts, type NumberFact, numberFacts } from "./facts.ts";
import { tellsOfOneInstance } from "./instances.ts";
import { type KeyPhrase, keyPhrases } from "./keyphrases.ts";
import { rankSentences } from "./rank.ts";
import { type RoleFact, roleFacts } from "./roles.ts";
import { containsPhrase, hash, type Sentence, sentencesOf } from "./text.ts";

export interface ChapterMaterial {
  chapter: ChapterSummary;
  index: number;
  /** Sentences in reading order. */
  sentences: Sentence[];
  /** Most central first. */
  ranked: Sentence[];
  /** The chapter's key concepts first, then the domain terms of its text. */
  phrases: KeyPhrase[];
  definitions: Definition[];
  figures: NumberFact[];
  causes: CauseFact[];
  /** What the chapter's terms do, as sentences with the term as subject state it. */
  roles: RoleFact[];
  /** Where a sentence comes from, as a learner would look it up ("tracemonkey.pdf, p. 3"). */
  cite(s: Sentence): string;
  /** Whether a sentence is written word for word in the chapter's sources (true when none are known). */
  quotable(s: Sentence): boolean;
}

const normal = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

function locator(chapter: ChapterSummary, index: number): Pick<ChapterMaterial, "cite" | "quotable"> {
  const sources = (chapter.sources ?? []).map((src) => ({ ...src, normal: normal(src.text) }));
  // A quiz asks whether a sentence is quotable, then cites it: each is looked up in the sources once.
  const found = new Map<Sentence, (typeof sources)[number] | undefined>();
  const find = (s: Sentence) => {
    if (!found.has(s))
      found.set(
        s,
        sources.find((x) => x.normal.includes(normal(s.text))),
      );
    return found.get(s);
  };
  const quotable = (s: Sentence) => sources.length === 0 || find(s) !== undefined;
  const cite = (s: Sentence) => {
    const src = find(s);
    if (src?.filename && src.page) return `${src.filename}, p. ${src.page}`;
    if (src?.filename) return s.heading ? `${src.filename}, section ${s.heading}` : src.filename;
    return `Chapter ${index + 1}: ${chapter.title}`;
  };
  return { cite, quotable };
}

/**
 * The chapter's definitions, less those telling of one instance ("The return value is …" right after
 * the code whose value it is: instances.ts); read again without those sentences, so the term's own
 * definition later in the chapter is found.
 */
function generalDefinitions(sentences: Sentence[], text: string) {
  const found = findDefinitions(sentences, text);
  const instances = new Set(found.filter((d) => tellsOfOneInstance(d, text)).map((d) => d.sentence.index));
  return instances.size === 0
    ? found
    : findDefinitions(
        sentences.filter((s) => !instances.has(s.index)),
        text,
      );
}

type Reading = Omit<ChapterMaterial, "chapter" | "index" | "cite" | "quotable">;

// Tagging a chapter takes a few hundred milliseconds, and a chapter is read again by its quiz, the
// study guide and each exam batch, at other positions and with its sources: what is read from its
// text is kept by that text, and only the locator is made per call.
const cache = new Map<number, Reading>();
const CACHED = 64;

/** What is read from a chapter's text; its sentences' passage is named by `id`, which tells chapters apart. */
function reading(chapter: ChapterSummary, id: string): Reading {
  const sentences = sentencesOf([{ id, text: chapter.content, heading: chapter.title }]);
  const extracted = keyPhrases(sentences.map((s) => s.text).join(" "), 20);
  const given: KeyPhrase[] = chapter.key_concepts.map((c) => ({
    phrase: c,
    key: c.toLowerCase(),
    score: Infinity,
    count: 1,
  }));
  const phrases = [...given, ...extracted.filter((p) => !given.some((g) => g.key === p.phrase.toLowerCase()))];
  return {
    sentences,
    ranked: rankSentences(sentences, chapter.title),
    phrases,
    definitions: generalDefinitions(sentences, chapter.content),
    figures: numberFacts(sentences),
    causes: causeFacts(sentences),
    roles: roleFacts(
      sentences,
      phrases.map((p) => p.phrase),
    ),
  };
}

export function chapterMaterial(chapter: ChapterSummary, index: number): ChapterMaterial {
  const key = hash(`${chapter.title}\u0000${chapter.content}\u0000${chapter.key_concepts.join("\u0000")}`);
  let read = cache.get(key);
  if (!read) {
    read = reading(chapter, `chapter-${key.toString(36)}`);
    if (cache.size >= CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, read);
  }
  return { ...read, chapter, index, ...locator(chapter, index) };
}

/**
 * The passages a chapter was condensed from, read as material of their own: an exam, a deck or a
 * guide may ask about what the chapter's sections state beyond the sentences the chapter kept.
 */
function sourceMaterial(chapter: ChapterSummary, index: number): ChapterMaterial | null {
  const sources = chapter.sources ?? [];
  if (sources.length === 0) return null;
  return chapterMaterial(
    { ...chapter, content: sources.map((s) => closeOpenFence(s.text)).join("\n\n"), quiz: [] },
    index,
  );
}

/**
 * `text` with a code fence it leaves open closed at its end, as markdown reads an unclosed block (it
 * runs to the end). A passage cut inside a code block would otherwise pair its fence with the next
 * passage's, and the prose between them was read as code (half of a book chapter's sentences).
 */
function closeOpenFence(text: string): string {
  let open: string | null = null;
  for (const line of text.split("\n")) {
    const fence = /^\s*(`{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (open === null) open = fence;
    else if (fence.length >= open.length && line.trim() === fence) open = null;
  }
  return open === null ? text : `${text}\n${open}`;
}

/** The chapter's own material, then that of its sources. */
export const materialsOf = (chapter: ChapterSummary, index: number): ChapterMaterial[] =>
  [chapterMaterial(chapter, index), sourceMaterial(chapter, index)].filter((m): m is ChapterMaterial => m !== null);

/** The best sentence that mentions `phrase`, if any. */
export const sentenceAbout = (m: ChapterMaterial, phrase: string, exclude = new Set<number>()) =>
  m.ranked.find((s) => !exclude.has(s.index) && containsPhrase(s.text, phrase));
