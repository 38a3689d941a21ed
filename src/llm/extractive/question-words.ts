/**
 * The word lists question answering still keeps, in one place (#29), each entry with the class of
 * questions it serves. A word belongs here only when it serves a class of wordings, never one
 * benchmark question; the rest is general mechanism: stems, the document's own co-occurrence
 * (cooccurrence.ts) and the expected answer's kind, read from the question word and its head noun
 * (question-type.ts, answer-terms.ts). Each entry left moves a figure when taken out (SQuAD DEV or
 * bench/qa sets A-F, on the passages the API returned); 59 that moved none were deleted.
 */

/** Words that frame a question rather than say what it is about: not key terms at all. */
export const FRAMING: Record<string, string> = {
  name: 'naming questions ("What is the name of…"): the text gives the name, not the word',
  describe: "explanation questions",
  actually: "emphasis",
  type: "kind questions",
  possible: 'modality frames ("Is it possible to…")',
  instead: 'contrast frames ("…instead of X?")',
};

/**
 * Words that count as little as the commonest: a verb a question uses where the text says the same
 * with another ("What does the figure show?" / "…plots the accuracy"), and one that restates the
 * kind a "where" question asks for ("Where is X located?").
 */
export const LIGHT: Record<string, string> = {
  show: "what-does-it-show questions",
  located: 'where questions ("Where is X located?"): the text gives the place',
};
