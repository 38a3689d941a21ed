/**
 * Which paragraphs of a chapter each passage grounds, decided the same way for both engines: a
 * paragraph is grounded by a passage that holds one of its sentences word for word, or else by the
 * passage most of its sentences are supported by under the grounding check every model path uses
 * (src/llm/claim-support.ts: paraphrase kept, invention and contradiction refused). Paragraphs
 * are the content's blank-line separated blocks, headings included in the count (so index n is the
 * n-th block a reader sees), though a heading is never grounded.
 */
import { splitSentences } from "../ingest/sentences.ts";
import { claimSupport, claimsOf, type PreparedPassages, plainOf, preparePassages } from "../llm/claim-support.ts";

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

/** Whether the passage holds one of the paragraph's sentences (five words or more) word for word. */
const quotes = (normalized: string, sentences: string[]) =>
  sentences.some((n) => n.split(" ").length >= 5 && normalized.includes(n));

/** For each passage (by id), the indexes of the content paragraphs it grounds. */
export function groundParagraphs(content: string, passages: { id: string; text: string }[]): Map<string, number[]> {
  const normalized = passages.map((p) => norm(p.text));
  // Prepared on the first paragraph no passage quotes: an extractive chapter's paragraphs mostly are quoted.
  let prepared: PreparedPassages | null = null;
  const support = () => (prepared ??= preparePassages(passages.map((p) => p.text)));
  const out = new Map<string, number[]>(passages.map((p) => [p.id, []]));
  paragraphsOf(content).forEach((para, i) => {
    if (isHeading(para)) return;
    const sentences = splitSentences(plainOf(para)).map(norm);
    const quoting = passages.filter((_, k) => quotes(normalized[k]!, sentences));
    const grounding = quoting.length > 0 ? quoting : bySupport(para, support(), passages);
    for (const p of grounding) out.get(p.id)!.push(i);
  });
  return out;
}

/** The passage supporting most of the paragraph's sentences, when it supports at least half of them. */
function bySupport<P>(para: string, prepared: PreparedPassages, passages: P[]): P[] {
  const claims = claimsOf(para);
  const counts = new Map<number, number>();
  for (const c of claims) {
    const v = claimSupport(c, prepared);
    if (v.supported) counts.set(v.source, (counts.get(v.source) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return best && best[1] * 2 >= claims.length ? [passages[best[0]]!] : [];
}
