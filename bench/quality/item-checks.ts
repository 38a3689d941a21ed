/**
 * The item checks of the item-checks report (items.ts), written here rather than borrowed from the
 * generator, so a generator that breaks its own rules still fails them. Each reads an item as a
 * teacher would:
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
  return new RegExp(`\\b(?:called|known as|termed|we call)\\s+(?:an?\\s+|the\\s+)?["“]?${term}\\b`, "i").test(
    card.back,
  );
}
