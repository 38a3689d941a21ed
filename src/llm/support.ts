/**
 * Lexical support: the share of a paragraph's content words (stemmed, stopwords aside) that a
 * passage holds. Cheap and engine-agnostic: it cannot tell a paraphrase from a contradiction, but a
 * paragraph that shares few words with what it cites is not drawn from it.
 */
import { contentStems } from "./extractive/text.ts";

/** Least share of a model's paragraph found in the passages it cites before it is re-asked, then dropped. */
export const MODEL_SUPPORT = 0.5;

/** A paragraph without list markers and emphasis marks. */
export const plainOf = (paragraph: string) => paragraph.replace(/^\s*([-*+]|\d+\.)\s+/gm, "").replace(/[*_`]/g, "");

export const stemSet = (text: string) => new Set(contentStems(text));

export function lexicalSupport(paragraph: string, passageStems: Set<string>): number {
  const stems = contentStems(plainOf(paragraph));
  return stems.length === 0 ? 0 : stems.filter((s) => passageStems.has(s)).length / stems.length;
}
