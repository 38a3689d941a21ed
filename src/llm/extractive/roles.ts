/**
 * What a term does, as the text states it with the term as subject: "Authorization boundaries
 * determine the scope of authorizations …", "The rm function removes objects …". A question asks
 * "what does X determine?"; the answer is the object the text gives, the wrong choices other terms'
 * objects from the course. Auxiliaries and copulas are not such verbs (definitions.ts reads those),
 * nor the causal links facts.ts reads.
 */
import nlp from "compromise";
import { containsPhrase, escapeRegExp, pointsElsewhere, type Sentence, wordCount } from "./text.ts";

export interface RoleFact {
  sentence: Sentence;
  /** The term as the sentence opens with it, article included ("the rm function"). */
  subject: string;
  term: string;
  /** The verb's base form, for the question ("determine"). */
  verb: string;
  /** The modal the text puts before it ("can"), if any. */
  modal: string;
  /** Whether the verb agrees with a plural subject ("determine", not "determines"). */
  plural: boolean;
  /** What the term does it to ("the scope of authorizations for …"). */
  object: string;
}

const NOT_A_ROLE =
  /^(is|are|was|were|be|been|has|have|had|can|could|may|might|must|shall|should|will|would|does|do|did|leads|lead|results|result|causes|cause|allows|allow|enables|enable|also|not|then|only|often|usually|always|never)$/i;
const MIN_WORDS = 8;
const MAX_WORDS = 30;

/** A regular-expression source for `term` opening a sentence: its first letter in either case, the rest as written. */
export function openingTerm(term: string): string {
  const first = term.charAt(0);
  return `(?:(?:[Aa]n?|[Tt]he|[Ee]ach|[Ee]very|[Tt]his|[Tt]hese|[Ss]uch)\\s+)?[${escapeRegExp(first.toUpperCase() + first.toLowerCase())}]${escapeRegExp(term.slice(1))}`;
}

export function roleFacts(sentences: Sentence[], terms: string[]): RoleFact[] {
  const out: RoleFact[] = [];
  const seen = new Set<string>();
  for (const s of sentences) {
    const n = wordCount(s.text);
    if (n < MIN_WORDS || n > MAX_WORDS || /[;:()]/.test(s.text) || pointsElsewhere(s.text)) continue;
    for (const term of terms) {
      if (seen.has(term.toLowerCase())) continue;
      const m = new RegExp(
        `^(${openingTerm(term)})\\s+(?:(can|may|must|should|will)\\s+)?(\\p{Ll}+)\\s+(.{12,}?)[.!]$`,
        "u",
      ).exec(s.text);
      if (!m || NOT_A_ROLE.test(m[3]!) || containsPhrase(m[4]!, term)) continue;
      const modal = m[2] ?? "";
      const verb = nlp(`${m[1]} ${modal} ${m[3]}`).verbs();
      if (!verb.found || (!modal && !verb.has("#PresentTense"))) continue;
      const base = modal ? m[3]! : ((verb.toInfinitive().text() as string).trim().split(/\s+/).at(-1) ?? "");
      if (!/^\p{Ll}+$/u.test(base) || (modal && !verb.has("#Infinitive"))) continue;
      seen.add(term.toLowerCase());
      out.push({
        sentence: s,
        subject: m[1]!,
        term,
        verb: base,
        modal,
        plural: !modal && m[3] === base,
        object: m[4]!,
      });
      break;
    }
  }
  return out;
}
