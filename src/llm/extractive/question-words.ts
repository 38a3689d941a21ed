/**
 * The word lists question answering still keeps, in one place (#29), each entry with the class of
 * questions it serves. A word belongs here only when it serves a class of wordings, never one
 * benchmark question; the rest is general mechanism: stems, the document's own co-occurrence
 * (cooccurrence.ts) and the expected answer's kind, read from the question word and its head noun
 * (question-type.ts, answer-terms.ts).
 */

/** Words that frame a question rather than say what it is about: not key terms at all. */
export const FRAMING: Record<string, string> = {
  name: 'naming questions ("What is the name of…"): the text gives the name, not the word',
  mean: 'definition questions ("What does X mean?")',
  meant: 'definition questions ("What is meant by X?")',
  define: "definition questions",
  definition: "definition questions",
  describe: "explanation questions",
  explain: "explanation questions",
  purpose: 'purpose questions ("What is the purpose of X?"): the text says what X does',
  benefit: "purpose questions, answered by what the thing does",
  advantage: "purpose questions, answered by what the thing does",
  disadvantage: "drawback questions, answered by what the thing fails to do",
  drawback: "drawback questions, answered by what the thing fails to do",
  main: 'emphasis ("the main reason")',
  exactly: "emphasis",
  actually: "emphasis",
  specific: "emphasis",
  particular: "emphasis",
  kind: 'kind questions ("What kind of X…"): the text names an instance',
  type: "kind questions",
  example: "kind questions, answered by an instance",
  list: "list questions, answered by the items",
  according: 'attribution frames ("According to the text…")',
  tell: 'attribution frames ("What does the text tell…")',
  mention: "attribution frames",
  mentioned: "attribution frames",
  happen: 'event questions ("What happens when…"): the text states the event',
  happens: "event questions",
  possible: 'modality frames ("Is it possible to…")',
  unlike: 'contrast frames ("Unlike X, what…"): the contrast is not what is asked',
  instead: 'contrast frames ("…instead of X?")',
  respect: 'prepositional frames ("with respect to")',
  regard: 'prepositional frames ("with regard to")',
  tend: 'hedges ("tend to")',
};

/**
 * Words that count as little as the commonest: verbs a question uses where the text says the same
 * with another ("What does is.na(x) return?" / "…gives a logical vector"), and verbs that restate
 * the kind a "where" or "when" question asks for ("Where is X located?", "When did X take place?").
 */
export const LIGHT: Record<string, string> = {
  return: "what-does-it-do questions about functions and commands",
  returns: "what-does-it-do questions",
  produce: "what-does-it-do questions",
  produces: "what-does-it-do questions",
  give: "what-does-it-do questions",
  gives: "what-does-it-do questions",
  get: "what-does-it-do questions",
  gets: "what-does-it-do questions",
  take: 'what-does-it-do questions, and "take place" in when/where questions',
  takes: "what-does-it-do questions",
  obtain: "what-does-it-do questions",
  reach: "what-does-it-do questions",
  make: "what-does-it-do questions",
  makes: "what-does-it-do questions",
  do: "what-does-it-do questions",
  done: "what-does-it-do questions",
  work: "how-does-it-work questions",
  works: "how-does-it-work questions",
  include: "what-does-it-hold questions",
  includes: "what-does-it-hold questions",
  contain: "what-does-it-hold questions",
  contains: "what-does-it-hold questions",
  show: "what-does-it-show questions",
  shows: "what-does-it-show questions",
  provide: "what-does-it-offer questions",
  provides: "what-does-it-offer questions",
  hold: "what-does-it-hold questions",
  held: 'what-does-it-hold questions, and "held" in when/where questions about events',
  located: 'where questions ("Where is X located?"): the text gives the place',
  situated: "where questions",
  based: 'where questions ("Where is X based?")',
  place: 'when/where questions ("take place"): the text gives the time or place',
  occur: 'when/where questions ("When did X occur?")',
  occurred: "when/where questions",
};
