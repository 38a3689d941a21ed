/** Definition sentences ("X is a …", "X refers to …") for flashcards and study-guide terms. */
import { isStopword, wordCount, type Sentence } from "./text.ts";

export interface Definition {
  term: string;
  definition: string;
  sentence: Sentence;
}

const COPULA = /^(?:(?:An?|The)\s+)?(.{2,60}?)\s+(?:is|are|refers to|refer to|means|is defined as|are defined as|is called|denotes|describes)\s+(.{12,})$/;
const NOT_A_TERM = /^(it|this|that|these|those|there|here|he|she|they|we|i|you|which|what|who|one|each|all|some|such|its|their|our|his|her|also|then|now|so|but|and|if|when|while|for|in|on|at|by|with|from|to|of|as|because|although|since)\b/i;
// The document pointing at itself ("Section 3 is …", "Figure 2 shows …", "This paper …") defines nothing.
const SELF_REFERENCE = /^(?:(?:this|the|our)\s+)?(section|chapter|figure|fig\.|table|appendix|paper|article|report|equation|listing|algorithm|slide|page|part)s?\b(?:\s+[\dIVXivx.]+\b)?/i;
// A relative clause or a verb inside the subject means the copula belongs to a longer sentence.
const CLAUSE = /\b(which|that|who|whom|where|when|whose|is|are|was|were|can|will|has|have)\b/i;

export function findDefinitions(sentences: Sentence[]): Definition[] {
  const seen = new Set<string>();
  const out: Definition[] = [];
  for (const s of sentences) {
    const m = COPULA.exec(s.text);
    if (!m?.[1] || !m[2]) continue;
    const term = m[1].replace(/^[^\p{L}\p{N}]+/u, "").trim();
    const n = wordCount(term);
    if (n === 0 || n > 5 || NOT_A_TERM.test(term) || SELF_REFERENCE.test(term) || CLAUSE.test(term) || term.split(/\s+/).every(isStopword) || /[,;:]/.test(term)) continue;
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ term, definition: s.text, sentence: s });
  }
  return out;
}
