/**
 * Tasks the document sets its reader, which are never statements to teach, quiz or card: sections
 * the document itself marks as exercises (a heading "Exercises", "Problems", "Exercise 3.2"; a
 * numbered "Exercise N" label and what follows it under the same heading), and sentences addressed
 * to the reader as orders, whole ("Write a function …") or after an opening phrase ("Using the data
 * from …, compute …", "As a more challenging exercise, write …").
 */
import type { Passage } from "../types.ts";
import { opensWithTag, taggedSentences } from "./tagging.ts";
import type { Sentence } from "./text.ts";

// A heading naming a set of tasks, numbered or not ("3.14 Exercises", "Problems", "Exercise 4.2", "Review questions").
const EXERCISE_HEADING =
  /^(?:[\dIVXivx]+(?:\.\d+)*\.?\s+)?(?:exercises?|problems?|practice problems|review questions|self-test|homework)\b(?:\s+[\d.]+\.?)?(?!\s+\p{Ll}{4,})/iu;
// A paragraph or a sentence labelled as one task of a numbered run ("Exercise 3.1.", "Problem 2:", "Exercises 4.2 asks …").
const EXERCISE_LABEL = /^["“‘(]*(?:exercises?|problems?)\s+\d+(?:\.\d+)*\b/i;

/** Whether a paragraph opens as one task of a numbered run ("Exercise 3.1. Write …"). */
export const opensExercise = (text: string) => EXERCISE_LABEL.test(text.trim());

/** Whether a heading (or any of a heading path) marks its section as the reader's exercises. */
export const exerciseHeading = (heading: string | readonly string[] | null | undefined): boolean =>
  heading == null
    ? false
    : typeof heading === "string"
      ? EXERCISE_HEADING.test(heading.trim())
      : heading.some((h) => EXERCISE_HEADING.test(h.trim()));

// Words that open a phrase set before a sentence's main clause: a preposition, a conjunction, an
// adverb (the tagger reads "Next" as an adjective), a participle ("Using …", "Given …") or "To …".
const OPENING_TAGS = ["Preposition", "Conjunction", "Adverb", "Adjective", "Gerund", "Participle", "PastTense"];
const MAX_OPENING_WORDS = 14;

/**
 * Whether a sentence's main clause, after an opening phrase and its comma, is an order to the
 * reader: it opens on a verb's base form the tagger reads as imperative ("…, compute the mean").
 * The opening must be a phrase set before a clause (not a subject: "It supports insert, delete …").
 */
function ordersAfterOpening(sentence: string): boolean {
  const comma = sentence.indexOf(", ");
  // An entry or an aside before the comma ("term — A senior official (i.e., assume …") is no opening phrase.
  if (comma < 0 || /[—()[\]:;]/.test(sentence.slice(0, comma))) return false;
  // The sentence's own tags, which setsTask has read already: the opening ends on the first comma.
  const terms = taggedSentences(sentence)[0]?.terms ?? [];
  const end = terms.findIndex((t) => t.post.includes(","));
  if (end < 0 || end + 1 > MAX_OPENING_WORDS) return false;
  const first = terms[0]!;
  if (!OPENING_TAGS.some((t) => first.tags.includes(t)) && !/^to$/i.test(first.text)) return false;
  const main = terms.slice(end + 1);
  // A verb's base form: a bare "print" the tagger reads as a verb before another ("print displays …") is a noun there.
  const verb = main[0]?.tags ?? [];
  return main.length >= 3 && verb.includes("Verb") && verb.includes("Infinitive") && !verb.includes("Gerund");
}

// An entry's term ("SAMPLE_RATE — The number …", "access token — …") may read as an order; its description is judged.
const ENTRY_TERM = /^[^—]{1,60}\s—\s/;

/**
 * Whether a sentence sets the reader a task rather than stating something: it is labelled as an
 * exercise ("Exercise 4.2 asks …", "… as an exercise"), or it is an order, whole ("Write a function
 * …") or after an opening phrase. The one reader of tasks, for the builders and the storing checks.
 */
export function setsTask(sentence: string): boolean {
  const said = sentence
    .trim()
    .replace(ENTRY_TERM, "")
    .replace(/^["“‘(]+/, "");
  if (opensExercise(said) || /\bas an exercise\b/i.test(said)) return true;
  // The builders check the same sentences again and again: their tags are kept (tagging.ts).
  return opensWithTag(said, "Imperative") || ordersAfterOpening(said);
}

/**
 * The sentences of the document's own exercises: every sentence of an exercise section and, after a
 * numbered "Exercise N" label, the rest of its passage under that heading (the exercise's own
 * setting: "A palindrome is … Write a function …"). Read off headings and labels, no tagger: a task
 * sentence elsewhere is told by setsTask, for the sentences a builder considers.
 */
export function exerciseSentences(
  sentences: Sentence[],
  headingPathOf?: (s: Sentence) => readonly string[],
): Set<Sentence> {
  const out = new Set<Sentence>();
  let run: { passageId: string; heading: string | null } | null = null;
  for (const s of sentences) {
    if (run && (run.passageId !== s.passageId || run.heading !== s.heading)) run = null;
    if (opensExercise(s.text)) run = { passageId: s.passageId, heading: s.heading };
    if (run || exerciseHeading(s.heading) || exerciseHeading(headingPathOf?.(s))) out.add(s);
  }
  return out;
}

/** A sentence's enclosing headings, read from its passage. */
export function headingPaths(passages: Passage[]): (s: Sentence) => readonly string[] {
  const byId = new Map(passages.map((p) => [p.id, p.headingPath ?? []]));
  return (s) => byId.get(s.passageId) ?? [];
}
