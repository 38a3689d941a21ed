/**
 * Sentences that say what a document is about, for a course's description: a statement whose
 * subject, the words before its verb, holds the document's own subject terms (its title, its
 * leading key phrases). Never a pointer elsewhere ("See [RFC7322] for more information …"), a note
 * on using the document or its code ("All of the code is written to work in both …", "You can
 * download …"), a labelled line, a sentence leaning on the one before it, a task, or a description
 * with no subject of its own.
 */
import { leansOnPrevious } from "./back-reference.ts";
import { subjectless } from "./entry-descriptions.ts";
import { taggedSentences } from "./tagging.ts";
import { setsTask } from "./tasks.ts";
import { contentStems, pointsElsewhere } from "./text.ts";

// A pointer to other reading: a citation key ("[RFC7322]", "[12]"), a direction to look elsewhere,
// or at what the page shows ("In the above tree", "the table below").
const POINTER =
  /\[[\p{L}\d.-]+\]|^(?:see|refer to)\b|\bfor (?:more|further) (?:information|details)\b|\b(?:above|below)\b/iu;
// A labelled line ("Potential Inputs: …", "V11: … Control objective …"): a form's field or a list, not a statement.
const LABELLED = /^[^.:;]{1,60}:\s/;
// The reader or the writers as persons in the sentence: a note on reading, not the subject itself.
const PERSONAL = /\b(?:you|your|we|our|us|I|my)\b/;

/** The words before the sentence's first verb: what it is about. */
function subjectOf(sentence: string): string {
  const terms = taggedSentences(sentence)[0]?.terms ?? [];
  const verb = terms.findIndex((t) => t.tags.includes("Verb") && !t.tags.includes("Gerund"));
  return (verb < 0 ? terms : terms.slice(0, verb)).map((t) => t.text).join(" ");
}

/** The sentences among `candidates` (best first) that state what the document is about, in that order. */
export function aboutSentences(candidates: string[], subjectTerms: string[]): string[] {
  const subject = new Set(subjectTerms.flatMap((t) => contentStems(t)));
  return candidates.filter(
    (s) =>
      !POINTER.test(s) &&
      !LABELLED.test(s) &&
      // Read alone, a sentence that leans on the one before it ("Therefore, …", "This header field …") says nothing.
      !leansOnPrevious(s) &&
      !PERSONAL.test(s) &&
      !pointsElsewhere(s) &&
      !setsTask(s) &&
      !subjectless(s) &&
      contentStems(subjectOf(s)).some((st) => subject.has(st)),
  );
}
