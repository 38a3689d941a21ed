/**
 * Reference entries: a manual's section on one element, option, variable or header field whose
 * body opens with a description of the heading's term and no subject of its own, a noun phrase
 * ("The version number of the current instance of Bash.") or a verb phrase ("Expands to a string
 * describing …"). Read alone it says nothing of what it describes, so it is paired with its
 * heading as an entry ("BASH_VERSION — The version number …"), as a definition list reads: the
 * term is what a card or a question names, the description what it says of it.
 */
import { phraseForm } from "./phrase-forms.ts";

const ENTRY = /^[^—]{1,60}\s—\s/;

/**
 * Whether a sentence describes something it never names: it says what something does with no
 * subject before its verb ("Specifies the …", "Expands to …"), or it is a noun phrase whose verbs
 * all belong to clauses inside it ("A colon-separated list of directories in which the shell looks
 * …"), as phrase-forms.ts reads them.
 */
export function subjectless(sentence: string): boolean {
  // An entry already ("BASH_VERSION — The version …") names what it describes; two words describe nothing.
  if (ENTRY.test(sentence) || sentence.trim().split(/\s+/).length < 3) return false;
  // A description is a sentence of its own: one opening in lower case is the tail of another, cut at a
  // page or column break ("tiple datasets, TREC, …, benefits greatly …" after "mul-").
  if (!/^["“(]?[\p{Lu}\p{N}]/u.test(sentence.trim())) return false;
  return phraseForm(sentence) !== "clause";
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
