/**
 * Facts a question can be asked about: figures (a count, a percentage, a factor, a year) and
 * causes the text states outright ("X leads to Y", "Y because X"). Only explicit wording counts;
 * a guessed relation would make a question whose "right" answer the text does not give.
 */
import { quotesRunDependentCode } from "./run-dependent.ts";
import { taggedDoc, taggedSentences } from "./tagging.ts";
import { pointsElsewhere, type Sentence, wordCount } from "./text.ts";

export interface NumberFact {
  sentence: Sentence;
  /** The figure as written, unit included ("23%", "2.5x", "1998", "25"). */
  value: string;
  form: "percent" | "factor" | "year" | "integer" | "decimal";
}

export interface CauseFact {
  sentence: Sentence;
  cause: string;
  effect: string;
  /** How the text joins them, to phrase the question ("leads to", "because"). */
  link: "leads to" | "results in" | "causes" | "because" | "allows" | "enables";
}

// A figure standing for a quantity: a percentage, a factor, a year after a preposition, or a count before a plural noun.
const FIGURE =
  /(?<![\p{L}\p{N}.,-])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(\s?%|\s?(?:x|×)(?![\p{L}\p{N}])|\s+(?:percent|times)\b)?(?=(\s+[\p{Ll}]+s\b)|[\s.,;:)]|$)/gu;

function formOf(
  value: string,
  unit: string | undefined,
  following: string | undefined,
  before: string,
): NumberFact["form"] | null {
  if (unit && /%|percent/.test(unit)) return "percent";
  if (unit) return "factor";
  const n = Number(value.replace(/,/g, ""));
  if (/^(1[5-9]|20)\d\d$/.test(value) && /\b(in|since|by|from|until|of|to|year)\s*$/i.test(before)) return "year";
  if (!following) return null;
  if (value.includes(".")) return "decimal";
  return n >= 2 ? "integer" : null;
}

// A sentence full of figures ("65.2% vs. 42.9% … 41.5%") makes a blank any of them could fill.
const MAX_FIGURES = 3;

/**
 * Figures worth asking about, at most one per sentence (the first), never a section or figure
 * number, nor one run's output of code that draws random numbers or reads the clock or the machine.
 */
export function numberFacts(sentences: Sentence[]): NumberFact[] {
  const out: NumberFact[] = [];
  for (const s of sentences) {
    if (
      pointsElsewhere(s.text) ||
      (s.text.match(/\d+(?:\.\d+)?/g)?.length ?? 0) > MAX_FIGURES ||
      quotesRunDependentCode(s.text)
    )
      continue;
    for (const m of s.text.matchAll(FIGURE)) {
      const before = s.text.slice(0, m.index);
      // "Section 4", "Figure 3", "[12]", "version 2", "Python 3": labels, not quantities.
      if (
        /\b(section|sec|chapter|figure|fig|table|appendix|equation|eq|version|step|line|page|level|ES|v|no|number)\.?\s*$/i.test(
          before,
        ) ||
        /[[(]\s*$/.test(before)
      )
        continue;
      const form = formOf(m[1]!, m[2], m[3], before);
      if (!form) continue;
      out.push({ sentence: s, value: `${m[1]}${m[2] ?? ""}`.trim(), form });
      break;
    }
  }
  return out;
}

// Present-tense singular links only, so a question can ask "what does X lead to?".
const CAUSAL: { re: RegExp; link: CauseFact["link"]; causeFirst: boolean; reasonFirst?: boolean }[] = [
  { re: /^(.{12,}?)\s+leads to\s+(.{8,})$/i, link: "leads to", causeFirst: true },
  { re: /^(.{12,}?)\s+results in\s+(.{8,})$/i, link: "results in", causeFirst: true },
  { re: /^(.{12,}?)\s+causes\s+(.{8,})$/i, link: "causes", causeFirst: true },
  { re: /^(.{12,}?)\s+allows\s+(.{8,})$/i, link: "allows", causeFirst: true },
  { re: /^(.{12,}?)\s+enables\s+(.{8,})$/i, link: "enables", causeFirst: true },
  // In lower case only: a capital "Because" inside a sentence opens the next one, whose reason it gives.
  { re: /^(.{16,}?),?\s+because\s+(?!of\b)(.{8,})$/, link: "because", causeFirst: false },
  { re: /^Because\s+(?!of\b)([^,]{8,}?),\s+(\p{Ll}.{15,})$/u, link: "because", causeFirst: false, reasonFirst: true },
];
// Two sentences run together ("… / n Because the numerator …, the result …"): no reason joins their halves.
const RUN_ON = /\S\s+(?:Because|Since|So|Thus|Therefore|Hence)\s/;
// The cause or effect must be a phrase of its own, not a pronoun pointing at another sentence.
const VAGUE = /^(this|that|it|these|those|they|which|such)\b/i;

/** Whether a clause starts with its subject rather than a connective or an aside ("Finally, …", "In particular …", "Note that …"). */
function opensWithSubject(clause: string): boolean {
  const first = taggedSentences(clause)[0]?.terms[0]?.tags ?? [];
  return (
    !["Adverb", "Preposition", "Conjunction", "Verb", "Pronoun"].some((t) => first.includes(t)) &&
    !/^(the key|the main|one|another)\b/i.test(clause)
  );
}

/** A clause with a verb of its own: a tense, a copula or a modal, not a participle ("so-called"). */
const finiteClause = (clause: string) => {
  const d = taggedDoc(clause);
  return d.has("(#Copula|#PastTense|#Modal)") || d.match("#PresentTense").not("(#Gerund|#Infinitive)").found;
};

/** Cause-and-effect sentences, with the two halves as the text words them. */
export function causeFacts(sentences: Sentence[]): CauseFact[] {
  const out: CauseFact[] = [];
  for (const s of sentences) {
    if (pointsElsewhere(s.text) || RUN_ON.test(s.text)) continue;
    const text = s.text.replace(/[.!]+$/, "");
    for (const { re, link, causeFirst, reasonFirst } of CAUSAL) {
      const m = re.exec(text);
      if (!m) continue;
      const [first, second] = [m[1]!.trim(), m[2]!.trim()];
      const [cause, effect] = causeFirst || reasonFirst ? [first, second] : [second, first];
      // The effect is quoted alone: one opening on a pronoun ("This is a choice we made") names nothing.
      if (VAGUE.test(cause) || VAGUE.test(effect) || /[;:()]/.test(cause) || /[()]/.test(effect)) continue;
      // A reason is a clause of its own, with a verb: "because of the cost" or a noun phrase states none.
      if (link === "because" && !finiteClause(cause)) continue;
      // "X leads to Y" is asked as "what does X lead to?": X must be a noun phrase, not a clause.
      if (
        causeFirst &&
        (wordCount(cause) > 8 ||
          // "In other losing states, any move leads to …": an opening phrase is no subject to ask about.
          /,/.test(cause) ||
          !opensWithSubject(cause) ||
          /\b(that|which|who|whom|whose)\b/i.test(cause) ||
          taggedDoc(cause).match("(#Pronoun|#Verb)").not("#Gerund").found)
      )
        continue;
      // "Y because X" is asked about Y: a statement of its own, not one continuing the last ("Also, …").
      if (
        !causeFirst &&
        (!/^[\p{Lu}]/u.test(effect) || wordCount(cause) > 25 || !opensWithSubject(effect)) &&
        !(reasonFirst && opensWithSubject(effect))
      )
        continue;
      // "because" gives the reason of the clause right before it: Y must be that clause alone, not a list
      // ("…: 2 is an integer, and 'Hello' is a string, so-called because …", where it explains a name).
      // Nor two clauses joined by ", and" ("the rich did this …, and the poor did it because …").
      if (
        !causeFirst &&
        (/[;:]|,\s+(?:and|but|or|while|whereas)\s/.test(effect) || !finiteClause(effect.split(/,\s+/).at(-1)!))
      )
        continue;
      out.push({ sentence: s, cause, effect, link });
      break;
    }
  }
  return out;
}
