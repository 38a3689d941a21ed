/**
 * Which paragraphs of a chapter each passage grounds, decided the same way for both engines: a
 * paragraph is grounded by a passage that holds one of its sentences word for word, or most of its
 * content words. Paragraphs are the content's blank-line separated blocks, headings included in
 * the count (so index n is the n-th block a reader sees), though a heading is never grounded.
 */
import { splitSentences } from "../ingest/sentences.ts";
import { lexicalSupport, plainOf, stemSet } from "../llm/support.ts";

/** Share of a paragraph's content words that a passage must hold to ground it without a verbatim sentence. */
const LEXICAL_SUPPORT = 0.6;

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
const isHeading = (block: string) => /^#{1,6}\s/.test(block);

/** The content's paragraphs (blank-line separated blocks), as the API numbers them. */
const paragraphsOf = (content: string): string[] =>
  content
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

interface Prepared {
  id: string;
  normalized: string;
  stems: Set<string>;
}

/** Whether the passage holds one of the paragraph's sentences (five words or more) word for word. */
const quotes = (p: Prepared, sentences: string[]) =>
  sentences.some((n) => n.split(" ").length >= 5 && p.normalized.includes(n));

/**
 * The passages grounding one paragraph: those quoting one of its sentences; failing that, the one
 * holding most of its content words, if it holds at least LEXICAL_SUPPORT of them.
 */
function grounding(prepared: Prepared[], paragraph: string): Prepared[] {
  const sentences = splitSentences(plainOf(paragraph)).map(norm);
  const quoting = prepared.filter((p) => quotes(p, sentences));
  if (quoting.length > 0) return quoting;
  let best: Prepared | null = null;
  let bestShare = LEXICAL_SUPPORT;
  for (const p of prepared) {
    const share = lexicalSupport(paragraph, p.stems);
    if (share >= bestShare) [best, bestShare] = [p, share];
  }
  return best ? [best] : [];
}

/** For each passage (by id), the indexes of the content paragraphs it grounds. */
export function groundParagraphs(content: string, passages: { id: string; text: string }[]): Map<string, number[]> {
  const prepared = passages.map((p) => ({ id: p.id, normalized: norm(p.text), stems: stemSet(p.text) }));
  const out = new Map<string, number[]>(passages.map((p) => [p.id, []]));
  paragraphsOf(content).forEach((para, i) => {
    if (isHeading(para)) return;
    for (const p of grounding(prepared, para)) out.get(p.id)!.push(i);
  });
  return out;
}
