/**
 * The form of a phrase or a sentence by its tags: a noun phrase whose verbs all belong to clauses
 * qualifying it ("A colon-separated list of directories in which the shell looks for commands",
 * "The number of readings the logger averages …"), a description of what something does with no
 * subject before its verb ("Rotates an imagedata image …", "Used to substitute …", "adding a user …"), or a clause
 * with a subject and a verb of its own ("The remote end hung up unexpectedly"). One reader for the
 * checks that store an item, the choices set beside an answer and the entries paired with their
 * heading's term, so they never disagree on what a description is.
 */
import { type TaggedTerm, taggedSentences } from "./tagging.ts";

export type PhraseForm = "noun phrase" | "does" | "clause";

// Words opening a clause inside a phrase, which takes a verb of its own ("in which the shell looks …").
const CLAUSE_START =
  /^(?:that|which|who|whom|whose|where|when|whereby|how|what|whether|why|while|since|because|if|unless|although|though|as)$/i;
// Subordinators that attach their clause to a verb, never to a noun ("… if the server is busy").
const ADVERBIAL = /^(?:while|since|because|if|unless|although|though|as)$/i;
const has = (t: TaggedTerm | undefined, ...tags: string[]) => t !== undefined && tags.some((x) => t.tags.includes(x));
const VERB_GROUP = ["Verb", "Auxiliary", "Copula", "Modal", "Negative"];
// Joined to the verb before it: one clause's second verb ("that tracks changes and lets …").
const JOINING = /^(?:and|or)$/i;

/**
 * Whether a phrase opens on what something does, with no subject before it: a verb in the third
 * person, which the tagger may read as a plural before an article ("Holds the output stream"), or a
 * participle before its preposition ("Used to substitute …").
 */
function opensOnDoing(terms: TaggedTerm[]): boolean {
  const [first, next] = [terms[0], terms[1]];
  const participle = has(first, "PastTense") || (has(first, "Verb") && /^\p{L}+ed$/u.test(first!.text));
  if (participle && (has(next, "Preposition") || next?.text === "to")) return true;
  if (!first || !/^\p{L}+s$/u.test(first.text)) return false;
  return (
    (has(first, "PresentTense") && !has(first, "Copula", "Auxiliary")) ||
    (has(first, "Plural") && has(next, "Determiner", "Possessive"))
  );
}

/** The form of a phrase or a sentence (its first sentence, for a text of several). */
export function phraseForm(text: string): PhraseForm {
  const t = text.trim();
  if (!/^[\p{L}\p{N}]/u.test(t)) return "clause";
  const terms = taggedSentences(t)[0]?.terms ?? [];
  if (terms.length === 0) return "clause";
  // A gerund at the head names an act, not a thing ("adding non-free software …" beside "programs that
  // are not GNU software"): it says what is done, with no subject, unless a verb of its own follows
  // before any relative word, the gerund then the clause's subject ("Compiling and linking should be
  // done …", "Booting your system … makes it easy …"). "existing", "remaining" read as adjectives.
  const gerund = has(terms[0], "Gerund") && !has(terms[0], "Adjective", "Noun");
  if (gerund) {
    const end = terms.findIndex((w, i) => i > 0 && CLAUSE_START.test(w.text));
    const finite = terms
      .slice(1, end < 0 ? undefined : end)
      .some(
        (w, k) =>
          has(w, "Copula", "Modal") ||
          (has(w, "Verb") &&
            has(w, "PresentTense", "PastTense") &&
            !has(w, "Gerund", "Infinitive") &&
            !has(terms[k + 2], "Preposition") &&
            !/^to$/i.test(terms[k]?.text ?? "")),
      );
    if (finite) return "clause";
  }
  const doing = opensOnDoing(terms) || gerund;
  if (!doing && has(terms[0], "Preposition", "Conjunction", "Adverb", "Pronoun")) return "clause";
  let verbs = 0;
  let clauses = 0;
  // A participle that qualifies the noun before it ("not controlled by") makes those joined to it do so too ("…, then discarded").
  let qualified = false;
  // After "to", a verb is an infinitive, and so are those joined to it ("a right to copy and distribute").
  let infinitive = false;
  // A verb an adverbial clause can attach to: the opening one, an infinitive, a participle or a clause's.
  let host = doing;
  for (const [i, w] of terms.entries()) {
    const [prev, next] = [terms[i - 1], terms[i + 1]];
    if (i > 0 && opensClause(terms, i)) {
      // With no verb before it, an adverbial clause attaches to one outside: the phrase was cut from
      // its sentence ("the page number in the header, while the footer remains empty").
      if (ADVERBIAL.test(w.text) && !host) return "clause";
      clauses++;
      host = true;
      continue;
    }
    if (has(w, "Verb") && !has(w, "Gerund")) host = true;
    if (i === 0 && doing) continue;
    // "to" and a verb after a comma set off what the phrase names ("these integers, called hash values,
    // to store …"): it is a purpose or a complement of a verb outside the phrase, which is cut from it.
    if (/^to$/i.test(w.text) && /,/.test(prev?.post ?? "") && has(next, "Verb")) return "clause";
    if (mainVerb(terms, i, qualified)) {
      // A verb group ("was started", "has to be written") is one verb, and so are verbs joined in one clause.
      const joined =
        JOINING.test(prev?.text ?? "") && (clauses > 0 || infinitive) && !/[,;:]/.test(terms[i - 2]?.post ?? "");
      if (!has(prev, ...VERB_GROUP) && !joined) verbs++;
      // A noun phrase's verbs stand in the clauses that qualify it: a verb before any of them is the
      // main verb of a sentence ("A security policy is what defines whether …"), whatever follows.
      if (clauses === 0 && !doing && !infinitive && !qualified) return "clause";
    }
    if (has(w, "PastTense") && has(next, "Preposition")) qualified = true;
    if (/^to$/i.test(w.text)) infinitive = true;
  }
  if (verbs > clauses) return "clause";
  return doing ? "does" : "noun phrase";
}

/**
 * Whether the word at `i` opens a clause inside the phrase: a relative or subordinating word, not
 * as a determiner ("that option") nor before a gerund; or, with no word at all, a subject right after a noun ("the
 * readings the logger averages"), which an appositive after a comma ("dh_make, a program …") is not.
 */
function opensClause(terms: TaggedTerm[], i: number): boolean {
  const [w, prev, next] = [terms[i]!, terms[i - 1], terms[i + 1]];
  // A subordinator before a gerund or "to" opens no clause with a verb of its own ("when processing a file").
  // "as" opens a clause only with a verb of its own close after it ("as new commits are added"), not
  // in "such as the commit", "as well as", "as a result".
  if (/^as$/i.test(w.text))
    return (
      !/^(?:such|as|so)$/i.test(prev?.text ?? "") &&
      terms.slice(i + 1, i + 5).some((x) => has(x, "PresentTense", "PastTense", "Copula", "Modal") && !has(x, "Gerund"))
    );
  if (CLAUSE_START.test(w.text))
    return (
      !(/^that$/i.test(w.text) && has(next, "Noun", "Adjective") && !has(next, "Verb")) &&
      !has(next, "Gerund") &&
      next?.text.toLowerCase() !== "to"
    );
  return (
    has(w, "Determiner", "Pronoun") &&
    !has(w, "Possessive") &&
    has(prev, "Noun") &&
    !has(prev, "Pronoun") &&
    !/[,;:(—]/.test(prev!.post) &&
    terms
      .slice(i + 1, i + 4)
      .some((x, k) => has(x, "PresentTense", "PastTense", "Copula", "Modal") || thirdPerson(terms, i + 1 + k))
  );
}

/** A word the tagger reads as a plural that is a verb in the third person after its subject ("the logger averages into …"). */
const thirdPerson = (terms: TaggedTerm[], i: number) =>
  has(terms[i], "Plural") &&
  /s$/.test(terms[i]!.text) &&
  has(terms[i - 1], "Singular") &&
  (terms[i + 1] === undefined || has(terms[i + 1], "Preposition", "Determiner"));

/**
 * Whether the noun run before a word goes back to a preposition: the word closes its object ("for
 * error messages"), whatever the tagger reads it as, and no subject stands before it.
 */
function inObject(terms: TaggedTerm[], i: number): boolean {
  // A noun run ends on its head: a word in -s after a plural is a verb ("on free operating systems acts as …").
  if (has(terms[i - 1], "Plural") && /s$/i.test(terms[i]!.text)) return false;
  let k = i - 1;
  // A comma closes the object ("written by Piet van Oostrum, provides …").
  while (
    k >= 0 &&
    has(terms[k], "Noun", "Adjective") &&
    !has(terms[k], "Pronoun", "Determiner") &&
    !/,/.test(terms[k]!.post)
  )
    k--;
  // A "preposition" right after an article is a noun's modifier ("A for loop reads …").
  return k < i - 1 && has(terms[k], "Preposition") && !has(terms[k - 1], "Determiner");
}

/**
 * Whether the word at `i` is a clause's own verb (a tense, a copula, a modal), not a gerund, an
 * infinitive after "to", a participle qualifying a noun, or a noun the tagger reads as a verb.
 */
function mainVerb(terms: TaggedTerm[], i: number, qualified: boolean): boolean {
  const [w, prev, next] = [terms[i]!, terms[i - 1], terms[i + 1]];
  // A plural before an article, not after one, is a verb in the third person ("Places the numbering"),
  // unless the article opens a clause qualifying it ("the readings the logger averages").
  if (
    has(w, "Plural") &&
    has(next, "Determiner", "Possessive") &&
    !CLAUSE_START.test(next!.text) &&
    !has(prev, "Determiner") &&
    !opensClause(terms, i + 1)
  )
    return true;
  if (!has(w, "Verb") || /ing$/i.test(w.text) || has(w, "Gerund")) return false;
  if (has(w, "Copula", "Modal", "Auxiliary")) return true;
  // ", not" sets a noun against the one before the comma ("a matter of freedom, not price").
  if (/^not$/i.test(prev?.text ?? "") && has(terms[i - 2], "Noun") && /,/.test(terms[i - 2]!.post)) return false;
  // Before a relative word a word read as a verb is the noun it qualifies ("parameter names that …", "Risk that …");
  // "as" relates only when it opens a clause ("… acts as a trap" is a verb and its complement).
  if (CLAUSE_START.test(next?.text ?? "") && (!/^as$/i.test(next!.text) || opensClause(terms, i + 1))) return false;
  if (/^to$/i.test(prev?.text ?? "")) return false;
  // A bare infinitive after a verb's object is that verb's complement ("lets users revert them").
  if (has(w, "Infinitive") && has(prev, "Noun") && has(terms[i - 2], "Verb")) return false;
  if (has(w, "PresentTense", "Imperative", "Infinitive"))
    return (
      !has(w, "PastTense") &&
      (CLAUSE_START.test(prev?.text ?? "") || !has(prev, "Preposition", "Determiner", "Adjective")) &&
      !inObject(terms, i)
    );
  if (!has(w, "PastTense")) return false;
  // A past form is a clause's verb at the start, after a pronoun, or before an article, an adverb, a
  // particle or the end ("the end hung up"); elsewhere it is a participle qualifying the noun before it.
  const atEnd = next === undefined || has(next, "Determiner", "Adverb", "Particle");
  return i === 0 || has(prev, "Pronoun") || (!qualified && atEnd && !has(prev, "Determiner", "Adjective"));
}

/** Whether a text reads as a noun phrase, as a definition's genus does ("a version control system that tracks …"). */
export const nounPhrase = (text: string) => phraseForm(text) === "noun phrase";
