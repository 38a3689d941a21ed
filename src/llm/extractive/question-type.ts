/**
 * What kind of answer a question asks for, read from its wording, and whether a sentence holds
 * one: "how many" wants a number, "when" a date or year, "who" a person or organisation, "where" a
 * place, "which function" a name from code, "what is X" a sentence that defines X, "why" a reason,
 * "which runtimes can…" a list of them. The extractive engine prefers sentences that hold the asked
 * kind of answer, so "How many passages…?" is answered with the sentence that gives the number, not
 * the one that merely repeats the question's words. A kind whose removal moved no figure on SQuAD
 * DEV nor on bench/qa sets A-F is not read (#29: "what is X for" a purpose, "how do…" a means,
 * "which city" a place). People, organisations and places come from compromise's
 * tagger (already the engine's part-of-speech model), with capitalised names after "by" as a
 * fallback for what it misses.
 */
import { relationsOf } from "../wordnet.ts";
import {
  AGENTS,
  AS_NOT_A_REASON,
  CODE_THINGS,
  HOW_MUCH,
  MEASURES,
  NAMING,
  OCCASION_MARKERS,
  REASON_MARKERS,
  REASONS,
  TIMES,
} from "./question-words.ts";
import { taggedDoc } from "./tagging.ts";
import { expandContractions, isStopword, stem, words } from "./text.ts";

export type AnswerKind =
  | "quantity"
  | "time"
  | "agent"
  | "place"
  | "code"
  | "version"
  | "naming"
  | "definition"
  | "reason"
  | "list"
  | "other";

export interface QuestionShape {
  kind: AnswerKind;
  /** The term a definition question asks about ("open-domain question answering"). */
  term?: string;
  /** What a "how many" question counts ("training examples"), as stems. */
  counted?: string[];
  /**
   * A "when" question in the present tense asks on what occasion something happens ("When is
   * .First() executed?": "at the beginning of an R session"), not for a date.
   */
  occasion?: boolean;
}

/** A question that ends asking for a name: "…also called?", "…known as?". */
export const ASKS_FOR_A_NAME = new RegExp(String.raw`\b(?:also\s+)?(?:${NAMING})\s*\??\s*$`, "i");

// "In which language…", "To which file…": a preposition may come before the question word.
const Q = String.raw`^\s*(?:(?:in|to|from|on|at|for|by|with|of|into)\s+)?`;
const PATTERNS: [AnswerKind, RegExp][] = [
  ["quantity", new RegExp(String.raw`\bhow\s+(${HOW_MUCH})\b`, "i")],
  // Not "What does top-k accuracy measure?": the measure is what the question is about.
  ["quantity", new RegExp(`${Q}(what|which)\\s+((?!(?:do|does|did)\\s)\\S+\\s+){0,3}?(${MEASURES})\\b`, "i")],
  ["time", new RegExp(String.raw`^\s*when\b|\b(what|which)\s+(${TIMES})\b|\bin\s+(what|which)\s+year\b`, "i")],
  ["agent", new RegExp(`^\\s*(who|whom|whose)\\b|${Q}(which|what)\\s+(\\S+\\s+)?(${AGENTS})\\b`, "i")],
  ["place", /^\s*where\b/i],
  ["code", new RegExp(`${Q}(which|what)\\s+(\\S+\\s+){0,2}?(${CODE_THINGS})\\b`, "i")],
  // "What are mode and length also called?": the name the text gives something.
  ["naming", ASKS_FOR_A_NAME],
  // "Which Firefox version…", "In which version of calibre…", "Which Android versions can…".
  ["version", new RegExp(`${Q}(which|what)\\s+([\\p{L}.]+\\s+){0,2}?versions?\\b`, "iu")],
  [
    "reason",
    new RegExp(
      String.raw`^\s*why\b|^\s*(what|which)\s+(is|was|are|were)\s+the\s+(${REASONS})\b|^\s*what\s+causes?\b`,
      "i",
    ),
  ],
];
// "What is a data frame?" but not "What is the dimension d of the representation taken at the [CLS] token?"
const DEFINITION =
  /^\s*(?:what\s+(?:is|are|was|were)|define|what\s+is\s+meant\s+by)\s+(?:an?\s+|the\s+)?([^?]+?)\s*\??\s*$/i;
const MEANING = /^\s*what\s+does\s+(?:an?\s+|the\s+)?(.+?)\s+mean\s*\??\s*$/i;
// "Which standalone WebAssembly runtimes can run…": several things of a kind, named in a list.
const LIST_QUESTION =
  /^\s*(?:which|what)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+s\s+(?:can|could|do|does|are|were|have|has|will|would|should|must|may|might)\b/iu;
// "Which three locations…", "What were two landmarks…": a count of the things asked for, named in
// a list (SQuAD DEV: 1 more answer with the gold span; "who were two of…" as well: 1 fewer).
const COUNTED_LIST =
  /^\s*(?:which|what)\s+(?:(?:are|were|was|is)\s+)?(?:the\s+)?(?:two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+[\p{L}-]/iu;

// "How many training examples does…": the words up to the verb name what is counted.
const COUNTED =
  /\bhow\s+many\s+((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)(?=\s+(?:do|does|did|are|is|were|was|can|could|have|has|had|will|would|should|must)\b)/iu;
const COUNTED_ALONE = /\bhow\s+many\s+([\p{L}-]+)/iu;

/** Stems of the content words a "how many" question counts ("training examples" → train, exampl). */
function countedOf(question: string): string[] {
  const phrase = (COUNTED.exec(question) ?? COUNTED_ALONE.exec(question))?.[1] ?? "";
  return words(phrase)
    .filter((w) => !isStopword(w))
    .map(stem);
}

// "When the retriever and reader are trained jointly, which encoder is kept fixed?", "In the
// WebQuestions dataset, what are…": what comes before the comma sets the scene; the question is what
// follows it.
const SCENE = /^[^,?]{3,100},\s*(?=(?:what|which|who|whom|whose|where|when|why|how|is|are|does|do|did|can)\b)/i;
const OCCASION = /^\s*when\s+(?:is|are|does|do|can|should|will|must|would|may)\b/i;

export function questionShape(asked: string): QuestionShape {
  const question = expandContractions(asked).replace(SCENE, "");
  for (const [kind, re] of PATTERNS) {
    if (!re.test(question)) continue;
    const counted = kind === "quantity" ? countedOf(question) : [];
    if (counted.length > 0) return { kind, counted };
    return kind === "time" && OCCASION.test(question) ? { kind, occasion: true } : { kind };
  }
  if (COUNTED_LIST.test(question)) return { kind: "list" };
  const def = DEFINITION.exec(question) ?? MEANING.exec(question);
  if (def?.[1] && words(def[1]).length <= 5) return { kind: "definition", term: def[1] };
  if (LIST_QUESTION.test(question)) return { kind: "list" };
  return { kind: "other" };
}

const UNITS = "two|three|four|five|six|seven|eight|nine";
const TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety";
// Not "one" alone: "one nice thing", "Alcatel One Touch" count nothing; "one session" right
// before what a question counts does (COUNT_TOKEN).
const COUNT_WORDS = `(?:${TENS})(?:-(?:one|${UNITS}))?|${UNITS}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|hundreds?|thousands?|millions?|billions?|dozens?`;
// "the twenty-fourth film", "his fourth appearance": the place in a series says how many there have
// been. Not "first": "the first film" counts nothing.
const ORDINAL_WORDS = `(?:(?:${TENS})-)?(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth)|(?:${TENS.replace(/y\b/g, "ie")})th|tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|\\d*(?:[2-9]|1\\d)(?:st|nd|rd|th)`;
const NUMBER_WORDS = new RegExp(`\\b(${COUNT_WORDS}|twice)\\b`, "i");
/**
 * A number as a count of what follows it: any number token, "one", or a place in a series, but not
 * an ordinal that orders the text's own points ("Second, because…").
 */
const COUNT_TOKEN = new RegExp(`^[(~≈$]?(?:(?:\\d+(?:[.,]\\d+)*%?|${COUNT_WORDS}|one)[,.;:)]?|${ORDINAL_WORDS})$`, "i");
const MONTH =
  /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)\.?\s+\d{1,4}\b|\b\d{1,2}\s+(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
// A date's day with its month and year, either way round ("April 3, 2014", "3 April 2014").
const MONTH_DAY =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:,\s*\d{4})?\b|\b\d{1,2}\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/gi;
const YEAR = /\b(1\d\d\d|20\d\d)s?\b/g;
// Times a history writes without a four-digit year: a reign or period ("(907–960)", "r. 1398–1402"),
// a century or an era ("the 9th century", "800 AD").
const PERIOD = /\b\d{3,4}\s*[–-]\s*\d{2,4}\b|\b\d{1,2}(?:st|nd|rd|th)[\s-]+century\b|\b\d{1,4}\s*(?:AD|BC|BCE|CE)\b/;
// "…to ensure that a line of poetry retains…" says why as plainly as "because" does.
const REASON = new RegExp(String.raw`\b(${REASON_MARKERS})\b|,\s+as\s+(?!(?:${AS_NOT_A_REASON})\b)\p{L}`, "iu");
// A "when" that asks for an occasion is answered by one: "at the beginning of a session", "before…".
const OCCASION_WORDS = new RegExp(`\\b(${OCCASION_MARKERS})\\b`, "i");
// "…like wasmer, wasmtime, or WAVM", "such as AZW3 or EPUB".
const LISTS = /[\p{L}\d)]+,\s+[\p{L}\d.-]+(?:\s+[\p{L}\d.-]+)?,?\s+(and|or)\s+[\p{L}\d]/u;
// A name from code: a call ("glm()", "seq(2,10)"), a dotted or snake_case name ("read.table",
// "file_test"), a dot file (".RData").
const CODE_NAME = /\b[A-Za-z_][\w.]*\(|\b[a-z]+[._][a-z_.]*[a-z]\b|(?<![\w.])\.[A-Za-z]\w+/;
const COPULA = new Set(["is", "are", "was", "were"]);

const NAMES_IT = new RegExp(String.raw`\b(${NAMING})\b`, "i");
// "Firefox 3.5", "1.7.x", "version 2", "Word (2007 and newer)": a release named by its number.
const VERSION = /\b\d+\.(?:\d+|x)\b|\b(?:[Vv]ersion|[Rr]elease|v)\s*\d|\p{Lu}[\p{L}.]*\s+\(?\d{1,4}\b/u;

// A citation's year ("(Yih et al., 2011)") is no quantity the text states.
const CITATION = /\([^()]*(\bet al\.|\b\p{Lu}\p{L}+,? (1[89]|20)\d\d[a-z]?)[^()]*\)/gu;

/** Numbers written in digits, except those of citations and those the question itself names. */
function newNumbers(sentence: string, question: string): string[] {
  const asked = new Set(question.match(/\d+(?:[.,]\d+)*/g) ?? []);
  return (sentence.replace(CITATION, " ").match(/(?<![\p{L}\d])\d+(?:[.,]\d+)*/gu) ?? []).filter((n) => !asked.has(n));
}

/** Names the tagger finds (people, organisations, places), minus words the question already uses. */
function names(sentence: string, question: string, kinds: ("people" | "organizations" | "places")[]): string[] {
  const asked = new Set(words(question).map((w) => w.toLowerCase()));
  const doc = taggedDoc(sentence);
  return kinds
    .flatMap((k) => doc[k]().out("array") as string[])
    .map((n) => n.replace(/[^\p{L}\p{N}. '’-]+/gu, "").trim())
    .filter((n) => n.length > 1 && words(n).some((w) => !asked.has(w.toLowerCase())));
}

/**
 * Whether `sentence` defines `term`: the term (by stems, allowing a word or two before it, as in
 * "An R list is…") opens the sentence and a copula follows it, parentheticals aside ("Open-domain
 * question answering (QA) (Voorhees, 1999) is a task that…").
 */
function defines(sentence: string, term: string): boolean {
  const have = words(sentence.replace(/\([^)]*\)/g, " ").replace(/[-–]/g, " ")).map((w) => w.toLowerCase());
  const stems = have.map(stem);
  const wanted = words(term.replace(/[-–]/g, " ")).map(stem);
  if (wanted.length === 0) return false;
  for (let start = 0; start <= 2; start++) {
    if (wanted.every((t, i) => stems[start + i] === t)) {
      const after = have.slice(start + wanted.length, start + wanted.length + 4);
      if (after.some((w) => COPULA.has(w))) return true;
    }
  }
  return false;
}

/** A sentence without its dates' days and years: "created in 1998 by members" counts no members. */
const undated = (sentence: string) => sentence.replace(MONTH_DAY, " ").replace(YEAR, " ");

const contentStemsOf = (text: string) =>
  words(text)
    .filter((w) => !isStopword(w))
    .map((w) => stem(w.toLowerCase()));

/** A number with what is counted at most three words after it ("about 25 packages", "three reasons"). */
function countsIt(sentence: string, counted: string[], kinds = false): boolean {
  const tokens = sentence.split(/\s+/);
  const isCounted = (w: string) => {
    const word = w.replace(/[^\p{L}-]/gu, "").toLowerCase();
    return counted.includes(stem(word)) || (kinds && [...relationsOf(word).same].some((s) => counted.includes(s)));
  };
  return tokens.some((t, i) => COUNT_TOKEN.test(t) && tokens.slice(i + 1, i + 4).some(isCounted));
}

/**
 * A "how many X" question's fit: 2 for a number right before X, 1 for one right before a kind of X
 * (WordNet: "1,500 extras" for "how many actors") or another of the question's words ("only 10
 * being produced" for "how many DB10s were produced"), else 0.
 */
function countFit(sentence: string, counted: string[], question: string): number {
  if (countsIt(sentence, counted)) return 2;
  return countsIt(sentence, [...counted, ...contentStemsOf(question)], true) ? 1 : 0;
}

/**
 * How well `sentence` fits the kind of answer the question asks for: 0 when it holds none, 1 when
 * it does, 2 when a "how many" question's number is followed by what it counts. A number before
 * a kind of what is counted, or before another of the question's words, fits less (countFit): the
 * text often counts the same things under another name; refusing those cost 5 gold answers on
 * SQuAD DEV. A number before anything else does not: "2,000 people" does not say how many
 * employees there are, nor a date's day or year (letting any number fit answered 7 more of bench/qa
 * sets A-F's unanswerable questions).
 */
export function answerFit(sentence: string, shape: QuestionShape, question: string): number {
  switch (shape.kind) {
    case "quantity":
      if (shape.counted) return countFit(undated(sentence), shape.counted, question);
      return newNumbers(sentence, question).length > 0 || NUMBER_WORDS.test(sentence) ? 1 : 0;
    case "time": {
      const asked = new Set(question.match(YEAR) ?? []);
      const own = sentence.replace(CITATION, " ");
      if (MONTH.test(own) || PERIOD.test(own) || (own.match(YEAR) ?? []).some((y) => !asked.has(y))) return 1;
      return shape.occasion && OCCASION_WORDS.test(own) ? 1 : 0;
    }
    case "agent":
      return names(sentence, question, ["people", "organizations"]).length > 0 ||
        /\bby\s+(the\s+)?\p{Lu}\p{L}+/u.test(sentence)
        ? 1
        : 0;
    case "place":
      return names(sentence, question, ["places"]).length > 0 ||
        /\b(in|at|near)\s+(the\s+)?\p{Lu}\p{L}+/u.test(sentence)
        ? 1
        : 0;
    case "code":
      return CODE_NAME.test(sentence) ? 1 : 0;
    case "version":
      return VERSION.test(sentence.replace(CITATION, " ")) ? 1 : 0;
    case "naming":
      return NAMES_IT.test(sentence) ? 1 : 0;
    case "definition":
      return defines(sentence, shape.term ?? "") ? 1 : 0;
    case "reason":
      return REASON.test(sentence) ? 1 : 0;
    case "list":
      return LISTS.test(sentence) ? 1 : 0;
    case "other":
      return 0;
  }
}
