/**
 * The host's side of a built-in podcast: questions about a chapter's terms and short reactions to
 * the guest's answers. Terms come as the chapter writes them ("trace trees", "TraceMonkey", "native
 * code"), so each question is built for the term's number (is/are, it/they) and kind (a count noun
 * takes "a"/"an", a plural, mass noun or name takes none), judged from how the chapter itself uses it.
 */
import { taggedDoc } from "./tagging.ts";

export interface Term {
  /** As the chapter writes it. */
  text: string;
  plural: boolean;
  /** A singular count noun ("a trace"), as opposed to a plural, a mass noun ("native code") or a name. */
  countable: boolean;
  /** The term as the subject or object of a question: "a trace", "trace trees", "native code", "TraceMonkey". */
  np: string;
}

const DETERMINER =
  /^(the|this|that|these|those|each|every|its|their|our|his|her|any|no|another|one|which|whose|your|my|same)$/i;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "a" or "an" by the sound of the word: acronyms by their letters' names, a few spelling exceptions. */
export function indefiniteArticle(word: string): "a" | "an" {
  if (/^[A-Z]{2,}\b/.test(word)) return /^[AEFHILMNORSX]/.test(word) ? "an" : "a";
  if (/^(hour|honest|honou?r|heir)/i.test(word)) return "an";
  if (/^(uni|use|usu|uti|ute|eu|ewe|one|once|ubiq|ura|uro)/i.test(word)) return "a";
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

function isPlural(text: string): boolean {
  const doc = taggedDoc(`the ${text}`);
  if (doc.nouns().isPlural().found) return true;
  // The tagger reads some plurals in isolation as verbs ("side exits"); a regular -s plural is one.
  const last = text.split(/\s+/).at(-1) ?? "";
  return /[^s]s$/i.test(last) && !/(us|is|ics|ss)$/i.test(last) && !doc.has("#Uncountable");
}

/** Words that end the search for a term's determiner: what comes before them belongs to another phrase. */
const PHRASE_BOUNDARY =
  /^(of|in|on|at|to|for|with|by|from|into|onto|over|under|through|about|as|than|and|or|but|if|when|while|that|which|who|is|are|was|were|be|been|being|has|have|had|can|could|will|would|may|might|must|should|not|also|only)$/i;

/**
 * How often the chapter puts "a"/"an", another determiner, or nothing before the term, looking
 * past adjectives ("an alternative compilation technique") but not past a preposition or verb.
 */
function articleUse(text: string, chapter: string) {
  const use = { indefinite: 0, definite: 0, bare: 0 };
  const pattern = new RegExp(
    `((?:[\\p{L}'’-]+\\s+){0,3})(?<![\\p{L}\\p{N}])${escapeRegExp(text)}(?![\\p{L}\\p{N}])`,
    "giu",
  );
  for (const m of chapter.matchAll(pattern)) {
    let found: "indefinite" | "definite" | "bare" = "bare";
    for (const word of (m[1] ?? "").trim().split(/\s+/).filter(Boolean).reverse()) {
      if (/^an?$/i.test(word)) found = "indefinite";
      else if (DETERMINER.test(word)) found = "definite";
      else if (!PHRASE_BOUNDARY.test(word)) continue;
      break;
    }
    use[found]++;
  }
  return use;
}

/**
 * The term's grammar, from how `chapter` uses it. A term that opens a definition ("Trace trees are…")
 * loses the capital the sentence gave it, unless the chapter also writes it capitalised mid-sentence
 * (a name: "Java").
 */
export function termOf(raw: string, chapter: string): Term {
  const lower = raw.charAt(0).toLowerCase() + raw.slice(1);
  const capitalisedMidSentence = new RegExp(
    `(?<!^|[.!?:]\\s+)(?<![\\p{L}\\p{N}])${escapeRegExp(raw)}(?![\\p{L}\\p{N}])`,
    "u",
  );
  const text = raw !== lower && !/[A-Z]/.test(raw.slice(1)) && !capitalisedMidSentence.test(chapter) ? lower : raw;
  // A name when its head (last word) is one: "Google's V8", "TraceMonkey"; not "JavaScript implementation".
  const name = /[A-Z]/.test(text.split(/\s+/).at(-1) ?? "");
  const plural = !name && isPlural(text);
  const use = articleUse(text, chapter);
  const countable = !name && !plural && (use.indefinite > 0 || use.definite >= use.bare);
  // Some names take "the" ("the FFI", "the VM"): keep it when the chapter mostly does.
  const definiteName = name && !/['’]s\b/.test(text) && use.definite > use.bare;
  return {
    text,
    plural,
    countable,
    np: countable ? `${indefiniteArticle(text)} ${text}` : definiteName ? `the ${text}` : text,
  };
}

/** The term as the answer mentions it, with the answer's own determiner: "the trace monitor", "guards". */
export function mentionOf(term: Term, answer: string): string | null {
  const m = new RegExp(
    `(?:\\b(the|a|an|this|that|these|those|its|their|each|every|your)\\s+)?(?<![\\p{L}\\p{N}])(${escapeRegExp(term.text)})(?![\\p{L}\\p{N}])`,
    "iu",
  ).exec(answer);
  if (!m?.[2]) return null;
  const det = m[1]?.toLowerCase();
  const surface = term.text === m[2].toLowerCase() ? term.text : m[2];
  if (det === "a" || det === "an") return `${det} ${surface}`;
  if (det || term.countable) return `the ${surface}`;
  return surface;
}

const be = (t: Term) => (t.plural ? "are" : "is");
const does = (t: Term) => (t.plural ? "do" : "does");
const it = (t: Term) => (t.plural ? "they" : "it");

/** Questions for a term the guest can define. */
const DEFINE: ((t: Term) => string)[] = [
  (t) => `What ${be(t)} ${t.np}, exactly?`,
  (t) => `So what ${be(t)} ${t.np}?`,
  (t) => `What ${be(t)} ${t.np}, and why ${does(t)} ${it(t)} matter?`,
  (t) => `Let's pin down a term. What ${be(t)} ${t.np}?`,
];

/** Questions for a term the guest can say things about but not define. */
const EXPLORE: ((t: Term) => string)[] = [
  (t) => `How ${does(t)} ${t.np} work?`,
  (t) => `What role ${does(t)} ${t.np} play here?`,
  (t) => `Where ${does(t)} ${t.np} come in?`,
  (t) => `Why ${does(t)} ${t.np} matter here?`,
  (t) => `Tell me about ${t.countable ? `the ${t.text}` : t.np}.`,
];

/** Questions about a section of the chapter, by its heading (a title: no agreement to get wrong). */
const SECTION: ((heading: string) => string)[] = [
  (h) => `Let's move on to ${h}. What happens there?`,
  (h) => `The chapter also covers ${h}. What should listeners know about it?`,
  (h) => `What's the main idea behind ${h}?`,
  (h) => `Next up: ${h}. Can you walk us through it?`,
];

/** Reactions that pick up something the guest just said. */
const PICK_UP: ((np: string) => string)[] = [
  (np) => `Good point about ${np}.`,
  (np) => `So it really comes down to ${np}.`,
  (np) => `That's a helpful way to think about ${np}.`,
  (np) => `I hadn't thought about ${np} that way.`,
  (np) => `Interesting, I wouldn't have expected ${np} to matter that much.`,
  (np) => `Right, ${np}. That makes sense.`,
  (np) => `Okay, so there's ${np} in the mix as well.`,
  (np) => `That helps. I can picture ${np} now.`,
  (np) => `I like that you brought up ${np}.`,
  (np) => `Huh, ${np}. I wouldn't have guessed.`,
];
const TO_NUMBERS = ["Those numbers are striking.", "That's quite a difference.", "Those are concrete numbers, thanks."];
const PLAIN = ["I see.", "That makes sense.", "Okay, got it.", "Fair enough.", "Interesting."];

/**
 * Interjections that split a long answer. Open ones on purpose: the rest of the answer is the
 * chapter's next sentence, which need not be a reason or a drawback.
 */
const ASKS_MORE = [
  "How does that play out in practice?",
  "Can you unpack that a little?",
  "What follows from that?",
  "Go on, what else is there?",
  "And what does that mean in practice?",
  "Is there more to it?",
];

/**
 * Deterministic variety: each list is walked from a seeded offset, so consecutive picks from a list
 * differ, and the same chapter always gets the same script.
 */
export class Host {
  private readonly turns = new Map<unknown, number>();
  /** What the last reaction picked up, so the next one picks up something else. */
  private lastMention: string | null = null;

  constructor(private readonly seed: number) {}

  private pick<T>(list: readonly T[]): T {
    const n = this.turns.get(list) ?? 0;
    this.turns.set(list, n + 1);
    return list[(this.seed + n) % list.length]!;
  }

  question(term: Term, defines: boolean): string {
    return capitalise(this.pick(defines ? DEFINE : EXPLORE)(term));
  }

  sectionQuestion(heading: string): string {
    return this.pick(SECTION)(heading);
  }

  /**
   * A reaction to `answer`: to its numbers, else picking up one of `terms` it mentions (preferably
   * not the one just asked about, and the longer, more specific one), else a plain acknowledgement.
   */
  reaction(answer: string, terms: readonly Term[], asked?: Term): string {
    if (/\d+(\.\d+)?\s*(x|%|percent|times)\b|\b\d+x\b/i.test(answer)) return this.pick(TO_NUMBERS);
    const mentioned = (t: Term) => mentionOf(t, answer);
    const others = terms
      .filter((t) => t !== asked)
      .map(mentioned)
      .filter((m): m is string => m !== null);
    const fresh = others.filter((m) => m.toLowerCase() !== this.lastMention);
    const mention = fresh.sort((a, b) => b.split(" ").length - a.split(" ").length)[0] ?? (asked && mentioned(asked));
    this.lastMention = mention ? mention.toLowerCase() : null;
    return mention ? this.pick(PICK_UP)(mention) : this.pick(PLAIN);
  }

  /** A prompt for the rest of an answer. */
  followUp(): string {
    return this.pick(ASKS_MORE);
  }
}

/** Whether an extracted phrase names a thing (ends in a noun), and so can be asked about. */
export function namesAThing(phrase: string): boolean {
  return taggedDoc(`the ${phrase}`).terms().last().has("#Noun");
}

/** "a, b and c". */
export function spokenList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
