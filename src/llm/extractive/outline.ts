/** Course outline from source passages: contiguous parts of the sources become chapters. */

import { sectionTitle } from "../../util.ts";
import type { Outline } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { aboutSentences } from "./about.ts";
import { bodyText } from "./concepts.ts";
import { phraseRuns, rankRuns, taggedPieces, textSample } from "./keyphrases.ts";
import { topSentences } from "./rank.ts";
import { type Sentence, sentencesOf, titleCase, wordCount } from "./text.ts";

const VERBS = ["Explain", "Describe", "Identify the role of", "Apply"];
// Front matter names a part of the document, not a subject to teach.
const NOT_A_TITLE = /^(abstract|summary|contents|table of contents|keywords|index|preface|title page)$/i;
// A chapter title is a short heading, not front matter nor a list of names (author lines are headings in papers).
const isTitle = (t: string) => wordCount(t) <= 10 && !NOT_A_TITLE.test(t) && (t.match(/,/g)?.length ?? 0) < 2;
// TextRank over a whole book is quadratic-ish; an even sample of sentences finds the same centre.
const SAMPLE = 400;
// The central sentences the description's two are chosen from.
const CENTRE_CANDIDATES = 8;

/** Splits sentences into `n` contiguous groups of similar word count. */
function partition(sentences: Sentence[], n: number): Sentence[][] {
  const total = sentences.reduce((a, s) => a + wordCount(s.text), 0);
  const groups: Sentence[][] = Array.from({ length: n }, () => []);
  let acc = 0;
  for (const s of sentences) {
    const g = Math.min(n - 1, Math.floor((acc / Math.max(1, total)) * n));
    groups[g]!.push(s);
    acc += wordCount(s.text);
  }
  return groups;
}

/** The sources' own title: the first top-level markdown heading, when it reads like one. */
function documentTitle(passages: Passage[]): string | null {
  for (const p of passages) {
    const h = /^#\s+(.+)$/m.exec(p.text)?.[1]?.trim();
    if (h && wordCount(h) <= 15 && /\p{L}/u.test(h)) return h;
  }
  return null;
}

const sample = <T>(xs: T[], max: number) =>
  xs.length <= max ? xs : xs.filter((_, i) => i % Math.ceil(xs.length / max) === 0);

/** Objectives of a chapter: its leading key phrases, each with a verb. */
const objectivesOf = (phrases: { phrase: string }[], title: string) => {
  const objectives = phrases.slice(0, 3).map((p, j) => `${VERBS[j % VERBS.length]} ${p.phrase}`);
  return objectives.length > 0 ? objectives : [`Explain the main ideas of ${title}`];
};

export function extractiveOutline(input: {
  topic?: string;
  numChapters: number;
  passages: Passage[];
  chapters?: { title: string; passages: Passage[] }[];
}): Outline {
  const sentences = sentencesOf(input.passages);
  // Tag a sample once; the whole-source theme and each chapter's phrases are counted from it.
  const runs = new Map<Sentence, string[][]>();
  const sampled = textSample(sentences, (s) => s.text);
  phraseRuns(sampled.map((s) => s.text)).forEach((r, i) => {
    runs.set(sampled[i]!, r);
  });
  const runsIn = (group: Sentence[]) => group.flatMap((s) => runs.get(s) ?? []);
  const themes = rankRuns(runsIn(sentences), 12);
  const theme = themes[0]?.phrase;
  const title = input.topic?.trim()
    ? titleCase(input.topic.trim())
    : (documentTitle(input.passages) ?? (theme ? `Introduction to ${titleCase(theme)}` : "Course"));
  const covered = themes.slice(0, 3).map((t) => t.phrase);
  // The description states what the sources are about (about.ts), never a pointer or a note on using them.
  const centre = aboutSentences(
    topSentences(sample(sentences, SAMPLE), CENTRE_CANDIDATES).map((s) => s.text),
    [title, ...covered],
  ).slice(0, 2);
  const description = [
    covered.length > 0
      ? `A course built from the source material, covering ${covered.join(", ")}.`
      : "A course built from the source material.",
    ...centre,
  ].join(" ");

  if (input.chapters) {
    // Titles are the sections' own headings; only the objectives are read from each chapter's text,
    // from the sample of it that the chapter's key concepts are read from (concepts.ts), so the
    // chapter's builder finds those sentences tagged already.
    const chapters = input.chapters.map((c) => {
      const own = taggedPieces(bodyText(sentencesOf(c.passages)));
      return { title: c.title, objectives: objectivesOf(rankRuns(phraseRuns(own).flat(), 8), c.title) };
    });
    return { title, description, chapters };
  }
  const usedTitles = new Set<string>([title.toLowerCase()]);
  const chapters = partition(sentences, input.numChapters).map((group, i) => {
    const phrases = rankRuns(runsIn(group), 8);
    const heading = group
      .map((s) => sectionTitle(s.heading))
      .find((t): t is string => !!t && isTitle(t) && !usedTitles.has(t.toLowerCase()));
    const candidates = [heading, ...phrases.map((p) => titleCase(p.phrase))].filter((t): t is string => Boolean(t));
    let chapterTitle = candidates.find((t) => !usedTitles.has(t.toLowerCase())) ?? `${title}: Part ${i + 1}`;
    if (usedTitles.has(chapterTitle.toLowerCase())) chapterTitle = `${chapterTitle} (${i + 1})`;
    usedTitles.add(chapterTitle.toLowerCase());
    return { title: chapterTitle, objectives: objectivesOf(phrases, chapterTitle) };
  });
  return { title, description, chapters };
}
