/**
 * A question's key terms, weighted by how rare they are in everyday English, and how much of that
 * weight a piece of text holds. This is the abstention rule of question answering, for the model
 * and the extractive engine alike: a question whose rare words ("PostgreSQL", "dplyr", "weight
 * decay") no passage uses together is not answered by the passages, however close the embedding
 * scores are. Cheap on purpose: no part-of-speech model.
 */
import { zipf } from "./background.ts";
import { adverbBase, baseForm } from "./base-form.ts";
import { ASKS_FOR_A_NAME, questionShape } from "./question-type.ts";
import { FRAMING as FRAMING_WORDS, LIGHT as LIGHT_WORDS, THE_DOCUMENT } from "./question-words.ts";
import { contentStems, expandContractions, stem, words } from "./text.ts";

/** A word as key terms compare it: an irregular verb by its infinitive, an adverb by its adjective. */
const termBase = (lower: string) => baseForm(adverbBase(lower));
const termStem = (w: string) => stem(termBase(w.toLowerCase()));

export const NOT_ANSWERED = "The provided sources do not answer this question.";

export interface KeyTerm {
  /** Porter stem of a content word, a number as written without thousands separators, or `code:` and a name from code. */
  term: string;
  weight: number;
}

/**
 * Least weighted share of the question's key terms that one passage, with its section headings
 * (and the terms its words keep company with, cooccurrence.ts), must hold for the passages to
 * answer the question. Calibrated on the DEV half of the SQuAD 2.0 train subset (bench/qa --sets S
 * --curve): the value of the printed grid where the most DEV questions are handled right (the answer
 * holds the gold span, or an unanswerable one is abstained on), SQuAD 2.0's own overall measure;
 * 0.3 and 0.4 tie (52.1%), and the higher answers fewer questions a document does not address.
 * Key-term support tells SQuAD's adversarially written unanswerable questions from answerable ones
 * only weakly (DEV AUC 0.57): 0.75, the value tuned on bench/qa/questions.json, abstained on 51% of
 * DEV's unanswerable questions but wrongly on 40% of its answerable ones; 0.4 answers 61% with the
 * gold span, wrongly abstains on 13%, and abstains on 25% of the unanswerable ones. Checked again
 * once answers refused sentences lacking the question's numbers (answer.ts): 0.3, 0.4 and 0.5 handle
 * 57.3%, 57.6% and 57.3% of DEV right, so 0.4 stays; and once a sentence was quoted with the
 * neighbour holding the rest of the question's terms (answer.ts): 0.3, 0.4 and 0.5 handle 59.0%,
 * 59.3% and 59.0%.
 */
export const MIN_SUPPORT = 0.4;

// Question words that frame or restate rather than say what the question is about (question-words.ts).
const FRAMING = new Set(Object.keys(FRAMING_WORDS).map(termStem));
const LIGHT = new Set(Object.keys(LIGHT_WORDS).map(termStem));
const LIGHT_WEIGHT = 0.5;

/**
 * A number standing alone, as a term: thousands separators do not make it another number. Digits
 * inside a name ("BM25", "H2O") are part of the name's term, on the question's side and the text's.
 */
const NUMBER = /(?<![\p{L}\d.,])\d+(?:[.,]\d+)*(?![\p{L}\d])/gu;
const numberTerm = (n: string) => n.replace(/,/g, "");

/** The rarest everyday words weigh about 6, the commonest content words 0.5; a word the list lacks is as rare as one seen once. */
function weightOf(word: string): number {
  const z = zipf(word) || 1.3;
  return Math.max(0.5, 7 - z);
}
// A number the question names ("in 2015", "Firefox 1.0") is as specific as a rare word.
const NUMBER_WEIGHT = 4;

// A name from code ("is.na", "add.wasm", "glm(") is matched whole: its parts are common words.
const CODE = /(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|(?<![\w.])[A-Za-z_]\w+(?=\()/g;
const codeTerms = (text: string) =>
  (text.match(CODE) ?? [])
    .filter((c) => c.length >= 4 && !/^(e\.g|i\.e|et\.al)$/i.test(c))
    .map((c) => `code:${c.toLowerCase()}`);
const CODE_WEIGHT = 5;

// "chat-optimized" and "chat optimized" are the same words, and so are "memory_growth" and "memory
// growth", and "top-5" and "top 5".
const unhyphenated = (text: string) => text.replace(/(\p{L})[-–_](?=[\p{L}\d])/gu, "$1 ");

// A question typed on a keyboard says "lambda" where the paper prints "λ".
const GREEK: Record<string, string> = {
  α: "alpha",
  β: "beta",
  γ: "gamma",
  δ: "delta",
  ε: "epsilon",
  ζ: "zeta",
  η: "eta",
  θ: "theta",
  κ: "kappa",
  λ: "lambda",
  μ: "mu",
  ν: "nu",
  ξ: "xi",
  π: "pi",
  ρ: "rho",
  σ: "sigma",
  τ: "tau",
  φ: "phi",
  χ: "chi",
  ψ: "psi",
  ω: "omega",
};
const GREEK_LETTER = new RegExp(`[${Object.keys(GREEK).join("")}]`, "gu");

const HYPHENATED = /\p{L}+(?:[-–]\p{L}+)+/gu;

// A question typed on a keyboard also says "Beyonce" and "Chopin's Etude" where the text writes
// "Beyoncé" and "Étude": letters are compared without their accents.
const ACCENT = /\p{M}+/gu;

/** Text as key terms are read from it: Greek letters by name, accents off, hyphenated words apart. */
const normalised = (text: string) =>
  unhyphenated(
    expandContractions(text)
      .replace(GREEK_LETTER, (g) => ` ${GREEK[g]} `)
      .normalize("NFD")
      .replace(ACCENT, "")
      .normalize("NFC"),
  );

// A question about a paper names the paper and its authors ("What do the authors propose…"); the
// text says "we" and "this work", or nothing at all. "The author of calibre" is another matter.
const ABOUT_THE_DOCUMENT = new RegExp(
  String.raw`\b(?:the|this)\s+(?:${THE_DOCUMENT})(?:[’']s|s[’'])?(?=\s|[?,.]|$)(?!\s+of\b)`,
  "giu",
);

const AUXILIARY = "is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|may|might|must";
// The head noun of the question word's phrase ("In which language is Rhino developed?", "Which
// standalone runtimes can…", "What actor portrayed…", "Which two films…"): the kind of thing asked
// for, which the answer names ("…in Java.") rather than repeats; it counts as little as a light
// verb. The phrase's last word before an auxiliary, else the word right after the question word;
// not for a list question ("Which runtimes can…"), answered by a sentence naming the kind with its
// members ("runtimes like wasmer, wasmtime, or WAVM").
const COUNT = String.raw`(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?`;
const TYPE_PHRASE = new RegExp(
  String.raw`\b(?:which|what)\s+${COUNT}(?:[\p{L}-]+\s+){0,2}?([\p{L}-]+)\s+(?:${AUXILIARY})\b`,
  "iu",
);
const TYPE_WORD = new RegExp(String.raw`\b(?:which|what)\s+${COUNT}((?!(?:${AUXILIARY})\b)[\p{L}-]+)`, "iu");
const answerType = (text: string) => (TYPE_PHRASE.exec(text) ?? TYPE_WORD.exec(text))?.[1];

export function keyTerms(question: string): KeyTerm[] {
  const byTerm = new Map<string, number>();
  // "What are mode and length also called?" asks for the name, which the text need not repeat.
  const text = normalised(question).replace(ABOUT_THE_DOCUMENT, " ").replace(ASKS_FOR_A_NAME, " ");
  const type = questionShape(question).kind === "list" ? undefined : answerType(text);
  const light = new Set([...LIGHT, ...(type ? contentStems(type, termBase) : [])]);
  for (const w of words(text.replace(NUMBER, " "))) {
    const [s] = contentStems(w, termBase);
    if (!s || FRAMING.has(s)) continue;
    byTerm.set(s, Math.max(byTerm.get(s) ?? 0, light.has(s) ? LIGHT_WEIGHT : weightOf(w)));
  }
  for (const n of text.match(NUMBER) ?? []) byTerm.set(numberTerm(n), NUMBER_WEIGHT);
  return [...byTerm].map(([term, weight]) => ({ term, weight }));
}

/**
 * Names from code in the question, as key terms for choosing among sentences only: the passages
 * may write the name differently (a file named only in a code block), so they do not decide
 * whether the question is answered.
 */
export const codeKeyTerms = (question: string): KeyTerm[] =>
  [...new Set(codeTerms(question))].map((term) => ({ term, weight: CODE_WEIGHT }));

/** The content-word stems of `text` in order, read as key terms are (hyphens apart, irregular verbs by infinitive): for phrases. */
export const termStems = (text: string): string[] => contentStems(normalised(text), termBase);

/** A text as key terms are matched against it: its terms (termsOf) and its content-word stems in order (termStems). */
export interface ReadTerms {
  terms: Set<string>;
  stems: string[];
}

/** `termsOf` and `termStems` of one text, its words stemmed once for both. */
export function readTerms(text: string): ReadTerms {
  const plain = normalised(text);
  const stems = contentStems(plain, termBase);
  const terms = new Set(stems);
  for (const n of plain.match(NUMBER) ?? []) terms.add(numberTerm(n));
  for (const c of codeTerms(text)) terms.add(c);
  // "pre-training" is also "pretraining" as a question may write it.
  for (const h of text.match(HYPHENATED) ?? []) for (const t of termStems(h.replace(/[-–]/g, ""))) terms.add(t);
  return { terms, stems };
}

/** The terms a text offers to match key terms against: stems of its content words, its numbers and code names. */
export const termsOf = (text: string): Set<string> => readTerms(text).terms;

/**
 * Weighted share of `terms` found in `have`, 0–1 (1 for a question without key terms: nothing to
 * miss); with `related`, a term held only in a word related to it counts `share` of its weight.
 */
export function coverage(
  terms: KeyTerm[],
  have: Set<string>,
  related?: { stems: Map<string, Set<string>>; share: number },
): number {
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  if (total === 0) return 1;
  const held = (t: KeyTerm) =>
    have.has(t.term)
      ? t.weight
      : related && [...(related.stems.get(t.term) ?? [])].some((r) => have.has(r))
        ? related.share * t.weight
        : 0;
  return terms.reduce((sum, t) => sum + held(t), 0) / total;
}

/**
 * What the passages must hold, beyond most of the key terms, for a question to be answered: the
 * names it asks about. A question about "Rust" is not answered by passages that never name Rust,
 * however well they cover "standalone Wasm files". Requiring a "who did…" question's verb as well
 * cost 12 gold answers on SQuAD DEV for 4 abstentions, and a question either way on sets A-F.
 */
export interface Requirements {
  /** Stems of the capitalised names and acronyms the question uses after its first word. */
  names: string[];
}

export function requirements(question: string): Requirements {
  const text = normalised(question);
  const [, ...rest] = words(text.replace(NUMBER, " "));
  const names = rest.filter((w) => /^\p{Lu}/u.test(w) && w !== "I").flatMap((w) => contentStems(w, termBase));
  return { names };
}

// A name written another way in the text: "Indian" for "India", "American" for "America", a typo
// at the end of the question's word ("Communciations", "Sigma" for "Sigman"). Stems that agree on
// 5 letters at least and up to the last letter but one of the shorter are one name; "Austria" and
// "Australia" are not.
const PREFIX = 5;

/** The text's name stems as `namedIn` compares them: whole, less their last letter, and their beginnings. */
function nameForms(have: Set<string>): { heads: Set<string>; starts: Set<string> } {
  const heads = new Set<string>();
  const starts = new Set<string>();
  for (const t of have) {
    if (t.length < PREFIX) continue;
    heads.add(t);
    if (t.length > PREFIX) heads.add(t.slice(0, -1));
    for (let n = PREFIX; n <= t.length; n++) starts.add(t.slice(0, n));
  }
  return { heads, starts };
}

function namedIn(stem: string, have: Set<string>, forms: ReturnType<typeof nameForms>): boolean {
  if (have.has(stem)) return true;
  if (stem.length < PREFIX) return false;
  if (forms.starts.has(stem.slice(0, Math.max(PREFIX, stem.length - 1)))) return true;
  for (let n = PREFIX; n < stem.length; n++) if (forms.heads.has(stem.slice(0, n))) return true;
  return false;
}

/**
 * Whether `text` holds every name the question asks about, as written or in another form of it
 * (`namedIn`: SQuAD 2.0 DEV, 3 more answers with the gold span, no fewer abstentions on unanswerable
 * questions). Requiring only a name's last word ("Bond" for "James Bond") answered 5
 * more but abstained on 7 fewer unanswerable ones: a swapped first name is how those are written.
 */
export const meets = (req: Requirements, text: string): boolean => meetsIn(req, () => termsOf(text));

/** `meets` on terms already read: `have` gives the text's terms (termsOf), read only when the question names something. */
export function meetsIn(req: Requirements, have: () => Set<string>): boolean {
  const terms = req.names.length > 0 ? have() : new Set<string>();
  const forms = nameForms(terms);
  return req.names.every((n) => namedIn(n, terms, forms));
}

// "Network Security Services (NSS)", "inverse cloze task (ICT)": an abbreviation in brackets after
// the words whose initials spell it.
const ABBREVIATION = /\(([\p{Lu}][\p{Lu}\d]{1,7})s?\)/gu;

/**
 * The abbreviations `text` introduces, each with its expansion's term stems: a question that asks
 * about "NSS" is about the sentence that names "Network Security Services", and the other way round.
 */
export function abbreviations(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of text.matchAll(ABBREVIATION)) {
    const letters = m[1]!.replace(/\d/g, "").toLowerCase();
    const before = (text.slice(Math.max(0, m.index! - 120), m.index).match(/[\p{L}]+/gu) ?? []).slice(-12);
    let i = letters.length - 1;
    let start = before.length;
    for (let w = before.length - 1; w >= 0 && i >= 0; w--) {
      const word = before[w]!.toLowerCase();
      if (word[0] === letters[i]) {
        i--;
        start = w;
      } else break;
    }
    if (i >= 0) continue;
    const expansion = termStems(before.slice(start).join(" "));
    const [short] = termStems(m[1]!);
    if (short && expansion.length > 1) out.set(short, expansion);
  }
  return out;
}

/** `terms` with each abbreviation's expansion where it names the abbreviation, and the abbreviation where it names the expansion. */
export function withAbbreviations(terms: Set<string>, known: Map<string, string[]>): Set<string> {
  const out = new Set(terms);
  for (const [short, expansion] of known) {
    if (terms.has(short)) for (const t of expansion) out.add(t);
    else if (expansion.every((t) => terms.has(t))) out.add(short);
  }
  return out;
}
