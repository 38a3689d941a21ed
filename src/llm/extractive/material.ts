/** Finished chapters seen as source text, for the materials built from them. */
import type { ChapterSummary } from "../artefacts/common.ts";
import { keyPhrases, type KeyPhrase } from "./keyphrases.ts";
import { rankSentences } from "./rank.ts";
import { containsPhrase, sentencesOf, type Sentence } from "./text.ts";

export interface ChapterMaterial {
  chapter: ChapterSummary;
  /** Sentences in reading order. */
  sentences: Sentence[];
  /** Most central first. */
  ranked: Sentence[];
  /** The chapter's key concepts first, then extracted phrases. */
  phrases: KeyPhrase[];
}

export function chapterMaterial(chapter: ChapterSummary, index: number): ChapterMaterial {
  const sentences = sentencesOf([{ id: `chapter-${index + 1}`, text: chapter.content, heading: chapter.title }]);
  const extracted = keyPhrases(sentences.map((s) => s.text).join(" "), 20);
  const given: KeyPhrase[] = chapter.key_concepts.map((c) => ({ phrase: c, key: c.toLowerCase(), score: Infinity, count: 1 }));
  const phrases = [...given, ...extracted.filter((p) => !given.some((g) => g.key === p.phrase.toLowerCase()))];
  return { chapter, sentences, ranked: rankSentences(sentences, chapter.title), phrases };
}

/** The best sentence that mentions `phrase`, if any. */
export const sentenceAbout = (m: ChapterMaterial, phrase: string, exclude = new Set<number>()) =>
  m.ranked.find((s) => !exclude.has(s.index) && containsPhrase(s.text, phrase));
