/**
 * Study guide: the terms the course defines, with their definitions; a short summary of each
 * chapter from its most central self-contained sentences; the key facts (figures and stated
 * causes) with where they come from; and a closing summary.
 */
import type { ChapterSummary } from "../artefacts/chapter-summary.ts";
import type { StudyGuide, StudyGuideSection } from "../schemas.ts";
import { chapterMaterial, materialsOf } from "./material.ts";
import type { Sentence } from "./text.ts";

const MAX_TERMS = 24;
const MAX_FACTS = 12;
const SUMMARY_SENTENCES = 3;
// The schema allows 12 sections.
const MAX_SECTIONS = 12;

// A sentence that opens with a pronoun or a connective leans on the one before it, and a caption on
// a picture; out of place they read as riddles.
const selfContained = (s: Sentence) =>
  /^["“]?[\p{Lu}\d]/u.test(s.text) &&
  !/^(table|figure|fig\.|listing)\s*\d+[.:]/i.test(s.text) &&
  !/^(it|this|that|these|those|they|such|he|she|its|their|also|however|thus|so|but|and|then|finally|moreover)\b/i.test(
    s.text,
  );

export function extractiveStudyGuide(input: { courseTitle: string; chapters: ChapterSummary[] }): StudyGuide {
  const materials = input.chapters.map(chapterMaterial);
  const items: { term: string; definition: string }[] = [];
  const seen = new Set<string>();
  const definitions = input.chapters.flatMap((c, i) => materialsOf(c, i).flatMap((m) => m.definitions));
  for (const d of definitions) {
    const key = d.term.toLowerCase();
    if (seen.has(key) || items.length >= MAX_TERMS) continue;
    seen.add(key);
    items.push({ term: d.term, definition: d.kind === "acronym" ? d.predicate : d.sentence.text });
  }
  const facts = [
    ...new Set(
      materials.flatMap((m) =>
        [...m.figures.map((f) => f.sentence), ...m.causes.map((c) => c.sentence)]
          .filter(selfContained)
          .sort((a, b) => a.index - b.index)
          .map((s) => `${s.text} (${m.cite(s)})`),
      ),
    ),
  ].slice(0, MAX_FACTS);

  const head: StudyGuideSection[] = [];
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
