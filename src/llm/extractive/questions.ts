/**
 * Multiple-choice questions of several kinds, each from one sentence of a chapter: the meaning of
 * a defined term, the term for a definition, what an abbreviation stands for, which statement
 * about a term the course makes, a stated cause or effect, the step after another in a procedure
 * the text lists, a figure, and a sentence with one domain term blanked. Choices are of the answer's
 * kind (distractors.ts), shuffled, exactly one right; the explanation quotes the sentence and says
 * where it is. Nothing is asked whose answer its prompt gives away, and every candidate passes the
 * item checks (artefacts/item-checks.ts) or the next one is taken.
 */

import { hasLostText } from "../../ingest/document.ts";
import { getOrCreate } from "../../util.ts";
import { answerLeaks, nearDuplicate, promptStems } from "../artefacts/checks.ts";
import {
  BLANK,
  choiceKind,
  clauseFragment,
  cutQuestionProblems,
  cutShort,
  ItemSource,
  objectProblem,
  readsInput,
  roleProblem,
  sameWordClass,
} from "../artefacts/item-checks.ts";
import { type McqQuestion, QUIZ_SIZE } from "../schemas.ts";
import { leansOnPrevious } from "./back-reference.ts";
import type { Definition } from "./definitions.ts";
import {
  definitionDistractors,
  numberDistractors,
  shuffled,
  swapped,
  termDistractors,
  wholeTerm,
} from "./distractors.ts";
import { needsExhibit } from "./exhibits.ts";
import { phraseRuns } from "./keyphrases.ts";
import type { ChapterMaterial } from "./material.ts";
import { nounPhrase } from "./phrase-forms.ts";
import { QUIZ_KINDS } from "./prompt-kinds.ts";
import { type RoleFact, roleFacts } from "./roles.ts";
import { sessionLines } from "./sessions.ts";
import { procedures } from "./steps.ts";
import { setsTask } from "./tasks.ts";
import { containsPhrase, escapeRegExp, hash, pointsElsewhere, type Sentence, wordCount } from "./text.ts";

export { BLANK };

export type QuestionKind =
  | "definition"
  | "term"
  | "acronym"
  | "statement"
  | "role"
  | "agent"
  | "steps"
  | "figure"
  | "cause"
  | "code"
  | "cloze";
/** Kinds that blank a sentence: at most this share of a quiz. */
const BLANK_KINDS = new Set<QuestionKind>(["figure", "cloze"]);
export const isBlank = (c: Candidate) => BLANK_KINDS.has(c.kind);
/**
 * The kind a learner sees: a blanked figure and a blanked term are both fill-in-the-blank, and both
 * "Which term does the course …" prompts ask for a term. A quiz mixes kinds as the learner reads
 * them, so a chapter giving only statements, figures and blanks counts two kinds, not three.
 */
const shownKind = (kind: QuestionKind): string => (BLANK_KINDS.has(kind) ? "blank" : kind === "agent" ? "term" : kind);
const MAX_BLANK_SHARE = 0.4;
// A course may drop a chapter's question that repeats another chapter's, down to three (courses/store.ts):
// blanks are counted against that, so the share holds whichever questions go.
const KEPT_AT_LEAST = 3;

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
  /** What the course's terms do (the objects of their verbs). */
  roles: string[];
  /** What the interactive sessions the course shows printed. */
  outputs: string[];
  /** The course's text, which every choice offered as a term must be written in. */
  source: ItemSource;
}

export function poolOf(materials: ChapterMaterial[]): CoursePool {
  const defs = materials.flatMap((m) => m.definitions);
  // A clause cut from its sentence is offered as no choice: a reader spots it for wrong by its form.
  const whole = (choices: string[]) => choices.filter((c) => !clauseFragment(c));
  return {
    source: new ItemSource(
      materials.flatMap((m) => [m.chapter.content, ...(m.chapter.sources ?? []).map((s) => s.text)]),
    ),
    terms: [
      ...new Set(
        materials.flatMap((m) => [
          ...m.phrases.map((p) => p.phrase),
          ...m.definitions.filter((d) => d.kind !== "acronym").map((d) => d.term),
        ]),
      ),
    ],
    predicates: whole(defs.filter((d) => d.kind !== "acronym").map((d) => choiceText(d.predicate))),
    // A glossary that spells an abbreviation out twice offers it once among the choices.
    expansions: [...new Set(defs.filter((d) => d.kind === "acronym").map((d) => d.predicate))],
    causes: whole(materials.flatMap((m) => m.causes.map((c) => choiceText(c.cause)))),
    effects: whole(materials.flatMap((m) => m.causes.map((c) => choiceText(c.effect)))),
    roles: whole(materials.flatMap((m) => m.roles.map((r) => choiceText(r.object)))),
    outputs: materials.flatMap((m) => sessionLines(m.chapter.content).map((l) => l.output)),
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
// A caption ("Table 2: …", "Figure 1: …") labels a picture the learner cannot see. A question the
// text asks ("How can we compare two graphs …?") states nothing to be true or to complete. A comma
// after a space marks a hole where the source had something the text lost ("another unit than ,
// had you": a formula set as a picture); so does the mark ingest leaves where a glyph had no text. One
// that announces what follows it ("… as follows.") is empty without the code or list an item does not show.
const whole = (s: Sentence) =>
  /^["“‘]?[\p{Lu}\d]/u.test(s.text) &&
  /[.!]["”’)]?$/.test(s.text) &&
  !/\s[,;]/.test(s.text) &&
  !needsExhibit(s.text) &&
  !hasLostText(s.text) &&
  !/^(table|figure|fig\.|listing|algorithm)\s*\d+[.:]/i.test(s.text);

function build(
  m: ChapterMaterial,
  pool: CoursePool,
  s: Sentence,
  kind: QuestionKind,
  fact: string,
  prompt: string,
  answer: string,
  wrong: string[],
): Candidate | null {
  if (wrong.length < 2 || answerLeaks(prompt, answer) || !whole(s) || !m.quotable(s)) return null;
  // An exercise ("Write a function that …") is work to do, not a fact to test, and a sentence leaning
  // on the one before ("Here we …", "This is …") quotes half a thought; a step of a procedure is neither.
  if (kind !== "steps" && (setsTask(s.text) || leansOnPrevious(s.text))) return null;
  const seed = hash(prompt);
  const { choices, answer: at } = shuffled(answer, wrong, seed);
  const question: McqQuestion = {
    type: "mcq",
    prompt,
    choices,
    answer: at,
    explanation: `The source says: “${s.text}” (${m.cite(s)})`,
  };
  if (cutQuestionProblems(question, pool.source).length > 0) return null;
  return {
    kind,
    sentence: s,
    fact: `${["cloze", "term", "definition", "statement", "role", "agent"].includes(kind) ? "term" : kind}:${fact.toLowerCase()}`,
    question,
  };
}

function definitionQuestions(m: ChapterMaterial, pool: CoursePool, d: Definition): Candidate[] {
  const out: (Candidate | null)[] = [];
  const predicate = choiceText(d.predicate);
  // A definition cut to fit a choice ("… organized for the collection, processing,") no longer says what the term is.
  if (d.kind !== "acronym" && cutShort(predicate)) return [];
  if (d.kind === "acronym") {
    const wrong = pool.expansions.filter((e) => e !== d.predicate && !answerLeaks(e, d.term)).slice(0, 3);
    out.push(build(m, pool, d.sentence, "acronym", d.term, `What does ${d.term} stand for?`, d.predicate, wrong));
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
      pool,
      d.sentence,
      "definition",
      d.term,
      `What ${verb}?`,
      predicate,
      definitionDistractors(predicate, d.term, [...pool.predicates, ...pool.roles], seed),
    ),
  );
  out.push(
    build(
      m,
      pool,
      d.sentence,
      "term",
      d.term,
      `Which term does the course describe as “${predicate}”?`,
      d.term,
      termDistractors(d.term, pool.terms, d.sentence.text, seed, pool.source),
    ),
  );
  return out.filter((c): c is Candidate => c !== null);
}

const blanked = (text: string, span: string) =>
  text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(span)}(?![\\p{L}\\p{N}])`, "u"), BLANK);

function figureQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  return m.figures
    .map((f) => {
      const prompt = `Complete the statement: ${blanked(f.sentence.text, f.value)}`;
      if (!prompt.includes(BLANK)) return null;
      return build(
        m,
        pool,
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
        // Other reasons the course gives, then other things the chapter states: clauses a reader could take for one.
        const stated = m.ranked
          .filter((s) => s !== c.sentence && plainStatement(s.text) && wordCount(s.text) <= 20)
          .map((s) => inlineForm(choiceText(s.text)));
        const wrong = [...pool.causes, ...stated].filter((p) => p !== answer && !containsPhrase(c.sentence.text, p));
        return build(
          m,
          pool,
          c.sentence,
          "cause",
          c.cause,
          prompt,
          answer,
          [
            ...pickSome(
              pool.causes.filter((p) => wrong.includes(p)),
              seed,
            ),
            ...pickSome(wrong, seed),
          ]
            .filter((p, i, all) => all.indexOf(p) === i)
            .slice(0, 3),
        );
      }
      const subject = inlineForm(c.cause);
      const answer = choiceText(c.effect);
      const wrong = [...pool.effects, ...pool.roles].filter((p) => p !== answer && !containsPhrase(c.sentence.text, p));
      return build(
        m,
        pool,
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

/**
 * What a term does: "what does X determine?", the object the text gives against other terms'
 * objects. The subject may be any term of the course (the chapter's own, then the rest), since a
 * chapter's sentences often open with a term another chapter or its sources name.
 */
function roleQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  return chapterRoles(m, pool)
    .map((r) => {
      const answer = choiceText(r.object);
      const subject = /^(a|an|the)\s/i.test(r.subject)
        ? r.subject.replace(/^\S+/, (a) => a.toLowerCase())
        : inlineForm(r.subject);
      if (roleProblem(subject, answer)) return null;
      // Other objects of the answer's form: noun phrases beside a noun phrase, never a clause's tail.
      const form = nounPhrase(answer);
      const wrong = pool.roles.filter(
        (o) =>
          o !== answer &&
          !containsPhrase(o, r.term) &&
          !containsPhrase(r.sentence.text, o) &&
          nounPhrase(o) === form &&
          objectProblem(o) === null,
      );
      return build(
        m,
        pool,
        r.sentence,
        "role",
        r.term,
        `According to the course, what ${r.modal || (r.plural ? "do" : "does")} ${subject} ${r.verb}?`,
        answer,
        pickSome(wrong, hash(r.sentence.text)),
      );
    })
    .filter((c): c is Candidate => c !== null);
}

/** What the chapter's terms do: its own role facts, then those its sentences state of other chapters' terms. */
function chapterRoles(m: ChapterMaterial, pool: CoursePool): RoleFact[] {
  const own = new Set(m.roles.map((r) => r.sentence.index));
  return [
    ...m.roles,
    ...roleFacts(
      m.sentences.filter((s) => !own.has(s.index)),
      pool.terms.filter((t) => !m.phrases.some((p) => p.phrase === t)),
    ),
  ];
}

/**
 * Which term does what the text says (the role question turned round): "Which term does the course
 * say determines the scope of authorizations?", the term against others of its kind. Any sentence
 * with a term as subject supplies one, so a chapter without definitions or causes still mixes kinds.
 */
function agentQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  return chapterRoles(m, pool)
    .map((r) => {
      const opening = new RegExp(`^${escapeRegExp(r.subject)}\\s+`, "i").exec(r.sentence.text);
      const predicate = opening ? r.sentence.text.slice(opening[0].length).replace(/[.!]+$/, "") : "";
      // The predicate opens on the fact's own verb or modal, not on the rest of a longer subject ("Accessor | functions check …").
      const first = predicate.split(/\s+/)[0]!.toLowerCase();
      if (
        !(r.modal ? first === r.modal.toLowerCase() : first.startsWith(r.verb.slice(0, Math.max(2, r.verb.length - 1))))
      )
        return null;
      // "Which term … determine …" would not agree: a plural subject's verb is asked of no single term.
      if (!predicate || (r.plural && !r.modal) || wordCount(predicate) > 20 || roleProblem(r.subject, r.object))
        return null;
      return build(
        m,
        pool,
        r.sentence,
        "agent",
        r.term,
        `Which term does the course say ${predicate}?`,
        r.term,
        termDistractors(r.term, pool.terms, r.sentence.text, hash(r.sentence.text), pool.source),
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

/** The noun phrases of a sentence, lowercased, tagged once per sentence. */
function nounPhrases(): (s: Sentence) => string[] {
  const runs = new Map<number, string[]>();
  return (s) => getOrCreate(runs, s.index, () => phraseRuns([s.text])[0]!.map((run) => run.join(" ").toLowerCase()));
}

/**
 * Which statement about a term the course makes: a sentence naming two of the chapter's terms, as
 * written, against the same sentence with the other term swapped for terms of its kind from the
 * course. The term kept names what is asked about.
 */
function statementQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  const out: Candidate[] = [];
  const phrasesOf = nounPhrases();
  const courseTerms = new Set(pool.terms.map((t) => t.toLowerCase()));
  const named = (np: string) => courseTerms.has(np) || (pool.source.text.match(wholeTerm(np, "giu"))?.length ?? 0) >= 2;
  for (const s of m.ranked) {
    if (out.length >= MAX_STATEMENTS) break;
    const n = wordCount(s.text);
    if (n < 8 || n > MAX_STATEMENT_WORDS || !plainStatement(s.text)) continue;
    const nps = phrasesOf(s);
    const swap = m.phrases.find((p) => {
      const spans = s.text.match(wholeTerm(p.phrase, "giu"));
      return spans?.length === 1 && nps.includes(spans[0]!.toLowerCase()) && !insideName(s.text, spans[0]!);
    });
    if (!swap) continue;
    // What the statement is about: another of the chapter's terms in it, or else its longest other noun
    // phrase that is a term of the course or that the course writes again; a phrase in passing
    // ("good reason", "nice feature") names no topic.
    const topic =
      m.phrases.find((p) => p !== swap && !overlapsPhrase(p.phrase, swap.phrase) && containsPhrase(s.text, p.phrase))
        ?.phrase ??
      nps
        .filter((np) => !overlapsPhrase(np, swap.phrase) && wordCount(np) >= 2 && named(np))
        .sort((a, b) => wordCount(b) - wordCount(a))[0];
    if (!topic) continue;
    const written = s.text.match(wholeTerm(topic, "iu"))?.[0];
    if (!written) continue;
    // A lone common noun reads as a topic with its article ("about the algorithm"), a name of the code without ("about polred").
    const about =
      /^\p{Ll}+$/u.test(written) && grammaticalNumber(written) === "singular" && !pool.source.writesAsCode(written)
        ? `the ${written}`
        : inlineForm(written);
    const span = s.text.match(wholeTerm(swap.phrase, "giu"))![0]!;
    const sameNumber = pool.terms.filter((t) => grammaticalNumber(t) === grammaticalNumber(span));
    // Each wrong statement reads as grammatically as the true one: the swap is kept only where it fits.
    const swaps = new Map<string, string>();
    const fits = (t: string) => {
      // A designator ("E-17", "800-53") names one thing, not a term of the span's kind.
      if (/\d/.test(t) || !sameWordClass(span, t, pool.source)) return false;
      const swap = swapped(s.text, span, t, pool.source);
      if (swap) swaps.set(t, swap);
      return swap !== null;
    };
    const wrong = termDistractors(span, sameNumber, s.text, hash(s.text), pool.source, fits).map((t) => swaps.get(t)!);
    const c = build(
      m,
      pool,
      s,
      "statement",
      swap.phrase,
      `Which of these statements about ${about} does the course make?`,
      s.text,
      wrong,
    );
    if (c) out.push(c);
  }
  return out;
}
const MAX_STATEMENTS = 8;
const overlapsPhrase = (a: string, b: string) => containsPhrase(a, b) || containsPhrase(b, a);
const MAX_STATEMENT_WORDS = 30;
/**
 * A statement that stands alone and holds one claim: no list of items (";"), no label (":"), no
 * year or version (history, not what the chapter teaches), nothing leaning on the sentence before
 * ("As such, …", "Note, however, …", "For simple vectors this is …": back-reference.ts).
 */
const plainStatement = (text: string) =>
  !/[;:]/.test(text) && !/\b(1[5-9]|20)\d\d\b|\d+\.\d+/.test(text) && !pointsElsewhere(text) && !leansOnPrevious(text);
/**
 * A term bound to the words around it: written inside a longer name ("Senior Agency Official"),
 * naming a numbered thing ("Executive Order 13556", "Special Publication 800-53", "Tables E-1"), or
 * an abbreviation in parentheses after what it stands for ("personally identifiable information
 * (PII)"). Swapping it makes a name that does not exist ("FIPS Publication 13556").
 */
const insideName = (text: string, span: string) => {
  const s = escapeRegExp(span);
  return /\d/.test(span) || new RegExp(`\\p{Lu}\\p{L}*\\s+${s}|${s}\\s+(\\p{Lu}|\\p{N})|\\(${s}\\)`, "u").test(text);
};
const grammaticalNumber = (t: string) => (/\p{Ll}{2}s$/u.test(t) && !/(ss|us|is)$/.test(t) ? "plural" : "singular");

/** The step that comes after another in a procedure the chapter lists, against its other steps. */
function stepQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  const out: Candidate[] = [];
  const normal = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  for (const p of procedures(m.chapter.content)) {
    for (let i = 0; i + 1 < p.steps.length; i++) {
      const answer = p.steps[i + 1]!;
      const s = m.sentences.find((x) => normal(x.text) === normal(answer));
      if (!s) continue;
      const wrong = p.steps.filter((_, j) => j !== i && j !== i + 1);
      const c = build(
        m,
        pool,
        s,
        "steps",
        p.title,
        `In “${p.title}”, which step comes right after “${p.steps[i]!.replace(/[.!]$/, "")}”?`,
        answer,
        pickSome(wrong, hash(answer)),
      );
      if (c) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}

/** What kind of value an interpreter printed: a truth value, a number, a quoted string, an R vector, else its choice kind. */
const literalKind = (output: string) =>
  /^(True|False|TRUE|FALSE)$/.test(output)
    ? "boolean"
    : /^-?\d+(\.\d+)?$/.test(output)
      ? "number"
      : /^(['"]).*\1$/.test(output)
        ? "string"
        : /^\[\d+\]/.test(output)
          ? "vector"
          : choiceKind(output);

/**
 * What a line typed in a session the chapter shows printed, against what other lines of the course
 * printed (of the same kind: a figure for a figure) or, for a number, figures near it. The sentence
 * that introduces the block is where the explanation points.
 */
function codeQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  const out: Candidate[] = [];
  for (const line of sessionLines(m.chapter.content)) {
    const intro = m.sentences.findLast((s) => {
      const at = m.chapter.content.indexOf(s.text);
      return at >= 0 && at < line.at;
    });
    if (!intro) continue;
    const code = [...line.setup, line.input].join("; ");
    if (readsInput(code)) continue;
    const prompt = `What does the code \`${code}\` display?`;
    const kind = literalKind(line.output);
    const others = pickSome(
      pool.outputs.filter((o) => o !== line.output && literalKind(o) === kind && !code.includes(o)),
      hash(code),
    );
    const figure = /^\d+(?:\.\d+)?$/.test(line.output)
      ? numberDistractors(line.output, line.output.includes(".") ? "decimal" : "integer", code, hash(code))
      : [];
    const wrong = [...others, ...figure].filter((w, i, all) => all.indexOf(w) === i).slice(0, 3);
    if (wrong.length < 2 || answerLeaks(prompt, line.output)) continue;
    const { choices, answer } = shuffled(line.output, wrong, hash(prompt));
    const question: McqQuestion = {
      type: "mcq",
      prompt,
      choices,
      answer,
      explanation: `The source shows \`${line.input}\` printing \`${line.output}\` (${m.cite(intro)})`,
    };
    if (cutQuestionProblems(question, pool.source).length > 0) continue;
    out.push({ kind: "code", sentence: { ...intro, text: code }, fact: `code:${code}`, question });
  }
  return out;
}

/**
 * Sentence-term pairs for clozes: the term is a whole noun phrase of the sentence (blanking
 * "JavaScript" out of "the SpiderMonkey JavaScript interpreter" leaves a riddle), written once in it.
 */
function clozeQuestions(m: ChapterMaterial, pool: CoursePool): Candidate[] {
  const out: Candidate[] = [];
  const phrasesOf = nounPhrases();
  for (const p of m.phrases) {
    for (const s of m.ranked) {
      const spans = s.text.match(wholeTerm(p.phrase, "giu"));
      // Once in the sentence, or the blank would be answered by the other mention.
      if (
        spans?.length !== 1 ||
        wordCount(s.text) < 8 ||
        /;/.test(s.text) ||
        new RegExp(`${escapeRegExp(spans[0]!)}\\s*:`).test(s.text) ||
        !phrasesOf(s).includes(spans[0]!.toLowerCase())
      )
        continue;
      const prompt = `Complete the statement: ${s.text.replace(wholeTerm(spans[0]!, "u"), BLANK)}`;
      const c = build(
        m,
        pool,
        s,
        "cloze",
        p.phrase,
        prompt,
        spans[0]!,
        termDistractors(spans[0]!, pool.terms, s.text, hash(prompt), pool.source),
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
  const definitions = m.definitions.flatMap((d) => definitionQuestions(m, pool, d)).sort(byRank);
  const kinds = [
    definitions.filter((c) => c.kind !== "term"),
    causeQuestions(m, pool).sort(byRank),
    roleQuestions(m, pool).sort(byRank),
    statementQuestions(m, pool),
    agentQuestions(m, pool).sort(byRank),
    stepQuestions(m, pool),
    codeQuestions(m, pool),
    definitions.filter((c) => c.kind === "term"),
    clozeQuestions(m, pool),
    figureQuestions(m, pool).sort(byRank),
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

/**
 * Up to `count` candidates none of which repeats a sentence, a fact or a prompt already asked: one
 * of each kind first, so a quiz mixes kinds, then the rest in order; blanks at most 40%.
 */
function pickQuestions(candidates: Candidate[], count: number, asked: Asked): Candidate[] {
  const out: Candidate[] = [];
  const maxBlanks = Math.floor(Math.min(count, KEPT_AT_LEAST) * MAX_BLANK_SHARE);
  for (const newKindsOnly of [true, false]) {
    for (const c of candidates) {
      if (out.length >= count) break;
      if (out.includes(c) || (newKindsOnly && out.some((o) => shownKind(o.kind) === shownKind(c.kind)))) continue;
      if (BLANK_KINDS.has(c.kind) && out.filter((o) => BLANK_KINDS.has(o.kind)).length >= maxBlanks) continue;
      if (!asked.allows(c.sentence.text, c.fact, c.question.prompt)) continue;
      asked.add(c.sentence.text, c.fact, c.question.prompt);
      out.push(c);
    }
  }
  // A quiz the source cannot fill keeps blanks to 40% of what it has.
  const blanks = () => out.filter((o) => BLANK_KINDS.has(o.kind));
  while (blanks().length > Math.floor(out.length * MAX_BLANK_SHARE)) out.splice(out.lastIndexOf(blanks().at(-1)!), 1);
  return out;
}

/**
 * A chapter's quiz: `count` questions of mixed kinds. When the chapter's own text offers fewer than
 * three kinds, the passages it was condensed from (`more`) offer theirs: the same document, the
 * sentences the chapter left out.
 */
export function quizOf(
  m: ChapterMaterial,
  pool: CoursePool,
  count = QUIZ_SIZE,
  more: ChapterMaterial[] = [],
): McqQuestion[] {
  const own = mcqCandidates(m, pool);
  let picked = pickQuestions(own, count, new Asked());
  if (new Set(picked.map((c) => shownKind(c.kind))).size < QUIZ_KINDS && more.length > 0)
    picked = pickQuestions([...own, ...more.flatMap((x) => mcqCandidates(x, pool))], count, new Asked());
  return picked.map((c) => c.question);
}
