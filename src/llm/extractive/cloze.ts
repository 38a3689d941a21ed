/**
 * Cloze multiple-choice questions: a source sentence with one key phrase blanked out; the
 * distractors are other key phrases of the material, so every choice is plausible vocabulary.
 */
import type { McqQuestion } from "../schemas.ts";
import { overlaps, type KeyPhrase } from "./keyphrases.ts";
import { containsPhrase, escapeRegExp, hash, type Sentence } from "./text.ts";

export const BLANK = "_____";
const CHOICES = 4;

export interface Cloze {
  question: McqQuestion;
  sentence: Sentence;
  phrase: string;
}

/** The exact span of `phrase` as written in `text` (case may differ from the phrase list). */
function spanOf(text: string, phrase: string): string | null {
  const m = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, "iu").exec(text);
  return m ? m[0] : null;
}

function distractors(answer: string, sentence: string, phrases: KeyPhrase[], seed: number): string[] {
  const pool = phrases
    .map((p) => p.phrase)
    .filter((p) => !overlaps(p, answer) && !containsPhrase(sentence, p));
  // Prefer phrases of similar length so the answer does not stand out; rotate by seed for variety.
  const words = answer.split(/\s+/).length;
  const scored = pool
    .map((p, i) => ({ p, d: Math.abs(p.split(/\s+/).length - words) * 10 + ((i + seed) % pool.length) / pool.length }))
    .sort((a, b) => a.d - b.d);
  const out: string[] = [];
  for (const { p } of scored) {
    if (out.length >= CHOICES - 1) break;
    if (!out.some((o) => overlaps(o, p))) out.push(p);
  }
  return out;
}

export function clozeFor(sentence: Sentence, phrase: string, phrases: KeyPhrase[]): Cloze | null {
  const answer = spanOf(sentence.text, phrase);
  if (!answer) return null;
  const seed = hash(sentence.text);
  const wrong = distractors(answer, sentence.text, phrases, seed);
  if (wrong.length < 2) return null;
  const at = seed % (wrong.length + 1);
  const choices = [...wrong.slice(0, at), answer, ...wrong.slice(at)];
  const blanked = sentence.text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(answer)}(?![\\p{L}\\p{N}])`, "u"), BLANK);
  return {
    phrase: answer,
    sentence,
    question: {
      type: "mcq",
      prompt: `Fill in the blank: ${blanked}`,
      choices,
      answer: at,
      explanation: `The source says: "${sentence.text}"`,
    },
  };
}

/**
 * Up to `count` cloze questions from the best sentences, each on a different key phrase and
 * sentence. `sentences` should come ranked (best first).
 */
export function clozeQuestions(sentences: Sentence[], phrases: KeyPhrase[], count: number, avoid = new Set<string>()): Cloze[] {
  const out: Cloze[] = [];
  const usedPhrases = new Set<string>();
  const usedSentences = new Set<number>();
  for (const p of phrases) {
    if (out.length >= count) break;
    if (usedPhrases.has(p.key)) continue;
    for (const s of sentences) {
      if (usedSentences.has(s.index) || !containsPhrase(s.text, p.phrase)) continue;
      const c = clozeFor(s, p.phrase, phrases);
      if (!c || avoid.has(c.question.prompt)) continue;
      out.push(c);
      usedPhrases.add(p.key);
      usedSentences.add(s.index);
      break;
    }
  }
  return out;
}
