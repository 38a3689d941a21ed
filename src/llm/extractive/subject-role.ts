/**
 * Like-for-like swaps into a statement's subject. A wrong statement made by putting another term in
 * the subject's place ("Each time through the loop, Hint selects the next tuple"; "Sockets Overview
 * includes both a deterministic profiler …") reads as nonsense unless the term put there is one the
 * document itself has doing things: written somewhere as the subject of a verb ("the compiler
 * respects …", "SBCL includes …"). A label ("Hint:") or a section's name never is.
 */
import type { McqQuestion } from "../schemas.ts";
import { promptKind } from "./prompt-kinds.ts";
import { escapeRegExp } from "./text.ts";

// The verb right after a subject: a copula, an auxiliary or modal, or a third-person present or a past ("includes", "selected").
const VERB_AFTER =
  /^\s+(?:(?:is|are|was|were|has|have|had|does|do|did|can|could|may|might|must|shall|should|will|would)\b|\p{Ll}{2,}(?:s|ed)\b)/u;
// What opens a sentence or its main clause before its subject: nothing, an article, an opening phrase and its
// comma, or the first of two subjects joined ("the system owner or …").
const OPENS = /(?:^|,\s*)(?:(?:the|a|an)\s+)?(?:(?:[\p{L}-]+\s+){1,4}(?:and|or)\s+(?:(?:the|a|an)\s+)?)?$/iu;

/** Whether the words between `before` and `after` are a statement's subject: they open it, and a verb follows. */
const subjectBetween = (before: string, after: string) => OPENS.test(before) && VERB_AFTER.test(after);

/** Whether the document writes `term` as the subject of a verb: a sentence or clause opens with it and a verb follows. */
export function actsAsSubject(term: string, documentText: string): boolean {
  const opening = new RegExp(`(?:^|[.!?:;,]\\s+|\\n)(?:(?:the|a|an)\\s+)?${escapeRegExp(term)}(?=\\s)`, "giu");
  for (const m of documentText.matchAll(opening)) {
    const end = m.index + m[0].length;
    if (VERB_AFTER.test(documentText.slice(end, end + 40))) return true;
  }
  return false;
}

/** The words a wrong statement puts in place of the true one's, with what comes before and after them. */
function swapOf(truth: string, wrong: string) {
  const a = truth.split(" ");
  const b = wrong.split(" ");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a.at(-1 - tail) === b.at(-1 - tail)) tail++;
  return {
    before: a.slice(0, head).join(" "),
    // Punctuation ending the swapped words ("Hint," in "…, Hint, then …") belongs to the sentence.
    other: b
      .slice(head, b.length - tail)
      .join(" ")
      .replace(/\W+$/u, ""),
    after: ` ${a.slice(a.length - tail).join(" ")}`,
  };
}

/** Whether a wrong statement swaps like for like: a term put in the subject's place acts as a subject in the document. */
export function likeSwap(truth: string, wrong: string, documentText: string): boolean {
  const { before, other, after } = swapOf(truth, wrong);
  return !other || !subjectBetween(before ? `${before} ` : "", after) || actsAsSubject(other, documentText);
}

/**
 * A "which statement does the course make" question without its wrong statements that put a term
 * the document never has doing things in the subject's place; null when fewer than three choices
 * would be left (a smaller quiz is better than a broken question). Other questions pass unchanged.
 */
export function withLikeSwaps(q: McqQuestion, documentText: string): McqQuestion | null {
  if (promptKind(q.prompt) !== "statement") return q;
  const truth = q.choices[q.answer]!;
  const kept = q.choices.filter((c, i) => i === q.answer || likeSwap(truth, c, documentText));
  if (kept.length === q.choices.length) return q;
  return kept.length < 3 ? null : { ...q, choices: kept, answer: kept.indexOf(truth) };
}
