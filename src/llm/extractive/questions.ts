/**
 * Multiple-choice questions of several kinds, each from one sentence of a chapter: the meaning of
 * a defined term, the term for a definition, what an abbreviation stands for, a figure, a stated
 * cause or effect, and, last, a sentence with one domain term blanked. Choices are of the answer's
 * kind (distractors.ts), shuffled, exactly one right; the explanation quotes the sentence and says
 * where it is. Nothing is asked whose answer its prompt gives away.
 */

import { getOrCreate } from "../../util.ts";
import { answerLeaks, nearDuplicate, promptStems } from "../artefacts/checks.ts";
import type { McqQuestion } from "../schemas.ts";
import type { Definition } from "./definitions.ts";
import { definitionDistractors, numberDistractors, shuffled, termDistractors } from "./distractors.ts";
import { phraseRuns } from "./keyphrases.ts";
import type { ChapterMaterial } from "./material.ts";
import { containsPhrase, escapeRegExp, hash, type Sentence, wordCount } from "./text.ts";

export const BLANK = "_____";

export type QuestionKind = "definition" | "term" | "acronym" | "figure" | "cause" | "cloze";

export interface Candidate {
  question: McqQuestion;
  kind: QuestionKind;
  sentence: Sentence;
  /** What is being tested (a term, a figure…): one question per fact and course. */
  fact: string;
}

/** What the whole course offers as distractors. */
export interface CoursePool {
  terms: string[];
  predicates: string[];
  expansions: string[];
  causes: string[];
  effects: string[];
}

export function poolOf(materials: ChapterMaterial[]): CoursePool {
  const defs = materials.flatMap((m) => m.definitions);
  return {
    terms: [
      ...new Set(
        materials.flatMap((m) => [
          ...m.phrases.map((p) => p.phrase),
          ...m.definitions.filter((d) => d.kind !== "acronym").map((d) => d.term),
        ]),
      ),
    ],
    predicates: defs.filter((d) => d.kind !== "acronym").map((d) => choiceText(d.predicate)),
    expansions: defs.filter((d) => d.kind === "acronym").map((d) => d.predicate),
    causes: materials.flatMap((m) => m.causes.map((c) => choiceText(c.cause))),
    effects: materials.flatMap((m) => m.causes.map((c) => choiceText(c.effect))),
  };
}

/** A definition or clause short enough to read as a choice: cut at a clause boundary past 20 words. */
export function choiceText(text: string): string {
  const t = text.replace(/[.!]+$/, "").trim();
  if (wordCount(t) <= 20) return t;
  const cut = /^(.{30,}?)(?:,\s+(?:which|where|and|but|so|while|although)\b|;|\s+—\s+|\s+\()/.exec(t);
  if (cut && wordCount(cut[1]!) <= 24) return cut[1]!;
  return `${t.split(/\s+/).slice(0, 20).join(" ")}…`;
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A sentence-initial capital is not part of a common phrase ("Traces allow …" → "traces"); a name keeps its own. */
export const inlineForm = (s: string) =>
  /^\p{Lu}\p{Ll}/u.test(s) && !/\p{Lu}/u.test(s.slice(1).split(/\s+/)[0] ?? "") && !/^\p{Lu}\p{Ll}+\s+\p{Lu}/u.test(s)
    ? s.charAt(0).toLowerCase() + s.slice(1)
    : s;

// A question quotes whole sentences only: one that opens mid-thought ("(Note that …", "and so …") or
// trails off is a fragment of its paragraph.
// A caption ("Table 2: …", "Figure 1: …") labels a picture the learner cannot see.
const whole = (s: Sentence) =>
  /^["“‘]?[\p{Lu}\d]/u.test(s.text) &&
  /[.!?]["”’)]?$/.test(s.text) &&
  !/^(table|figure|fig\.|listing|algorithm)\s*\d+[.:]/i.test(s.text);

function build(
  m: ChapterMaterial,
  s: Sentence,
  kind: QuestionKind,
  fact: string,
  prompt: string,
  answer: string,
  wrong: string[],
): Candidate | null {
  if (wrong.length < 2 || answerLeaks(prompt, answer) || !whole(s) || !m.quotable(s)) return null;
  const seed = hash(prompt);
  const { choices, answer: at } = shuffled(answer, wrong, seed);
  return {
    kind,
    sentence: s,
    fact: `${kind === "cloze" || kind === "term" || kind === "definition" ? "term" : kind}:${fact.toLowerCase()}`,
    question: { type: "mcq", prompt, choices, answer: at, explanation: `The source says: “${s.text}” (${m.cite(s)})` },
  };
}

function definitionQuestions(m: ChapterMaterial, pool: CoursePool, d: Definition): Candidate[] {
  const out: (Candidate | null)[] = [];
  const predicate = choiceText(d.predicate);
  if (d.kind === "acronym") {
    const wrong = pool.expansions.filter((e) => e !== d.predicate && !answerLeaks(e, d.term)).slice(0, 3);
    out.push(build(m, d.sentence, "acronym", d.term, `What does ${d.term} stand for?`, d.predicate, wrong));
    return out.filter((c): c is Candidate => c !== null);
  }
  const subject = d.article ? `${d.article} ${d.term}` : inlineForm(d.term);
  const verb = /^(refers? to|means|denotes?)$/.test(d.copula)
    ? `does ${subject} ${d.copula
        .replace(/^refers to$/, "refer to")
        .replace(/^means$/, "mean")
        .replace(/^denotes$/, "denote")}`
    : `${d.copula === "are" ? "are" : "is"} ${subject}`;
  const seed = hash(d.sentence.text);
  out.push(
    build(
      m,
      d.sentence,
      "definition",
      d.term,
      `What ${verb}?`,
      predicate,
      definitionDistractors(predicate, d.term, pool.predicates, seed),
    ),
  );
  out.push(
    build(
      m,
      d.sentence,
      "term",
      d.term,
      `Which term does the course describe as “${predicate}”?`,
      d.term,
      termDistractors(d.term, pool.terms, d.sentence.text, seed),
    ),
  );
  return out.filter((c): c is Candidate => c !== null);
}

const blanked = (text: string, span: string) =>
  text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(span)}(?![\\p{L}\\p{N}])`, "u"), BLANK);

function figureQuestions(m: ChapterMaterial): Candidate[] {
  return m.figures
    .map((f) => {
      const prompt = `Complete the statement: ${blanked(f.sentence.text, f.value)}`;
      if (!prompt.includes(BLANK)) return null;
      return build(
        m,
        f.sentence,
        "figure",
        `${f.value}@${f.sentence.text}`,
        prompt,
        f.value,
        numberDistractors(f.value, f.form, f.sentence.text, hash(prompt)),
      );
    })
    .filter((c): c is Candidate => c !== null);
}

/** The verb of a causal link as a question asks it ("what does X lead to?"). */
const CAUSE_VERB = {
  "leads to": "lead to",
  "results in": "result in",
  causes: "cause",
  allows: "allow",
  enables: "enable",
} as const;

function causeQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  return m.causes
    .map((c) => {
      const seed = hash(c.sentence.text);
      if (c.link === "because") {
        const answer = choiceText(c.cause);
        const prompt = `What reason does the course give for this: “${upperFirst(choiceText(c.effect))}”?`;
        const wrong = pool.causes.filter((p) => p !== answer && !containsPhrase(c.sentence.text, p));
        return build(m, c.sentence, "cause", c.cause, prompt, answer, pickSome(wrong, seed));
      }
      const subject = inlineForm(c.cause);
      const answer = choiceText(c.effect);
      const wrong = pool.effects.filter((p) => p !== answer && !containsPhrase(c.sentence.text, p));
      return build(
        m,
        c.sentence,
        "cause",
        c.effect,
        `According to the course, what does ${subject} ${CAUSE_VERB[c.link]}?`,
        answer,
        pickSome(wrong, seed),
      );
    })
    .filter((c): c is Candidate => c !== null);
}

const pickSome = (items: string[], seed: number) =>
  [...new Set(items)]
    .map((t, i) => ({ t, k: hash(`${seed}:${i}`) }))
    .sort((a, b) => a.k - b.k)
    .slice(0, 3)
    .map((x) => x.t);

/**
 * Sentence-term pairs for clozes: the term is a whole noun phrase of the sentence (blanking
 * "JavaScript" out of "the SpiderMonkey JavaScript interpreter" leaves a riddle), written once in it.
 */
function clozeQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  const out: Candidate[] = [];
  const runs = new Map<number, string[]>();
  const phrasesOf = (s: Sentence) => {
    const r = getOrCreate(runs, s.index, () => phraseRuns([s.text])[0]!.map((run) => run.join(" ").toLowerCase()));
    return r;
  };
  for (const p of m.phrases) {
    for (const s of m.ranked) {
      const found = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(p.phrase)}(?![\\p{L}\\p{N}])`, "giu");
      const spans = s.text.match(found);
      // Once in the sentence, or the blank would be answered by the other mention.
      if (spans?.length !== 1 || wordCount(s.text) < 8 || !phrasesOf(s).includes(spans[0]!.toLowerCase())) continue;
      const prompt = `Complete the statement: ${blanked(s.text, spans[0]!)}`;
      const c = build(
        m,
        s,
        "cloze",
        p.phrase,
        prompt,
        spans[0]!,
        termDistractors(spans[0]!, pool.terms, s.text, hash(prompt)),
      );
      if (c) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}

/** Every question the chapter can supply, the preferred kinds first, each kind by sentence rank. */
export function mcqCandidates(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  const rank = new Map(m.ranked.map((s, i) => [s.index, i]));
  const byRank = (a: Candidate, b: Candidate) => (rank.get(a.sentence.index) ?? 0) - (rank.get(b.sentence.index) ?? 0);
  const kinds = [
    m.definitions.flatMap((d) => definitionQuestions(m, pool, d)).sort(byRank),
    figureQuestions(m).sort(byRank),
    causeQuestions(m, pool).sort(byRank),
    clozeQuestions(m, pool),
  ];
  // Kinds in turn, so a quiz mixes them rather than spending itself on the first.
  const out: Candidate[] = [];
  for (let i = 0; kinds.some((k) => i < k.length); i++) {
    for (const k of kinds) {
      const c = k[i];
      if (c) out.push(c);
    }
  }
  return out;
}

/** What a course has already asked: sentences, facts and prompts, so nothing is asked twice. */
export class Asked {
  private sentences = new Set<string>();
  // A document that says one thing twice in other words ("Although DPR performs better than BM25 …")
  // would otherwise give two questions on one fact.
  private sentenceStems: Set<string>[] = [];
  private facts = new Set<string>();
  private prompts: Set<string>[] = [];

  static from(questions: { prompt: string; explanation?: string }[]): Asked {
    const asked = new Asked();
    for (const q of questions) {
      asked.prompts.push(promptStems(q.prompt));
      const quoted = /“(.+?)” \(/.exec(q.explanation ?? "")?.[1];
      if (quoted) {
        asked.sentences.add(quoted);
        asked.sentenceStems.push(promptStems(quoted));
      }
    }
    return asked;
  }

  allows(sentence: string, fact: string, prompt: string): boolean {
    const stems = promptStems(prompt);
    if (
      sentence &&
      (this.sentences.has(sentence) || this.sentenceStems.some((p) => nearDuplicate(p, promptStems(sentence))))
    )
      return false;
    return !(fact && this.facts.has(fact)) && !this.prompts.some((p) => nearDuplicate(p, stems));
  }

  add(sentence: string, fact: string, prompt: string): void {
    if (sentence) this.sentences.add(sentence);
    if (sentence) this.sentenceStems.push(promptStems(sentence));
    if (fact) this.facts.add(fact);
    this.prompts.push(promptStems(prompt));
  }
}

/** Up to `count` candidates none of which repeats a sentence, a fact or a prompt already asked. */
function pickQuestions(candidates: Candidate[], count: number, asked: Asked): Candidate[] {
  const out: Candidate[] = [];
  for (const c of candidates) {
    if (out.length >= count) break;
    if (!asked.allows(c.sentence.text, c.fact, c.question.prompt)) continue;
    asked.add(c.sentence.text, c.fact, c.question.prompt);
    out.push(c);
  }
  return out;
}

/** A chapter's quiz: `count` questions of mixed kinds. */
export function quizOf(m: ChapterMaterial, pool: CoursePool, count = 5): McqQuestion[] {
  return pickQuestions(mcqCandidates(m, pool), count, new Asked()).map((c) => c.question);
}
