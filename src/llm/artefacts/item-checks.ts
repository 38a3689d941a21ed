/**
 * What every generated quiz question, exam item, flashcard and study guide must pass before it is
 * stored: the extractive engine passes over a failing candidate for the next one (a smaller quiz is
 * better than a broken one); a model's study guide that opens on front or back matter is asked
 * again once, then its opening sections are left out.
 *   - A prompt is a whole question ("…?") or an instruction opening with its verb, that names what
 *     it asks about, with no dangling start or end and no quoted or blanked sentence cut short.
 *   - A rubric point is a whole statement: a capital, a verb, a full stop, nothing dangling.
 *   - A blank is no trivia: its answer and its choices hold no figure (a year, a count, a version, a
 *     status code) and no proper name, unless the blank is what the sentence is about (its subject,
 *     or what its "is" states).
 *   - Choices are of one kind (figures, names, abbreviations, terms, statements) and number, and a
 *     term among them is written in the document and made of real words (everyday English, or a
 *     word the document uses more than once), so a one-off coinage is never offered.
 *   - A flashcard defines: its back has the term as the subject of a defining verb ("X is a …",
 *     "X refers to …", "X returns …"), or names it ("… is called X"), and says more than a vague
 *     genus ("is a new industry", "is one such law").
 *   - A study guide opens with what the document is about, never with front or back matter.
 *   - Nothing taught is an exercise or an instruction to the reader ("Write a function …").
 *   - A definition is whole: not cut at ";" or mid-list, not trailing off on ":" or "…".
 *   - A blank's choices are of its answer's word class (no verb or adverb among nouns).
 *   - A question agrees with itself: "does" with a singular subject, "do" with a plural one.
 */
import { nlp } from "../compromise.ts";
import { zipf } from "../extractive/background.ts";
import { phraseForm } from "../extractive/phrase-forms.ts";
import { hasTag } from "../extractive/tagging.ts";
import { setsTask } from "../extractive/tasks.ts";
import { escapeRegExp, isStopword, words } from "../extractive/text.ts";
import type { ExamQuestion, Flashcard, McqQuestion, StudyGuide } from "../schemas.ts";
import { usualClass } from "../wordnet.ts";

export const BLANK = "_____";
const BLANKED = /_{3,}/;

// Words that leave a sentence or a question open when they end it, or tie it to one before when they open it.
const DANGLING_END =
  /\b(the|a|an|of|to|and|or|but|that|which|with|for|in|on|at|by|from|as|is|are|if|than|its|their|this|these|such)\W*$/i;
const DANGLING_START = /^["“‘(]?(and|or|but|which|that|whereas|also|whose)\b/i;
// A quoted description opening on a subordinator is a condition cut from its sentence ("If a path …, it").
const QUOTE_CUT_START = /^["“‘(]?(if|because|although|though|while)\b/i;
// A question opening with a connective continues one before it ("And what …", "So why …").
const CONTINUING = /^(and|or|but|so|also|then|whereas)\b/i;
// An exam or quiz instruction opens with its verb ("Explain why …", "Describe …").
const INSTRUCTION =
  /^(explain|describe|name|list|give|state|compare|define|complete|outline|show|identify|choose|order|put|summari[sz]e|discuss|contrast|calculate|compute|write|trace)\b/i;
// How questions are framed, apart from what they ask about.
const FRAMING = new Set(
  "what which why how who whom when where does do did is are was were course describe describes described according explain statement statements term following complete say says give gives reason true make makes stand".split(
    " ",
  ),
);

const quotes = (text: string) => [...text.matchAll(/[“"]([^”"]{8,})[”"]/g)].map((m) => m[1]!.trim());
const wholeSentence = (s: string) => /^["“‘]?[\p{Lu}\d_]/u.test(s) && /[.!?]["”’)]?$/.test(s);
/** The sentence of a fill-in-the-blank prompt, after its lead-in ("Complete the statement: …"). */
const blankedSentence = (prompt: string) => prompt.replace(/^[^:_]*:\s*/, "");

/** Why a question prompt is not a whole question naming what it asks about, or null. */
export function promptProblem(prompt: string): string | null {
  const p = prompt.trim();
  if (!/\?["”’)]?$/.test(p) && !INSTRUCTION.test(p)) return "is not a question (end it with ? or open with its verb)";
  if (CONTINUING.test(p)) return "opens mid-sentence";
  if (BLANKED.test(p) && !wholeSentence(blankedSentence(p))) return "blanks a sentence cut short";
  if (
    quotes(p).some(
      (q) => DANGLING_END.test(q.replace(/[.!?…]+$/, "")) || DANGLING_START.test(q) || QUOTE_CUT_START.test(q),
    )
  )
    return "quotes a sentence cut short";
  const named = words(p.replace(BLANKED, " ")).filter(
    (w) => w.length > 2 && !isStopword(w) && !FRAMING.has(w.toLowerCase()),
  );
  if (named.length === 0) return "does not name what it asks about";
  return agreementProblem(p);
}

// "What does X verb?": a subject and a verb in its base form, as do-support wants them.
const DO_QUESTION = /\bwhat (does|do) (.+) (\p{Ll}+)\?$/iu;
const FIXED_VERBS = /^(mean|stand|refer|denote|lead|result|cause|allow|enable)$/;

/** Why a question's "do/does" does not agree with its subject or its verb, or null. */
function agreementProblem(prompt: string): string | null {
  const m = DO_QUESTION.exec(prompt);
  if (!m || FIXED_VERBS.test(m[3]!)) return null;
  if (/[^s]s$/.test(m[3]!)) return `asks "${m[1]} … ${m[3]}": the verb after "${m[1]}" takes no -s`;
  const head = nlp(m[2]!).match("#Noun").last();
  if (!head.found) return null;
  const plural = head.has("#Plural");
  if ((m[1]!.toLowerCase() === "does") === plural) return `"${m[1]}" does not agree with "${m[2]}"`;
  return null;
}

/** Why a rubric point is not a whole statement, or null. */
export function statementProblem(text: string): string | null {
  const t = text.trim();
  if (words(t).length < 5) return "is too short to be a statement";
  if (!wholeSentence(t)) return "is not a whole sentence";
  if (DANGLING_START.test(t) || DANGLING_END.test(t.replace(/[.!?]+["”’)]?$/, ""))) return "is cut short";
  if (!hasTag(t, "Verb")) return "has no verb";
  if (setsTask(t)) return "is an instruction, not a statement";
  return null;
}

// Reading a file, the keyboard or the network: "fin.readline()", "input()", "read.table(…)", "open(…)".
const READS_INPUT =
  /\b(?:input|raw_input|readline|readlines|read|open|fopen|scanf|gets|getline|scan|readLines|readRDS|load|source|read\.\w+|urlopen|fetch|file)\s*\(|\b(?:stdin|sys\.argv)\b/;
/** Whether code reads a file, the keyboard or the network: what it prints depends on what the learner never sees. */
export const readsInput = (code: string) => READS_INPUT.test(code);

/** A clause with a finite verb (a tense, a copula or a modal), not only a gerund or an infinitive. */
const finite = (clause: string) => {
  const d = nlp(clause);
  return d.has("(#Copula|#PastTense|#Modal)") || d.match("#PresentTense").not("(#Gerund|#Infinitive)").found;
};

// A relative clause with its own subject and verb that leaves its preposition at the end closes its
// sentence ("a copy … that developers push to and pull from", "the commit that a release was built
// from"); one word before the preposition ("a pointer that refers to") is a clause cut from its object.
const STRANDED =
  /\b(?:that|which|whom|what|where)\s+[^,;:]*?[\p{L}'’-]+\s+[\p{L}'’-]+\s+(?:of|to|with|for|in|on|at|by|from)$/iu;

/**
 * Whether a definition is cut short: it trails off on ":", ",", ";" or "…", or on a word that
 * leaves it open; a clause after ";" has no verb of its own; or it lists several terms'
 * definitions ("a dotted quarter note, the F is a quarter note …"), the first taken for the whole.
 */
export function cutShort(definition: string): boolean {
  const t = definition.trim();
  const body = t.replace(/[.!?]+["”’)]?$/, "");
  if (/([,;:]|…|\.\.\.)["”’)]?$/.test(t) || (DANGLING_END.test(body) && !STRANDED.test(body))) return true;
  if (
    t
      .split(/;\s+/)
      .slice(1)
      .some((c) => !finite(c))
  )
    return true;
  return /,\s+(?:the|a|an)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:is|are)\s/iu.test(t);
}

export type ChoiceKind = "figure" | "name" | "abbreviation" | "term" | "statement";

/**
 * What a choice is: a figure (any digit: a year, a count, a version, a status code), a name (a
 * capital inside a word, "SpiderMonkey", or on a word after the first, "Free Software
 * Foundation"), an abbreviation ("DOM"), a statement (a clause of more than five words) or a term.
 * A lone capitalised word reads as a name when everyday English rarely writes it ("Mozilla").
 */
export function choiceKind(choice: string): ChoiceKind {
  const w = choice.trim().split(/\s+/);
  if (/\d/.test(choice)) return "figure";
  if (w.length > 5) return "statement";
  if (w.length === 1 && /^\p{Lu}[\p{Lu}-]+s?$/u.test(w[0]!)) return "abbreviation";
  if (w.some((x) => /^\p{Lu}\p{Ll}+\p{Lu}/u.test(x)) || w.slice(1).some((x) => /^\p{Lu}\p{Ll}/u.test(x))) return "name";
  if (w.length === 1 && /^\p{Lu}\p{Ll}+$/u.test(w[0]!) && zipf(w[0]!) < NAME_ZIPF) return "name";
  return "term";
}
const NAME_ZIPF = 3;

/** Names and abbreviations stand for one thing each: they are of one family. */
const family = (k: ChoiceKind) => (k === "abbreviation" ? "name" : k);

/** A noun phrase in the plural ("binaries") or a verb form ("inspecting") is not of a singular noun's kind. */
const grammarOf = (choice: string) => {
  const last = choice.trim().split(/\s+/).at(-1)!.toLowerCase();
  if (/^\p{Ll}+ing$/u.test(choice.trim())) return "gerund";
  return /\p{Ll}{2}s$/u.test(last) && !/(ss|us|is)$/.test(last) ? "plural" : "singular";
};

/**
 * The usual word class of a choice's head word, a term WordNet lacks counting as a noun; null when
 * it may be either: the document writes it as a noun ("the file in …", ItemSource.writesAsNoun).
 */
const classOf = (choice: string, source?: ItemSource) => {
  const w = choice.trim().split(/\s+/);
  const word = w[0]!.toLowerCase();
  // A phrase of several words is a noun phrase, and a plural reads as one (grammarOf keeps numbers apart).
  if (w.length > 1 || !/^\p{Ll}+$/u.test(word) || /[^s]s$/.test(word)) return "noun";
  const c = usualClass(word);
  if (!c) return zipf(word) > 0 ? null : "noun";
  return c !== "noun" && source?.writesAsNoun(word) ? null : c;
};

/**
 * Whether a term put in another's place is of its word class (no adverb for a noun, "foremost
 * files"): a word read in lower case, as a name is one of everyday English too ("External").
 */
export function sameWordClass(was: string, now: string, source?: ItemSource): boolean {
  // A word the document writes as a noun (writesAsNoun) is one there, whatever its usual class.
  const read = (t: string) => {
    const w = /\s/.test(t.trim()) ? t : t.toLowerCase();
    return source?.writesAsNoun(w) ? "noun" : classOf(w);
  };
  const a = read(was);
  const b = read(now);
  return a === null || b === null || a === b;
}

/** Whether a blank is what its sentence is about: its subject, or what its "is/are" states. */
const blankIsTheFact = (sentence: string) =>
  /^["“‘]?_{3,}/.test(sentence) || /\b(is|are|was|were)\s+_{3,}\s*[.!?]?["”’)]?$/.test(sentence);

/** The document an item is drawn from, for the choices offered: its text, and how often it uses each word. */
export class ItemSource {
  readonly text: string;
  private counts = new Map<string, number>();
  private nouns = new Map<string, boolean>();
  private code = new Map<string, boolean>();
  constructor(texts: string[]) {
    this.text = ` ${texts.join(" \n ").toLowerCase()} `;
    for (const w of words(this.text)) this.counts.set(w, (this.counts.get(w) ?? 0) + 1);
  }
  /** Written in the document as a phrase. */
  has(phrase: string): boolean {
    return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase.toLowerCase().trim())}(?![\\p{L}\\p{N}])`, "u").test(
      this.text,
    );
  }
  /**
   * Whether the document writes `word` as a noun: after an article where its noun phrase ends ("the
   * file in …", "a file."); "a linear equation" writes "linear" as a modifier, not a noun.
   */
  writesAsNoun(word: string): boolean {
    // Asked again for each choice of each item, and a scan of the whole document each time.
    const known = this.nouns.get(word);
    if (known !== undefined) return known;
    const after = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:the|a|an) ${escapeRegExp(word.toLowerCase().trim())}(?:\\s*[^\\p{L}\\p{N}\\s]|\\s+(\\p{L}+)|\\s*$)`,
      "gu",
    );
    const noun = [...this.text.matchAll(after)].some(
      (m) => m[1] === undefined || isStopword(m[1]) || /\p{Ll}(?:s|ed)$/u.test(m[1]),
    );
    this.nouns.set(word, noun);
    return noun;
  }
  /** Whether the document's code calls or assigns `word` ("ploth(…)", "bnf = …"): a name of its code. */
  writesAsCode(word: string): boolean {
    const known = this.code.get(word);
    if (known !== undefined) return known;
    const code = new RegExp(
      `(?<![\\p{L}\\p{N}_.$])${escapeRegExp(word.toLowerCase().trim())}(?:\\(|\\s*=(?![=>]))`,
      "u",
    ).test(this.text);
    this.code.set(word, code);
    return code;
  }
  /** A word of everyday English, or one the document uses more than once. */
  realWord(word: string): boolean {
    return zipf(word) > 0 || (this.counts.get(word.toLowerCase()) ?? 0) >= 2;
  }
}

/**
 * Whether `short` is `long` under a shorter name: its initials ("DOM"), or its letters in order from
 * the same first one when it is no everyday word ("Wasm" for "WebAssembly"). Offered side by side,
 * the two are one answer.
 */
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
  if (zipf(s) > 0) return false;
  let at = 0;
  for (const ch of s) {
    at = l.indexOf(ch, at) + 1;
    if (at === 0) return false;
  }
  return true;
}
/** Whether two choices read the same once case, spacing and punctuation are set aside. */
const sameWording = (a: string, b: string) => {
  const plain = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  return plain(a) === plain(b);
};
/** Whether two choices name one thing, one the other's short form. */
export const sameThing = (a: string, b: string) => shortFormOf(a, b) || shortFormOf(b, a);

const LINK_START =
  /^(?:with|of|to|on|in|at|by|for|from|within|into|onto|over|under|about|that|which|whether|because|if|when|and|or|but|are|is|was|were)\b/i;
const SUBORDINATE_TAIL = /\b(?:that|which|who|because|if|when|where|whether)\s+([^,;]*)$/i;

/**
 * Why "what does X do?" asks about nothing in particular, or null: X is one thing of its context
 * the question cannot show ("the function", "these routines"), or a lone word that is no noun
 * ("multiple"); or what X does is no whole object (objectProblem).
 */
export function roleProblem(subject: string, object: string): string | null {
  if (/^(?:the|these|those|this|that|each|its|their)\s+\p{Ll}+$/iu.test(subject.trim()))
    return `names "${subject}" without saying which`;
  if (/^\p{Ll}+$/u.test(subject.trim()) && ["adjective", "adverb", "verb"].includes(usualClass(subject.trim()) ?? ""))
    return `asks about "${subject}", which is no thing`;
  return objectProblem(object);
}

/**
 * Why what a verb acts on, offered as an answer or beside one, is no whole object, or null: it opens
 * on a preposition or a linking word ("with parallel regions": the verb takes none), or it points
 * back to a sentence the question cannot show ("these integers, …", "this to an agency …", "us, by …").
 */
export function objectProblem(object: string): string | null {
  const o = object.trim();
  if (LINK_START.test(o)) return `answers with "${object}", which is no object of the verb`;
  if (/^(?:(?:these|those|this|that)\s+\p{L}|(?:it|them|us|him|her|me|you)\b)/iu.test(o))
    return `answers with "${object}", which points back to a sentence before`;
  return null;
}

/**
 * Whether a clause offered as a choice is a fragment of its sentence: it trails off, opens on a
 * preposition or a linking word (an object cut from its verb, "with a number of layers …") unless a
 * whole clause follows its opening phrase, or its last subordinate clause has no verb ("the header
 * indicates that the new class").
 */
export function clauseFragment(choice: string): boolean {
  const c = choice.trim().replace(/[.!?]+$/, "");
  if (c.split(/\s+/).length < 4) return false;
  if (/…$/.test(c) || DANGLING_END.test(c)) return true;
  const lead = /^[^,]{2,40},\s+(.*)$/.exec(c)?.[1];
  if (LINK_START.test(c) && !(lead && finite(lead))) return true;
  const tail = SUBORDINATE_TAIL.exec(c);
  if (!tail || tail[1]!.split(/\s+/).length < 2) return false;
  // A relative pronoun may be its clause's subject ("a path that visits …"): read it with one.
  const relative = /^(?:that|which|who)$/i.test(tail[0].split(/\s+/)[0]!);
  return !finite(tail[1]!) && !(relative && (finite(`it ${tail[1]}`) || finite(`they ${tail[1]}`)));
}

/**
 * Why choices the built-in engine cut out of the document's sentences fail, or null: the checks of
 * every item, and no clause among them cut short of its sentence. A model writes its choices whole
 * (its "When the water cools" answers a "when" question), so only this engine's callers ask this.
 */
export function cutChoicesProblem(q: McqQuestion, source: ItemSource): string | null {
  if (q.choices.every((c) => c.split(/\s+/).length >= 4)) {
    const cut = q.choices.find(clauseFragment);
    if (cut !== undefined) return `offers "${cut}", a fragment of its sentence`;
  }
  return choicesProblem(q, source);
}

/** Why a multiple-choice question's choices fail, whoever wrote them, or null. */
export function choicesProblem(q: McqQuestion, source?: ItemSource): string | null {
  const right = q.choices[q.answer];
  if (right === undefined) return null;
  const twin = q.choices.find((c) => c !== right && sameThing(c, right));
  if (twin !== undefined) return `offers "${twin}", another name of the answer "${right}"`;
  const repeated = q.choices.find((c, i) => q.choices.findIndex((o) => sameWording(o, c)) !== i);
  if (repeated !== undefined) return `offers "${repeated}" twice`;
  const blank = BLANKED.test(q.prompt);
  if (blank && !blankIsTheFact(blankedSentence(q.prompt))) {
    const trivia = q.choices.find((c) => ["figure", "name"].includes(choiceKind(c)));
    if (trivia !== undefined)
      return `blanks trivia ("${trivia}"): ask about what the sentence says, not a figure or a name in it`;
  }
  const kind = family(choiceKind(right));
  const odd = q.choices.find((c) => family(choiceKind(c)) !== kind);
  if (odd !== undefined) return `offers "${odd}" among choices of another kind`;
  if (blank && kind === "term" && q.choices.some((c) => grammarOf(c) !== grammarOf(right)))
    return "offers choices that do not fit the blank's grammar";
  if (blank && kind === "term") {
    const want = classOf(right, source);
    const odd = q.choices.find((c) => {
      const k = classOf(c, source);
      return want !== null && k !== null && k !== want;
    });
    if (odd !== undefined) return `offers "${odd}", of another word class than the answer`;
  }
  if (source && (kind === "term" || kind === "name")) {
    const foreign = q.choices.find((c) => !source.has(c) || !words(c).every((w) => source.realWord(w)));
    if (foreign !== undefined) return `offers "${foreign}", which is not a term of the document`;
  }
  return null;
}

/** Every problem of one quiz or exam question, whoever wrote it. */
export const questionProblems = (q: ExamQuestion): string[] => problemsOf(q, (mcq) => choicesProblem(mcq));

/** Every problem of a question the built-in engine cut out of `source`'s sentences (cutChoicesProblem). */
export const cutQuestionProblems = (q: ExamQuestion, source: ItemSource): string[] =>
  problemsOf(q, (mcq) => cutChoicesProblem(mcq, source));

function problemsOf(q: ExamQuestion, choicesCheck: (q: McqQuestion) => string | null): string[] {
  const out: string[] = [];
  const prompt = promptProblem(q.prompt);
  if (prompt) out.push(`prompt ${prompt}`);
  if (q.type === "mcq") {
    const choices = choicesCheck(q);
    if (choices) out.push(choices);
  } else if (q.type === "short_answer") {
    for (const r of q.rubric) {
      const p = statementProblem(r);
      if (p) out.push(`rubric point "${r}" ${p}; write each point as a whole sentence from the source`);
    }
  }
  return out;
}

const DEFINING =
  /^(is|are|was|were|refers?|means|denotes|stands|describes|represents|consists|contains|holds|returns|computes|creates|provides|allows|lets|specifies|controls|determines|produces|performs|stores|takes|makes|gives|keeps|prints|reads|writes|runs|converts|defines|identifies|measures|tells|uses)$/i;
// A genus that points back ("one such law") or only judges ("a new industry") says what the term is not.
const VAGUE = /^(?:an?\s+|the\s+)?(one|another|such|this|that|these|those|same|also|just|only|not)\b/i;
const POSTMODIFIER = /\b(of|that|which|who|whose|where|used|for|with|to|in|by|from|on|when|whose|as)\b/i;

/** The term a card's front names ("What is a factor?" → "factor"). */
const termOf = (front: string) =>
  front
    .replace(/^(what|who) (is|are) (an?\s+|the\s+)?/i, "")
    .replace(/\?$/, "")
    .trim();

/** Whether a card's back says what its front is or does. */
export function definesTerm(card: Flashcard): boolean {
  const stand = /^What does (\S+) stand for\?$/.exec(card.front);
  if (stand) {
    const initials = card.back
      .split(/[\s-]+/)
      .map((w) => w[0]?.toUpperCase() ?? "")
      .join("");
    return initials.startsWith(stand[1]!.replace(/s$/, "").slice(0, 2));
  }
  const term = termOf(card.front);
  if (!term) return false;
  const back = card.back.trim();
  // A glossary's or definition list's entry defines its term by where it stands ("term — what it is").
  const entry = new RegExp(`^${escapeRegExp(term)}\\s*(?:—|:)\\s+(.*)$`, "i").exec(back);
  // An entry's term may read as an order ("access token — …"): its definition is what is judged.
  if (cutShort(back) || setsTask(entry ? entry[1]! : back)) return false;
  if (
    new RegExp(
      `\\b(called|known as|termed|we call|referred to as)\\s+(an?\\s+|the\\s+)?["“]?${escapeRegExp(term)}\\b`,
      "i",
    ).test(back)
  )
    return true;
  const subject = entry
    ? null
    : new RegExp(`^(?:(?:an?|the)\\s+)?${escapeRegExp(term)}(?:\\s+\\([^)]*\\))?,?\\s+(\\S+)\\s+(.*)$`, "i").exec(back);
  if (!entry && (!subject || !DEFINING.test(subject[1]!))) return false;
  // An entry says what its term is (a noun phrase) or does ("Contains …"), not a clause of its own
  // ("fatal: The remote end hung up unexpectedly", "Dst — When the conditions are met …").
  // A noun clause ("Whether the printer should print array elements") names what a setting holds.
  const said = entry?.[1]?.replace(/^(?:\S+:\S*\s+)+/, "");
  // Its verbs all inside clauses of its own ("The number of readings the logger averages …", phrase-forms.ts).
  if (said !== undefined && phraseForm(said) === "clause" && !/^(?:whether|how|what)\s/i.test(said)) return false;
  const predicate = (entry ? entry[1]! : subject![2]!).replace(/^(to|for|of|as)\s+/i, "");
  if (VAGUE.test(predicate)) return false;
  const content = words(predicate).filter((w) => !isStopword(w));
  return content.length >= 3 || (content.length >= 2 && POSTMODIFIER.test(predicate));
}

// Front and back matter by what it is called: a guide that opens with one teaches the book's wrapping.
const MATTER =
  /^(contents|table of contents|preface|foreword|acknowledge?ments?|copyright|licen[cs]e|about the authors?|dedication|index|references|bibliography|glossary|colophon|appendix|errata|credits|contributors|further reading)\b/i;
const MATTER_TEXT = /©|\bcopyright\b|\ball rights reserved\b|\bisbn\b|\bpermission is granted\b|\bprinted in\b/i;

/** Whether a heading names front or back matter ("Preface", "3 References", "Chapter 9: Index"). */
export const matterHeading = (heading: string) =>
  MATTER.test(heading.replace(/^chapter \d+:\s*/i, "").replace(/^[\d.\s]+/, ""));

/** Why a study guide does not open with what the document is about, or null. */
export function guideProblem(guide: StudyGuide): string | null {
  const first = guide.sections[0];
  if (!first) return null;
  if (matterHeading(first.heading))
    return `the guide opens with front or back matter ("${first.heading}"); open with what the document is about`;
  const text =
    "body" in first
      ? first.body
      : "bullets" in first
        ? first.bullets.join(" ")
        : first.items.map((i) => i.definition).join(" ");
  if (MATTER_TEXT.test(text))
    return "the guide's first section quotes front or back matter; open with what the document is about";
  return null;
}

/** Whether an item's text quotes front or back matter (a copyright or licence notice, an ISBN). */
export const quotesMatter = (text: string) => MATTER_TEXT.test(text);

/** A guide that opens with what the document is about: sections of front or back matter before it are left out. */
export function openingOnBody(guide: StudyGuide): StudyGuide {
  let sections = guide.sections;
  while (sections.length > 2 && guideProblem({ ...guide, sections })) sections = sections.slice(1);
  return { ...guide, sections };
}
