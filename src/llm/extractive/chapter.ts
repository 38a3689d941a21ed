/**
 * A chapter assembled from the passages most relevant to its title and objectives: sentences that
 * point elsewhere or walk through a figure are left out, one that leans on the sentence before
 * it comes with that sentence, and one that introduces code, a table or a list comes with it.
 */
import { textParagraphs } from "../../ingest/paragraphs.ts";
import type { ChapterDraft } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { leansOnPrevious } from "./back-reference.ts";
import { keyConcepts } from "./concepts.ts";
import { subjectless, withEntryTerm } from "./entry-descriptions.ts";
import { exhibitMarkdown, exhibitOf, introduces, needsExhibit } from "./exhibits.ts";
import { quizFor } from "./quiz.ts";
import { topSentences } from "./rank.ts";
import { exerciseSentences, headingPaths, setsTask } from "./tasks.ts";
import { containsPhrase, pointsElsewhere, type Sentence, sentencesOf } from "./text.ts";

const BODY_SENTENCES = 14;
const MIN_CONTENT_CHARS = 200;

/**
 * The chosen sentences, each that leans on the sentence before it ("These instructions…",
 * "However, …") with that sentence, added when it is a whole sentence that stands on its own or
 * was kept already; otherwise left out, as read alone it would point at nothing. In reading order.
 */
function withAntecedents(chosen: Sentence[], pool: Sentence[]): Sentence[] {
  const byIndex = new Map(pool.map((s) => [s.index, s]));
  const out = new Map<number, Sentence>();
  for (const s of chosen) {
    if (!leansOnPrevious(s.text)) {
      out.set(s.index, s);
      continue;
    }
    const prev = s.follows ? byIndex.get(s.index - 1) : undefined;
    // In reading order, a chosen sentence before it has been decided already.
    if (!prev || (leansOnPrevious(prev.text) && !out.has(prev.index))) continue;
    out.set(prev.index, prev).set(s.index, s);
  }
  return [...out.values()].sort((a, b) => a.index - b.index);
}

/**
 * The exhibit (code, a table, a list) each sentence introduces in its passage, as markdown: the
 * paragraph right after the one the sentence ends, when the sentence introduces it.
 */
function introducedExhibits(passages: Passage[], sentences: Sentence[]): Map<Sentence, string> {
  const byPassage = new Map(passages.map((p) => [p.id, textParagraphs(p.text)]));
  const out = new Map<Sentence, string>();
  for (const s of sentences) {
    if (!introduces(s.text)) continue;
    const paragraphs = byPassage.get(s.passageId) ?? [];
    const at = paragraphs.findIndex((para) => para.replace(/\s+/g, " ").trim().endsWith(s.text));
    const exhibit = at >= 0 && paragraphs[at + 1] !== undefined ? exhibitOf(paragraphs[at + 1]!) : null;
    if (exhibit) out.set(s, exhibitMarkdown(exhibit.kind, exhibit.lines));
  }
  return out;
}

/**
 * Markdown: an overview paragraph, then the chosen sentences grouped under their source headings;
 * a sentence that introduces an exhibit is followed by it.
 */
function compose(title: string, chosen: Sentence[], exhibits: Map<Sentence, string> = new Map()): string {
  // The overview is the first three sentences, or fewer when one of them introduces an exhibit.
  const lead = chosen.slice(0, 3);
  const cut = lead.findIndex((s) => exhibits.has(s));
  const overview = cut >= 0 ? lead.slice(0, cut + 1) : lead;
  const parts: string[] = [];
  if (overview.length > 0) {
    parts.push(`## Overview\n\n${overview.map((s) => s.text).join(" ")}`);
    const exhibit = exhibits.get(overview.at(-1)!);
    if (exhibit) parts.push(exhibit);
  }
  let heading: string | null = null;
  let written: string | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const text = paragraph.join(" ");
    parts.push(written === heading ? text : `## ${heading ?? title}\n\n${text}`);
    written = heading;
    paragraph = [];
  };
  for (const s of chosen.slice(overview.length)) {
    if (s.heading !== heading) {
      flush();
      heading = s.heading;
    }
    paragraph.push(s.text);
    const exhibit = exhibits.get(s);
    if (exhibit) {
      flush();
      parts.push(exhibit);
    }
  }
  flush();
  return parts.join("\n\n");
}

/**
 * The sentences as statements, read by the tagger only for those a chapter considers: a task set
 * to the reader is none (tasks.ts); a section's first sentence that describes its heading's term
 * without naming it is paired with the term ("PATH — A colon-separated list …"), and any other
 * description without a subject is none (entry-descriptions.ts).
 */
function statements(pool: Sentence[]): (s: Sentence) => Sentence | null {
  const opened = new Set<string>();
  const first = new Set<Sentence>();
  for (const s of pool) {
    const key = `${s.passageId}\u0000${s.heading ?? ""}`;
    if (!opened.has(key) && !s.follows) first.add(s);
    opened.add(key);
  }
  const read = new Map<Sentence, Sentence | null>();
  return (s) => {
    const known = read.get(s);
    if (known !== undefined) return known;
    const text = setsTask(s.text)
      ? null
      : first.has(s)
        ? withEntryTerm(s.text, s.heading)
        : subjectless(s.text)
          ? null
          : s.text;
    const out = text === null ? null : text === s.text ? s : { ...s, text };
    read.set(s, out);
    return out;
  };
}

/** The statements among `chosen`, leaving out a sentence whose antecedent was no statement. */
function keptStatements(chosen: Sentence[], statement: (s: Sentence) => Sentence | null): Sentence[] {
  const out: Sentence[] = [];
  const kept = new Set<number>();
  for (const s of chosen) {
    const read = statement(s);
    if (!read || (leansOnPrevious(s.text) && !kept.has(s.index - 1))) continue;
    kept.add(s.index);
    out.push(read);
  }
  return out;
}

export function extractiveChapter(input: {
  chapterTitle: string;
  objectives: string[];
  passages: Passage[];
}): ChapterDraft {
  // The reader's exercises are tasks, not what the chapter teaches (tasks.ts).
  const all = sentencesOf(input.passages);
  const exercises = exerciseSentences(all, headingPaths(input.passages));
  const sentences = all.filter((s) => !exercises.has(s));
  const statement = statements(sentences);
  const exhibits = introducedExhibits(input.passages, sentences);
  const query = [input.chapterTitle, ...input.objectives].join(". ");
  // A line without a stop (a title: "The DNA Methylome of Human …") would run into the next sentence
  // of its paragraph, unless it runs into the code or list it introduces; "… as follows:" without
  // what follows teaches nothing.
  const whole = sentences.filter(
    (s) => (exhibits.has(s) || (/[.!?]["'”’)\]]?$/.test(s.text) && !needsExhibit(s.text))) && !pointsElsewhere(s.text),
  );
  const pool = whole.length > 0 ? whole : sentences;
  // Twice as many as a chapter keeps, so that the statements among them still fill it.
  const considered = topSentences(pool, BODY_SENTENCES * 2, { query }).filter((s) => statement(s) !== null);
  let chosen = keptStatements(withAntecedents(topSentences(considered, BODY_SENTENCES, { query }), whole), statement);
  let content = compose(input.chapterTitle, chosen, exhibits);
  if (content.length < MIN_CONTENT_CHARS) {
    chosen = keptStatements(sentences, statement);
    content = compose(input.chapterTitle, chosen);
  }
  if (content.length < MIN_CONTENT_CHARS) {
    content = `## ${input.chapterTitle}\n\n${input.passages.map((p) => p.text.trim()).join("\n\n")}`;
  }
  const headings = [...new Set(input.passages.flatMap((p) => p.headingPath ?? []))];
  const candidates = keyConcepts(sentences, headings, 20);
  // Concepts the chosen sentences teach come first: a key concept the chapter never mentions helps nobody.
  const inChosen = candidates.filter((c) => chosen.some((s) => containsPhrase(s.text, c)));
  const concepts = [...inChosen, ...candidates.filter((c) => !inChosen.includes(c))].slice(0, 8);
  const quiz = quizFor(input.chapterTitle, content, concepts, input.passages);
  const cited = new Set(chosen.map((s) => s.passageId));
  return {
    content,
    key_concepts: concepts,
    quiz: { questions: quiz },
    citations: input.passages.map((p) => p.id).filter((id) => cited.has(id)),
  };
}
