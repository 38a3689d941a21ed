/**
 * Study guide: what the document is about (its abstract, introduction or first body section, in its
 * own words); the terms the course defines, with their definitions; a short summary of each
 * chapter from its most central self-contained sentences; the key facts (figures and stated
 * causes) with where they come from; and a closing summary.
 */

import type { ChapterSummary } from "../artefacts/chapter-summary.ts";
import { cutShort, definesTerm, matterHeading, quotesMatter } from "../artefacts/item-checks.ts";
import type { StudyGuide, StudyGuideSection } from "../schemas.ts";
import { leansOnPrevious } from "./back-reference.ts";
import { definitionText } from "./definitions.ts";
import { needsExhibit } from "./exhibits.ts";
import { type ChapterMaterial, chapterMaterial, materialsOf } from "./material.ts";
import { setsTask } from "./tasks.ts";
import { escapeRegExp, pointsElsewhere, type Sentence } from "./text.ts";

const MAX_TERMS = 24;
const MAX_FACTS = 12;
const SUMMARY_SENTENCES = 3;
const OVERVIEW_SENTENCES = 3;
// The schema allows 12 sections.
const MAX_SECTIONS = 12;

// A sentence that leans on the one before it (a connective or a back-reference, back-reference.ts),
// a caption on a picture, and one that announces what follows it ("… as follows.", "… the
// following:"), which the guide does not show: out of place they read as riddles. An exercise
// ("Write a function …") is work, not a point to revise.
// A sentence cut at a page or column break ends on no full stop, or on a word that leaves it open.
const wholeSentence = (s: Sentence) =>
  /^["“]?[\p{Lu}\d]/u.test(s.text) &&
  /[.!?]["”’)]?$/.test(s.text) &&
  !cutShort(s.text) &&
  !setsTask(s.text) &&
  !needsExhibit(s.text) &&
  !/^(table|figure|fig\.|listing)\s*\d+[.:]/i.test(s.text);
const selfContained = (s: Sentence) => wholeSentence(s) && !leansOnPrevious(s.text);
// Nothing comes before the course's first sentence: a "this" there points at the document itself
// ("This booklet is a guided tour …"), not back; a connective ("Note, however, …") still dangles.
const opensCourse = (s: Sentence) => wholeSentence(s) && !leansOnPrevious(s.text.replace(/\b(this|these)\b/gi, "the"));

/**
 * A figure worth revising is what its sentence states ("A byte is 8 bits", "the default is 80
 * columns"): a count or a size met in passing ("just 87 bytes!", "100 datasets") is trivia.
 */
const statedFigure = (value: string, text: string) =>
  new RegExp(
    `\\b(?:is|are|equals|has|have|takes|holds)\\s+(?:about |roughly |approximately |exactly |at most |at least )?${escapeRegExp(value)}`,
    "i",
  ).test(text) && !/!["”’)]?$/.test(text);

// The section that says what a document is about, when it has one by name.
const OPENING = /\b(abstract|introduction|overview|summary|about|preamble|purpose|scope)\b/i;

/**
 * What the document is about, in its own words: the opening sentences of its abstract or
 * introduction, or else of the first body section of the first chapter; never of front or back matter.
 */
function overview(materials: ChapterMaterial[]): string | null {
  const first = materials[0]?.sentences[0];
  const usable = (s: Sentence) =>
    (s === first ? opensCourse(s) : selfContained(s)) &&
    !pointsElsewhere(s.text) &&
    !quotesMatter(s.text) &&
    !(s.heading && matterHeading(s.heading));
  const sentences = materials.flatMap((m) => m.sentences).filter(usable);
  const opening = sentences.find((s) => s.heading && OPENING.test(s.heading)) ?? sentences[0];
  if (!opening) return null;
  const section = sentences.filter((s) => s.passageId === opening.passageId && s.heading === opening.heading);
  const from = section.indexOf(opening);
  return section
    .slice(from, from + OVERVIEW_SENTENCES)
    .map((s) => s.text)
    .join(" ");
}

export function extractiveStudyGuide(input: { courseTitle: string; chapters: ChapterSummary[] }): StudyGuide {
  const materials = input.chapters.map(chapterMaterial);
  const items: { term: string; definition: string }[] = [];
  const seen = new Set<string>();
  const definitions = input.chapters.flatMap((c, i) => materialsOf(c, i).flatMap((m) => m.definitions));
  for (const d of definitions) {
    const key = d.term.toLowerCase();
    if (seen.has(key) || items.length >= MAX_TERMS) continue;
    const definition = d.kind === "acronym" ? d.predicate : definitionText(d);
    // A key term is judged as its flashcard is: its line must say what the term is or does.
    const front = d.kind === "acronym" ? `What does ${d.term} stand for?` : d.term;
    if (!definesTerm({ front, back: d.kind === "acronym" ? d.predicate : d.sentence.text })) continue;
    seen.add(key);
    items.push({ term: d.term, definition });
  }
  const facts = [
    ...new Set(
      materials.flatMap((m) =>
        [
          ...m.figures.filter((f) => statedFigure(f.value, f.sentence.text)).map((f) => f.sentence),
          ...m.causes.map((c) => c.sentence),
        ]
          .filter(selfContained)
          .sort((a, b) => a.index - b.index)
          .map((s) => `${s.text} (${m.cite(s)})`),
      ),
    ),
  ].slice(0, MAX_FACTS);

  const head: StudyGuideSection[] = [];
  const about = overview(materials);
  if (about) head.push({ heading: "What this course is about", body: about });
  if (items.length > 0) head.push({ heading: "Key terms", items });
  if (facts.length > 0) head.push({ heading: "Key facts", bullets: facts });
  const chapterSections = materials.slice(0, MAX_SECTIONS - head.length - 1).map((m, i): StudyGuideSection => {
    const best = m.ranked
      .filter(selfContained)
      .slice(0, SUMMARY_SENTENCES)
      .sort((a, b) => a.index - b.index);
    return {
      heading: `Chapter ${i + 1}: ${m.chapter.title}`,
      bullets: best.length > 0 ? best.map((s) => s.text) : m.chapter.key_concepts.map((c) => `Know: ${c}`),
    };
  });
  const summary = materials
    .map((m) => m.ranked.find(selfContained)?.text)
    .filter(Boolean)
    .join(" ");
  return {
    title: `${input.courseTitle}: Study Guide`,
    sections: [
      ...head,
      ...chapterSections,
      {
        heading: "Summary",
        body: summary.length >= 10 ? summary : `This guide covers ${input.chapters.map((c) => c.title).join(", ")}.`,
      },
    ],
  };
}
