/**
 * A chapter assembled from the passages most relevant to its title and objectives: sentences that
 * point elsewhere or walk through a figure are left out, and one that leans on the sentence before
 * it comes with that sentence.
 */
import type { ChapterDraft } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { leansOnPrevious } from "./back-reference.ts";
import { keyConcepts } from "./concepts.ts";
import { quizFor } from "./quiz.ts";
import { topSentences } from "./rank.ts";
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

/** Markdown: an overview paragraph, then the chosen sentences grouped under their source headings. */
function compose(title: string, chosen: Sentence[]): string {
  const [first, ...rest] = chosen;
  const parts: string[] = [];
  if (first) parts.push(`## Overview\n\n${[first, ...rest.slice(0, 2)].map((s) => s.text).join(" ")}`);
  let heading: string | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) parts.push(`## ${heading ?? title}\n\n${paragraph.join(" ")}`);
    paragraph = [];
  };
  for (const s of rest.slice(2)) {
    if (s.heading !== heading) {
      flush();
      heading = s.heading;
    }
    paragraph.push(s.text);
  }
  flush();
  return parts.join("\n\n");
}

export function extractiveChapter(input: {
  chapterTitle: string;
  objectives: string[];
  passages: Passage[];
}): ChapterDraft {
  const sentences = sentencesOf(input.passages);
  const query = [input.chapterTitle, ...input.objectives].join(". ");
  // A line without a stop (a title: "The DNA Methylome of Human …") would run into the next sentence of its paragraph.
  const whole = sentences.filter((s) => /[.!?]["'”’)\]]?$/.test(s.text) && !pointsElsewhere(s.text));
  let chosen = withAntecedents(topSentences(whole.length > 0 ? whole : sentences, BODY_SENTENCES, { query }), whole);
  let content = compose(input.chapterTitle, chosen);
  if (content.length < MIN_CONTENT_CHARS) {
    chosen = sentences;
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
