/**
 * The word lists question answering still keeps, in one place (#29), each entry or group with the
 * class of questions it serves. A word belongs here only when it serves a class of wordings, never
 * one benchmark question; the rest is general mechanism: stems, the document's own co-occurrence
 * (cooccurrence.ts) and the expected answer's kind, read from the question word and its head noun
 * (question-type.ts, answer-terms.ts). Each entry left moves a figure when taken out (SQuAD DEV or
 * bench/qa sets A-F, on the passages the API returned); those that moved none were deleted. The
 * lists of several words are regular-expression alternatives, as the rules that read them use
 * them; the language's own closed classes (question words, auxiliaries, forms of "be", months,
 * number words) stay with those rules.
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

/**
 * Questions about a paper that name it or its authors ("What do the authors propose…"), where the
 * text says "we" and "this work": after "the" or "this", not key terms.
 */
export const THE_DOCUMENT = String.raw`authors?|paper|article|blog\s+post|post|document|writer`;

/**
 * Naming questions ("What are mode and length also called?"), asking for the name the text gives,
 * and the sentences that give one ("…is called the mode").
 */
export const NAMING = String.raw`called|known\s+as|named|referred\s+to\s+as|termed`;

/** Quantity questions: "how" with these asks for a number ("How often…", "How far…"). */
export const HOW_MUCH = "many|much|long|big|large|small|far|old|often|fast|high|wide|tall|heavy";

/** Quantity questions: "what/which" with one of these nouns asks for a number ("What percentage…"). */
export const MEASURES =
  "number|numbers|percentage|percent|share|amount|size|value|score|accuracy|rate|dimension|dimensions|revenue|cost|price|length|count|speed|total|proportion|fraction|budget|population|distance|duration|weight|height|width|depth|age|limit";

/** Time questions: "what/which" with one of these asks for a date ("In what month and year…"). */
export const TIMES = "year|date|day|month|decade|century|time";

/** Agent questions: "which/what" with one of these asks for a person or organisation ("Which company…"). */
export const AGENTS = "person|people|company|companies|organi[sz]ations?";

/** Code questions: "which/what" with one of these asks for a name from code ("Which function…"). */
export const CODE_THINGS = "function|functions|file|files";

/** Reason questions beyond "why": "What was the reason/cause/motivation…". */
export const REASONS = "reasons?|causes?|motivation";

/**
 * Reason questions: what a sentence says why with ("because", "so that", "…, as the work is…");
 * after ", as" not a comparison or a reference ("as well", "as shown", "as expected").
 */
export const REASON_MARKERS =
  "because|since|due to|owing to|so that|in order to|as a result|reasons?|therefore|thus|hence|this is (done|why)|caused by|leads? to|so as to|ensures?";
export const AS_NOT_A_REASON =
  "well|such|a|an|in|of|for|with|part|shown|described|follows|mentioned|noted|seen|discussed|above|below|before|long|soon|far|much|many|expected|usual|opposed";

/** Occasion questions ("When is .First() executed?"): what a sentence names an occasion with. */
export const OCCASION_MARKERS = "at the (beginning|start|end|outset) of|before|after|when(?!ever)";

/**
 * Questions whose answer reads on into the next sentence: a sentence opening with one of these
 * refers back to the one before it, and is quoted with it.
 */
export const ANAPHORS = "This|It|They|He|Its";

/**
 * Why and how questions answered by a sentence that announces what follows ("…is due to two
 * reasons."): the count, then what is counted; the sentences after it are quoted with it.
 */
export const ANNOUNCING_COUNTS = "two|three|four|several|the following|these";
export const ANNOUNCED_THINGS = "reasons|ways|steps";

/**
 * Any question whose terms a figure's walk-through names ("Figure 1 illustrates the top-k
 * accuracy…"): it answers with a picture the reader does not have.
 */
export const FIGURE_WALKS = "shows|illustrates";
