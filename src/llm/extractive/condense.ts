/**
 * A chapter condensed from its own sections, in their order: each paragraph keeps its best
 * sentences (about a fifth of the words overall, within bounds), subsections stay subheadings,
 * short lists stay lists, and captions and sentences that only point elsewhere in their document
 * (or walk through a figure) are left out; a sentence that leans on the one before it comes with
 * it, and one that introduces code, a table or a list ("… as follows:") comes with that whole
 * exhibit or not at all. Key concepts and the quiz are read from the same text.
 */

import { escapeInline } from "../../ingest/document.ts";
import { textParagraphs } from "../../ingest/paragraphs.ts";
import { splitSentences } from "../../ingest/sentences.ts";
import type { ChapterDraft } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { addsToPrevious, leansOnPrevious } from "./back-reference.ts";
import { keyConcepts } from "./concepts.ts";
import { subjectless, withEntryTerm } from "./entry-descriptions.ts";
import {
  announces,
  type ExhibitKind,
  exhibitMarkdown,
  exhibitOf,
  introduces,
  needsExhibit,
  runsOn,
} from "./exhibits.ts";
import { quizFor } from "./quiz.ts";
import { exerciseHeading, opensExercise, setsTask } from "./tasks.ts";
import { contentStems, isProse, pointsElsewhere, sentencesOf, wordCount } from "./text.ts";

/** Share of the sections' words a chapter keeps, and the bounds on its length. */
const KEEP_RATIO = 0.2;
const MIN_WORDS = 150;
const MAX_WORDS = 1500;
const MAX_LIST_ITEMS = 6;
const MAX_ITEM_WORDS = 30;

interface Unit {
  passageId: string;
  headingPath: string[];
  kind: "prose" | ExhibitKind;
  /** Prose: its sentences; list: its items with their markers; table: its rows; code: its lines. */
  parts: string[];
}

const CAPTION = /^(figure|fig\.|table|listing|algorithm)\s*[A-Z]?\d+(\.\d+)*[a-z]?\s*[:.|]/i;

const DEFINITION = /\b(is|are) (a|an|the)\b|\brefers? to\b|\b(is|are) (called|known as|defined as)\b|\bmeans\b/i;

// A citation after a sentence's stop ("…are invariant. (12) For example, …") is split onto the next one.
const LEADING_MARK = /^(\(\d+(?:[,–-]\s*\d+)*\)|\[\d+(?:[,–-]\s*\d+)*\])\s+(?=\p{Lu})/u;

/** Sentences with a citation mark that opens one moved back before the stop of the sentence it belongs to. */
function withMarksBack(sentences: string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const mark = LEADING_MARK.exec(s);
    if (mark && out.length > 0) {
      out[out.length - 1] = out.at(-1)!.replace(/([.!?]["'”’)\]]?)$/, ` ${mark[1]}$1`);
      out.push(s.slice(mark[0].length));
    } else out.push(s);
  }
  return out;
}

const samePath = (a: string[], b: string[]) => a.join("\u0000") === b.join("\u0000");

function unitsOf(passages: Passage[]): Unit[] {
  const out: Unit[] = [];
  /**
   * The code, list or table that ended the previous passage: chunks are cut by size, so a listing, a
   * list or a table cut at a chunk's end goes on in the next one.
   */
  let openExhibit: Unit | null = null;
  for (const p of passages) {
    const headingPath = p.headingPath ?? [];
    // The reader's exercises are tasks, not text to condense (tasks.ts): an exercise section, or
    // from a numbered "Exercise N" paragraph to the end of its passage.
    if (exerciseHeading(headingPath) || exerciseHeading(p.heading)) {
      openExhibit = null;
      continue;
    }
    const blocks = textParagraphs(p.text);
    for (let i = 0; i < blocks.length; i++) {
      if (opensExercise(blocks[i]!)) break;
      const exhibit = exhibitOf(blocks[i]!);
      const continued: Unit | null =
        openExhibit && i === 0 && exhibit?.kind === openExhibit.kind && samePath(openExhibit.headingPath, headingPath)
          ? openExhibit
          : null;
      const prev = out.at(-1);
      // A formula set over several lines (a sum's limits above and below it) comes as consecutive pieces: one formula.
      if (exhibit?.kind === "formula" && prev?.kind === "formula" && prev.passageId === p.id) {
        prev.parts.push(...exhibit.lines);
        continue;
      }
      openExhibit = null;
      if (exhibit) {
        const unit: Unit = { passageId: p.id, headingPath, kind: exhibit.kind, parts: exhibit.lines };
        if (continued) continued.parts.push(...exhibit.lines);
        else out.push(unit);
        if (exhibit.kind !== "formula" && i === blocks.length - 1) openExhibit = continued ?? unit;
        continue;
      }
      const lines = blocks[i]!.split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      // A caption's every sentence describes a picture or a table the learner does not see, not
      // only its first ("Table 1: … The two columns of Train denote …").
      if (lines.length === 0 || CAPTION.test(lines[0]!)) continue;
      const sentences = withMarksBack(splitSentences(lines.join(" ")));
      // A section that opens on a description of its heading's term reads as that term's entry.
      const opening = out.at(-1)?.passageId !== p.id || !samePath(out.at(-1)!.headingPath, headingPath);
      const first =
        opening && sentences[0] ? withEntryTerm(sentences[0], headingPath.at(-1) ?? p.heading ?? null) : null;
      if (opening && sentences[0] && first !== sentences[0]) {
        if (first) sentences[0] = first;
        else sentences.shift();
      }
      if (sentences.length > 0) out.push({ passageId: p.id, headingPath, kind: "prose", parts: sentences });
    }
  }
  return out;
}

/** Sentence scores: how central its words are to the chapter, a definition, a first sentence. */
function scorer(units: Unit[]): (sentence: string, first: boolean) => number {
  const tf = new Map<string, number>();
  for (const u of units) for (const s of u.parts) for (const st of contentStems(s)) tf.set(st, (tf.get(st) ?? 0) + 1);
  return (sentence, first) => {
    const stems = contentStems(sentence);
    if (stems.length === 0) return 0;
    const centrality = stems.reduce((a, st) => a + Math.log1p(tf.get(st) ?? 0), 0) / Math.sqrt(stems.length);
    return centrality * (DEFINITION.test(sentence) ? 1.3 : 1) * (first ? 1.15 : 1);
  };
}

/**
 * A whole sentence that teaches: prose, starting and ending as a sentence does (not a fragment cut
 * at a column, a page or a colon, nor a contents line), pointing nowhere else.
 */
const opensLikeASentence = (s: string) =>
  // A definition list's entry opens with its term, whatever its case: "blank — A space or tab character."
  /^["'“‘(]?[\p{Lu}\d]/u.test(s) || /^[^\s—][^—]{0,60} — \p{Lu}/u.test(s);

const teaches = (s: string) =>
  isProse(s) &&
  opensLikeASentence(s) &&
  /[.!?]["'”’)\]]?$/.test(s) &&
  // A stop set apart ("2 Simple manipulations; numbers and vectors .") ends a contents line, not a sentence.
  !/\s[.!?]$/.test(s) &&
  !pointsElsewhere(s);

/** Markdown of the kept text, with subheadings where the heading path changes. */
function compose(units: Unit[], kept: Map<Unit, string[]>, chapterTitle: string, depth: number): string {
  const out: string[] = [];
  let prev: string[] = [];
  const title = chapterTitle.toLowerCase();
  for (const u of units) {
    const parts = kept.get(u);
    if (!parts || parts.length === 0) continue;
    const path = u.headingPath;
    for (let d = depth; d < path.length; d++) {
      if (path.slice(0, d + 1).join("\u0000") === prev.slice(0, d + 1).join("\u0000")) continue;
      const heading = path[d]!;
      // The chapter's own title is already its heading; the levels below it move up one.
      if (d === depth && heading.toLowerCase().replace(/^[\d.\s]+/, "") === title.replace(/^[\d.\s]+/, "")) continue;
      out.push(`${"#".repeat(Math.min(2 + d - depth, 4))} ${escapeInline(heading)}`);
    }
    prev = path;
    // Source text is plain: `file_test` or `a*b` must not turn into emphasis in the chapter's markdown.
    out.push(u.kind === "prose" ? parts.map(escapeInline).join(" ") : exhibitMarkdown(u.kind, parts));
  }
  return out.join("\n\n");
}

interface Candidate {
  unit: Unit;
  /** Index of the sentence in its paragraph (lists: -1, the whole list). */
  index: number;
  text: string;
  words: number;
  /** 0 for a sentence that does not teach on its own terms (a fragment, a pointer elsewhere). */
  score: number;
  /** The sentence just before it in the section (the previous paragraph's last for a first sentence). */
  before: Candidate | null;
  /** Whether its opening points back at `before` ("These instructions…", "However, …"). */
  leans: boolean;
  /** The code, table or list it introduces, kept whole with it. */
  exhibit: Unit | null;
  /** Sentences it takes along: those between it and its exhibit, and the one the exhibit interrupts. */
  along: Candidate[];
}

/** A back-reference is followed this far up its chain of sentences, then given up. */
const MAX_CHAIN = 3;
/** An announced example ("As a first example, consider …") may come this many sentences later. */
const MAX_BRIDGE = 2;

const isExhibit = (u: Unit | undefined): u is Unit => u !== undefined && u.kind !== "prose";

/**
 * Ties each sentence to the exhibit it introduces: the exhibit right after its paragraph when it
 * is the paragraph's last sentence and introduces it ("The function is defined as follows:"), or
 * one a sentence or two later when it announces an example ("As a first example, consider …").
 * A sentence that runs on into code ("So the same assignment could be made using") takes along
 * the sentence the code interrupts ("…which would create a vector y"). A sentence that only what
 * follows completes ("… as follows:") and has no exhibit teaches nothing.
 */
function linkExhibits(units: Unit[], all: Map<Unit, Candidate[]>, score: (s: string, first: boolean) => number): void {
  units.forEach((unit, ui) => {
    const own = all.get(unit);
    if (!own) return;
    const same = (u: Unit | undefined) => u !== undefined && samePath(u.headingPath, unit.headingPath);
    const next = units[ui + 1];
    const later = units[ui + 2];
    own.forEach((c, k) => {
      let exhibit: Unit | null = null;
      let between = own.slice(k + 1);
      if (isExhibit(next) && same(next)) exhibit = next;
      else if (
        next?.kind === "prose" &&
        same(next) &&
        next.parts.length <= MAX_BRIDGE &&
        isExhibit(later) &&
        same(later)
      ) {
        exhibit = later;
        between = [...between, ...(all.get(next) ?? [])];
      }
      const intro = between.at(-1) ?? c;
      const tied =
        exhibit !== null &&
        (between.length === 0
          ? introduces(c.text)
          : announces(c.text) && between.length <= MAX_BRIDGE && introduces(intro.text));
      if (!tied || !exhibit) {
        if (needsExhibit(c.text)) c.score = 0;
        return;
      }
      c.exhibit = exhibit;
      c.along = between;
      // The clause that runs into the exhibit points forward at it ("…, in this order:"), not back.
      if (c.leans && between.length === 0 && /[,;]/.test(c.text))
        c.leans = leansOnPrevious(c.text.replace(/[^,;]*$/, ""));
      // A sentence that runs on into code without a colon goes on after it, in lower case.
      const resumes = units[units.indexOf(exhibit) + 1];
      const rest = resumes && same(resumes) ? all.get(resumes)?.[0] : undefined;
      if (runsOn(intro.text) && !/:\s*$/.test(intro.text) && rest && /^\p{Ll}/u.test(rest.text) && !runsOn(rest.text))
        c.along.push(rest);
      // It may run on into its exhibit, and name it ("the following table"): the exhibit comes with it.
      if (c.score === 0 && (runsOn(c.text) || between.length === 0) && introducesAsSentence(c.text))
        c.score = score(c.text, k === 0);
    });
  });
}

/** A sentence that would teach but for running on into its exhibit or naming it: prose that opens like a sentence. */
const introducesAsSentence = (s: string) => isProse(s) && opensLikeASentence(s);

/** Candidates of every unit, each prose sentence linked to the one before it within its section. */
function candidatesOf(units: Unit[], score: (s: string, first: boolean) => number): Candidate[][] {
  let last: Candidate | null = null;
  let prevUnit: Unit | null = null;
  const all = new Map<Unit, Candidate[]>();
  const lists = new Map<Unit, Candidate[]>();
  for (const unit of units) {
    // A paragraph's first sentence follows the previous paragraph's last one only within one section.
    const sameSection =
      prevUnit !== null && prevUnit.kind === "prose" && samePath(prevUnit.headingPath, unit.headingPath);
    prevUnit = unit;
    if (unit.kind !== "prose") {
      last = null;
      // Code and tables are kept only with the sentence that introduces them; a short list also stands alone.
      if (unit.kind !== "list") continue;
      const items = unit.parts
        .filter((p) => wordCount(p) <= MAX_ITEM_WORDS && !pointsElsewhere(p))
        .slice(0, MAX_LIST_ITEMS);
      if (items.length === 0) continue;
      const text = items.join("\n");
      lists.set(unit, [
        {
          unit,
          index: -1,
          text,
          words: wordCount(text),
          score: score(text, false) / 2,
          before: null,
          leans: false,
          exhibit: null,
          along: [],
        },
      ]);
      continue;
    }
    let before = sameSection ? last : null;
    const own = unit.parts.map((text, index) => {
      const c: Candidate = {
        unit,
        index,
        text,
        words: wordCount(text),
        score: teaches(text) ? score(text, index === 0) : 0,
        before,
        leans: leansOnPrevious(text),
        exhibit: null,
        along: [],
      };
      before = c;
      return c;
    });
    last = own.at(-1) ?? null;
    all.set(unit, own);
  }
  linkExhibits(units, all, score);
  return units.map((u) =>
    (all.get(u) ?? lists.get(u) ?? []).filter((c) => c.score > 0).sort((a, b) => b.score - a.score),
  );
}

/**
 * The sentences keeping `c` brings in: itself and, while one leans on the sentence before it, that
 * sentence too, unless already chosen. Null when a sentence leans on one that cannot be kept (a
 * fragment, a pointer elsewhere, a heading or a list between) or the chain runs too long: read
 * alone it would point at nothing. A caption between does not count: a figure floats in the text.
 */
function withAntecedents(c: Candidate, chosen: Set<Candidate>): Candidate[] | null {
  const group = [c];
  for (let cur = c; cur.leans; ) {
    const prev = cur.before;
    if (!prev || prev.score === 0) return null;
    if (chosen.has(prev)) break;
    group.push(prev);
    if (group.length > MAX_CHAIN) return null;
    cur = prev;
  }
  return group;
}

const exhibitWords = (u: Unit) => u.parts.reduce((n, p) => n + wordCount(p), 0);

/**
 * Sentences chosen within `target` words, in three passes so that coverage comes before depth:
 * the best sentence of every heading section, then the best of every paragraph, then the rest, each
 * pass by score. A short list counts as one candidate. A sentence is never kept twice, a sentence
 * whose opening leans on the one before it is kept with that one or not at all, and one that
 * introduces an exhibit is kept with the whole exhibit (and the sentences it takes along) or not at all.
 */
function select(units: Unit[], score: (s: string, first: boolean) => number, target: number): Map<Unit, string[]> {
  const byParagraph = candidatesOf(units, score);
  // A task set to the reader or a description without its subject is no statement to keep; read
  // by the tagger, so only for the sentences the selection reaches.
  const statements = new Map<Candidate, boolean>();
  const statement = (c: Candidate) => {
    // A direction that brings in an example ("As an example, consider …") comes with the example.
    if (c.unit.kind !== "prose" || c.exhibit) return true;
    const known = statements.get(c);
    if (known !== undefined) return known;
    const ok = !setsTask(c.text) && !subjectless(c.text);
    statements.set(c, ok);
    return ok;
  };
  const chosen = new Set<Candidate>();
  const exhibits = new Set<Unit>();
  const texts = new Set<string>();
  let words = 0;
  const take = (list: Candidate[]) => {
    for (const c of [...list].sort((a, b) => b.score - a.score)) {
      if (words >= target) return;
      if (chosen.has(c)) continue;
      const back = withAntecedents(c, chosen);
      if (!back) continue;
      const group = [...back, ...c.along.filter((a) => !chosen.has(a))];
      if (group.some((g) => texts.has(g.text) || !statement(g))) continue;
      const exhibit = c.exhibit && !exhibits.has(c.exhibit) ? c.exhibit : null;
      const added = group.reduce((n, g) => n + g.words, 0) + (exhibit ? exhibitWords(exhibit) : 0);
      if (words + added > target * 1.1) continue;
      for (const g of group) {
        chosen.add(g);
        texts.add(g.text);
      }
      if (exhibit) exhibits.add(exhibit);
      words += added;
    }
  };
  // The best of a section or paragraph is the best that can be kept at all, with what it leans on.
  const keepable = (c: Candidate) => withAntecedents(c, new Set()) !== null;
  const bestOfSection = new Map<string, Candidate>();
  for (const list of byParagraph) {
    const best = list.find(keepable);
    if (!best) continue;
    const key = best.unit.headingPath.join("\u0000");
    const held = bestOfSection.get(key);
    if (!held || best.score > held.score) bestOfSection.set(key, best);
  }
  take([...bestOfSection.values()]);
  take(byParagraph.flatMap((list) => list.filter(keepable).slice(0, 1)));
  take(byParagraph.flat());
  settleOpenings(byParagraph, chosen, texts, exhibits, statement);
  const kept = new Map<Unit, string[]>();
  for (const u of units) {
    if (exhibits.has(u)) {
      kept.set(u, u.parts);
      continue;
    }
    const mine = [...chosen].filter((c) => c.unit === u).sort((a, b) => a.index - b.index);
    if (mine.length > 0) kept.set(u, u.kind === "list" ? mine[0]!.text.split("\n") : mine.map((c) => c.text));
  }
  return kept;
}

/**
 * A section's first kept sentence that adds to what came before it ("Debian also has developed …")
 * comes with the sentence it adds to, or is left out with the kept sentences leaning on it: nothing
 * kept before it says what it adds to. Settled once the selection is made, since which sentence
 * opens a section is known only then.
 */
function settleOpenings(
  byParagraph: Candidate[][],
  chosen: Set<Candidate>,
  texts: Set<string>,
  exhibits: Set<Unit>,
  statement: (c: Candidate) => boolean,
): void {
  const sections = new Map<string, Candidate[]>();
  for (const list of byParagraph) {
    const inOrder = [...list].sort((a, b) => a.index - b.index);
    const key = inOrder[0]?.unit.headingPath.join("\u0000");
    if (key !== undefined) sections.set(key, [...(sections.get(key) ?? []), ...inOrder]);
  }
  const drop = (c: Candidate) => {
    for (const g of [c, ...c.along]) {
      chosen.delete(g);
      texts.delete(g.text);
    }
    if (c.exhibit && ![...chosen].some((o) => o.exhibit === c.exhibit)) exhibits.delete(c.exhibit);
  };
  for (const list of sections.values()) {
    for (;;) {
      const first = list.find((c) => chosen.has(c));
      if (first?.unit.kind !== "prose" || !addsToPrevious(first.text)) break;
      const prev = first.before;
      const back = prev && prev.score > 0 ? withAntecedents(prev, chosen) : null;
      if (back?.every((g) => statement(g) && !texts.has(g.text))) {
        for (const g of back) {
          chosen.add(g);
          texts.add(g.text);
        }
        continue;
      }
      drop(first);
      // What leaned on it now leans on nothing kept.
      for (const c of list) if (chosen.has(c) && c.leans && !(c.before && chosen.has(c.before))) drop(c);
    }
  }
}

export function condensedChapter(input: {
  chapterTitle: string;
  objectives: string[];
  passages: Passage[];
  sectionDepth: number;
}): ChapterDraft {
  const units = unitsOf(input.passages);
  const score = scorer(units);
  const totalWords = units.reduce((n, u) => n + u.parts.reduce((m, p) => m + wordCount(p), 0), 0);
  const target = Math.min(MAX_WORDS, Math.max(MIN_WORDS, totalWords * KEEP_RATIO));
  const kept = select(units, score, target);
  let content = compose(units, kept, input.chapterTitle, input.sectionDepth);
  if (content.trim().length === 0) content = input.passages.map((p) => p.text.trim()).join("\n\n");

  const sentences = sentencesOf(input.passages);
  const subheadings = [...new Set(input.passages.flatMap((p) => (p.headingPath ?? []).slice(input.sectionDepth + 1)))];
  const concepts = keyConcepts(sentences, subheadings);
  const quiz = quizFor(input.chapterTitle, content, concepts, input.passages);
  const used = new Set([...kept.keys()].map((u) => u.passageId));
  return {
    content,
    key_concepts: concepts,
    quiz: { questions: quiz },
    citations: input.passages.map((p) => p.id).filter((id) => used.has(id)),
  };
}
