/**
 * How the model simulator rewrites what it cites, as real models do: restating a sentence with
 * WordNet synonyms and its clauses reordered, and inventing a sentence no passage holds. Shared by
 * the simulator (test/helpers/model-simulator.ts) and the grounding benchmark (bench/llm/grounding.ts).
 */
import { splitSentences } from "../../src/ingest/sentences.ts";
import { NEGATORS } from "../../src/llm/claim-support.ts";
import { zipf } from "../../src/llm/extractive/background.ts";
import { isStopword, words } from "../../src/llm/extractive/text.ts";
import { synonymsOf } from "../../src/llm/wordnet.ts";

// How a model frames a restatement; the sentence itself carries the claim.
const FRAMES = ["Put simply, ", "In other words, ", "", "Essentially, "];

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The clauses of `sentence` around its first comma swapped ("When X, Y." → "Y, when X."), when both have three words or more. */
function reorderClauses(sentence: string): string {
  const body = sentence.replace(/[.!?]+$/, "");
  const comma = body.indexOf(", ");
  if (comma < 0) return sentence;
  const [first, second] = [body.slice(0, comma), body.slice(comma + 2)];
  if (words(first).length < 3 || words(second).length < 3 || /[()[\]]/.test(body)) return sentence;
  return `${upperFirst(second)}, ${lowerFirst(first)}.`;
}

/** Every other replaceable word (lower case, not a stopword, four letters or more) swapped for a WordNet synonym. */
function withSynonyms(sentence: string): string {
  let n = 0;
  return sentence.replace(/\b[a-z]{4,}\b/g, (w) => {
    if (isStopword(w)) return w;
    // A synonym that is a function word ("nothing" for "null") or a numeral ("iii") changes the claim.
    const options = synonymsOf(w).filter(
      (s) => /^[a-z]{3,}$/.test(s) && !isStopword(s) && !NEGATORS.has(s) && !/^[ivxlcdm]+$/.test(s),
    );
    if (options.length === 0 || n++ % 2 === 1) return w;
    return options[0]!;
  });
}

/** `sentence` restated: synonyms for half its words, its clauses reordered, framed as a model frames it. */
export function paraphrase(sentence: string, seed = 0): string {
  const restated = reorderClauses(withSynonyms(sentence.trim()));
  const frame = FRAMES[seed % FRAMES.length]!;
  return frame ? `${frame}${lowerFirst(restated)}` : restated;
}

/** The two rarest words of `text` (by everyday frequency): what it is about. */
export function topicWords(text: string): string[] {
  const candidates = [...new Set(words(text).filter((w) => w.length > 3 && !isStopword(w) && !/\d/.test(w)))];
  return candidates.sort((a, b) => zipf(a) - zipf(b)).slice(0, 2);
}

/**
 * A sentence no passage holds, about the passage's subject: a sentence of `elsewhere` (an
 * unrelated text) whose first content words are replaced by the passage's topic words, as a model
 * grafts what it knows from elsewhere onto the subject at hand.
 */
export function invent(passage: string, elsewhere: string, seed = 0): string {
  const pool = splitSentences(elsewhere).filter((s) => words(s).length >= 8);
  const base = pool[seed % Math.max(1, pool.length)] ?? elsewhere;
  const topic = topicWords(passage);
  let i = 0;
  return base.replace(/\b[A-Za-z]{4,}\b/g, (w) => (i < topic.length && !isStopword(w) ? topic[i++]! : w));
}

/** The sentences of a passage, in order. */
export const sentencesOf = (text: string) => splitSentences(text.trim()).map((s) => s.trim());
