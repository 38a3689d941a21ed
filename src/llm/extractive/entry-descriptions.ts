/**
 * Reference entries: a manual's section on one element, option, variable or header field whose
 * body opens with a description of the heading's term and no subject of its own, a noun phrase
 * ("The version number of the current instance of Bash.") or a verb phrase ("Expands to a string
 * describing …"). Read alone it says nothing of what it describes, so it is paired with its
 * heading as an entry ("BASH_VERSION — The version number …"), as a definition list reads: the
 * term is what a card or a question names, the description what it says of it.
 */
import { type TaggedTerm, taggedSentences } from "./tagging.ts";

const ENTRY = /^[^—]{1,60}\s—\s/;
// A clause's own verb: a tense, a copula, a modal or an auxiliary, not a gerund or a participle ("describing").
const FINITE = ["Copula", "Modal", "PastTense", "PresentTense"];
const NON_FINITE = ["Gerund", "Participle"];
const finiteVerb = (t: TaggedTerm, before: TaggedTerm | undefined) =>
  t.tags.includes("Auxiliary") ||
  t.tags.includes("Modal") ||
  t.tags.includes("Copula") ||
  (t.tags.includes("Verb") &&
    FINITE.some((x) => t.tags.includes(x)) &&
    !NON_FINITE.some((x) => t.tags.includes(x)) &&
    !/^to$/i.test(before?.text ?? ""));
// A word opening a clause inside the sentence, which takes a verb of its own ("in which the shell looks …").
const CLAUSE_START =
  /^(?:that|which|who|whom|whose|where|when|while|since|because|if|unless|although|though|whether)$/i;

/**
 * Whether a sentence describes something it never names: it opens on a verb in the third person
 * with no subject before it ("Specifies the …", "Expands to …"), or it opens on a noun phrase and
 * has no verb beyond those of the clauses inside it ("The version number of …", "A colon-separated
 * list of directories in which the shell looks …": one clause, one verb).
 */
export function subjectless(sentence: string): boolean {
  // An entry already ("BASH_VERSION — The version …") names what it describes.
  if (ENTRY.test(sentence)) return false;
  const terms = taggedSentences(sentence)[0]?.terms ?? [];
  if (terms.length < 3) return false;
  const first = terms[0]!;
  // "Specifies …", "Returns T if …": a verb in the third person with nothing before it.
  const opensOnVerb =
    finiteVerb(first, undefined) &&
    !first.tags.includes("Infinitive") &&
    !first.tags.includes("Copula") &&
    /^\p{Lu}\p{Ll}+s$/u.test(first.text);
  if (
    !opensOnVerb &&
    (!["Determiner", "Adjective", "Noun"].some((t) => first.tags.includes(t)) || first.tags.includes("Pronoun"))
  )
    return false;
  // A verb group ("was started", "has to be written") is one verb.
  const inGroup = (t: TaggedTerm | undefined) =>
    t !== undefined && ["Verb", "Auxiliary", "Copula", "Modal", "Negative"].some((x) => t.tags.includes(x));
  // A participle between a determiner and its noun is an adjective ("every stored height").
  const modifier = (i: number) =>
    (terms[i]!.tags.includes("PastTense") || terms[i]!.tags.includes("Participle")) &&
    ["Determiner", "Adjective"].some((x) => terms[i - 1]?.tags.includes(x)) &&
    !CLAUSE_START.test(terms[i - 1]?.text ?? "") &&
    terms[i + 1]?.tags.includes("Noun") === true &&
    !terms[i + 1]!.tags.includes("Pronoun");
  const verbs = terms.filter((t, i) => finiteVerb(t, terms[i - 1]) && !inGroup(terms[i - 1]) && !modifier(i)).length;
  // A relative clause may open without its pronoun, on its own subject right after a noun ("the
  // readings the logger averages"); an appositive after a comma ("dh_make, a program that …") is
  // none, nor a relative word counted already.
  const reduced = (t: TaggedTerm, i: number) =>
    i > 0 &&
    !CLAUSE_START.test(t.text) &&
    (t.tags.includes("Determiner") || t.tags.includes("Pronoun")) &&
    terms[i - 1]!.tags.includes("Noun") &&
    !/[,;:(]/.test(terms[i - 1]!.post);
  // "that" or "which" before a noun is its determiner ("that option"), not a clause.
  const opens = (t: TaggedTerm, i: number) =>
    CLAUSE_START.test(t.text) && !["Noun", "Adjective"].some((x) => terms[i + 1]?.tags.includes(x));
  const clauses = terms.filter((t, i) => opens(t, i) || reduced(t, i)).length;
  // Every verb belongs to a clause inside the sentence, besides the opening verb that has no subject;
  // a verb more is a main clause with a subject of its own ("Thanks to APT, the maintainer can …").
  return verbs <= clauses + (opensOnVerb ? 1 : 0);
}

// A numbered heading's number ("6.2.1.", "B.3", "IV."), then the term it names.
const NUMBER = /^(?:[\dA-Z]{1,3}(?:\.\d+)*\.?|[IVX]+\.)\s+/;

/**
 * The term a heading names, when it is an entry's name: a few words with no clause or list of
 * its own ("BASH_VERSION", "Active-Speaker-Set", "set-option"); null for a heading that reads as
 * a topic sentence.
 */
export function entryTerm(heading: string | null): string | null {
  if (!heading) return null;
  const term = heading.replace(NUMBER, "").trim();
  const words = term.split(/\s+/);
  return term.length > 0 && term.length <= 50 && words.length <= 4 && !/[:;,.!?—()]/.test(term.replace(/\.\w/g, ""))
    ? term
    : null;
}

/**
 * A section's first sentence as it should be read: a subjectless description paired with its
 * heading's term ("term — description"), null when the heading names no term to pair it with (a
 * description is never a statement on its own), and any other sentence as it is.
 */
export function withEntryTerm(sentence: string, heading: string | null): string | null {
  if (!subjectless(sentence)) return sentence;
  const term = entryTerm(heading);
  return term ? `${term} — ${sentence}` : null;
}
