/**
 * What a term does, as the text states it with the term as subject: "Authorization boundaries
 * determine the scope of authorizations …", "The rm function removes objects …". A question asks
 * "what does X determine?"; the answer is the object the text gives, the wrong choices other terms'
 * objects from the course. Auxiliaries and copulas are not such verbs (definitions.ts reads those),
 * nor the causal links facts.ts reads.
 */
import { nlp } from "../compromise.ts";
import { remembered } from "./remembered.ts";
import { taggedSentences } from "./tagging.ts";
import { containsPhrase, escapeRegExp, isStopword, pointsElsewhere, type Sentence, wordCount } from "./text.ts";

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
const MAX_WORDS = 40;

/** A regular-expression source for `term` opening a sentence: its first letter in either case, the rest as written. */
export function openingTerm(term: string): string {
  const first = term.charAt(0);
  return `(?:(?:[Aa]n?|[Tt]he|[Ee]ach|[Ee]very|[Tt]his|[Tt]hese|[Ss]uch)\\s+)?[${escapeRegExp(first.toUpperCase() + first.toLowerCase())}]${escapeRegExp(term.slice(1))}`;
}

/**
 * The infinitive of the word at `at` of a sentence's opening (key: "at\0modal\0words") when the
 * tagger reads it as the opening's verb (in the present, or after a modal), or null. Kept by its
 * opening: a chapter's sentences are read again in its sources' material, each with every term.
 */
const verbAt = remembered((key: string): string | null => {
  const [atText, modal] = key.split("\u0000", 2) as [string, string];
  const at = Number(atText);
  const phrase = key.slice(atText.length + modal.length + 2);
  // The tags alone (tagging.ts, no phrase chunks) tell most openings apart; only a verb in the present is conjugated back.
  const word = taggedSentences(phrase).flatMap((x) => x.terms)[at];
  const tags = word?.tags ?? [];
  if (!tags.includes("Verb")) return null;
  // After a modal the verb is in its infinitive already.
  if (modal === "1") return tags.includes("Infinitive") ? word!.text : null;
  if (!tags.includes("PresentTense")) return null;
  const doc = nlp(phrase);
  doc.verbs().toInfinitive();
  return (doc.json() as { terms: { text: string }[] }[]).flatMap((x) => x.terms)[at]?.text ?? "";
}, 20_000);

/** A sentence opening with `subject`, its verb (after a modal) and its object; built once per subject, tried on every sentence. */
const roleSentence = remembered(
  (subject: string) =>
    new RegExp(`^(${subject})\\s+(?:(can|may|must|should|will)\\s+)?(\\p{Ll}+)\\s+(.{12,}?)[.!]$`, "u"),
  10_000,
);

/**
 * The fact a sentence opening with `subject` (a regular-expression source) states, if its next words
 * are a verb and its object, and its term is one `accept` takes (checked before the costly tagger).
 */
function roleIn(
  s: Sentence,
  subject: string,
  term: (opening: string) => string,
  accept: (term: string) => boolean = () => true,
): RoleFact | null {
  const m = roleSentence(subject).exec(s.text);
  if (!m || NOT_A_ROLE.test(m[3]!)) return null;
  const t = term(m[1]!);
  if (!accept(t) || containsPhrase(m[4]!, t)) return null;
  const modal = m[2] ?? "";
  // The word after the subject must be its verb as the tagger reads it with a few words of context
  // ("The algorithm calls the function …": "calls" is a verb here, not a plural).
  const opening = [m[1]!, modal, m[3]!].filter(Boolean).join(" ");
  const at = opening.split(/\s+/).length - 1;
  const infinitive = verbAt(`${at}\u0000${modal ? 1 : 0}\u0000${opening} ${m[4]!.split(/\s+/).slice(0, 4).join(" ")}`);
  if (infinitive === null) return null;
  const base = modal ? m[3]! : infinitive.toLowerCase();
  if (!/^\p{Ll}+$/u.test(base)) return null;
  return { sentence: s, subject: m[1]!, term: t, verb: base, modal, plural: !modal && m[3] === base, object: m[4]! };
}

// A common noun phrase of one to three words opening a sentence ("The algorithm", "Dynamic programming").
const COMMON_SUBJECT = "(?:[Aa]n?\\s+|[Tt]he\\s+)?\\p{L}[\\p{Ll}-]*(?:\\s+\\p{Ll}[\\p{Ll}-]*){0,2}?";

/**
 * What terms do: sentences opening with one of `terms`, or with a common noun phrase the text uses
 * at least twice elsewhere, followed by a verb in the present (or a modal and its verb).
 */
export function roleFacts(sentences: Sentence[], terms: string[]): RoleFact[] {
  const out: RoleFact[] = [];
  const seen = new Set<string>();
  const text = sentences.map((s) => s.text.toLowerCase()).join(" ");
  // Sentences open with the same few phrases ("The algorithm"): each is counted in the text once.
  const usedAgain = remembered(
    (phrase: string) =>
      (text.match(new RegExp(`(?<![\\p{L}])${escapeRegExp(phrase.toLowerCase())}(?![\\p{L}])`, "gu"))?.length ?? 0) >=
      3,
    10_000,
  );
  const bare = (opening: string) => opening.replace(/^(a|an|the)\s+/i, "");
  for (const s of sentences) {
    const n = wordCount(s.text);
    if (n < MIN_WORDS || n > MAX_WORDS || /[;:]/.test(s.text) || pointsElsewhere(s.text)) continue;
    let fact: RoleFact | null = null;
    for (const term of terms) {
      if (seen.has(term.toLowerCase())) continue;
      fact = roleIn(s, openingTerm(term), () => term);
      if (fact) break;
    }
    if (!fact) {
      const recurring = (term: string) => {
        const words = term.split(/\s+/);
        return (
          !seen.has(term.toLowerCase()) && !isStopword(words.at(-1)!) && !words.every(isStopword) && usedAgain(term)
        );
      };
      fact = roleIn(s, COMMON_SUBJECT, bare, recurring);
    }
    if (!fact) continue;
    seen.add(fact.term.toLowerCase());
    out.push(fact);
  }
  return out;
}
