/** Study guide: key terms from definition sentences, key points per chapter, a closing summary. */
import type { ChapterSummary } from "../artefacts/common.ts";
import type { StudyGuide, StudyGuideSection } from "../schemas.ts";
import { findDefinitions } from "./definitions.ts";
import { chapterMaterial, sentenceAbout } from "./material.ts";
import { topSentences } from "./rank.ts";

const MAX_TERMS = 24;
// The schema allows 12 sections: key terms, summary, and up to 10 chapters.
const MAX_CHAPTER_SECTIONS = 10;

export function extractiveStudyGuide(input: { courseTitle: string; chapters: ChapterSummary[] }): StudyGuide {
  const materials = input.chapters.map(chapterMaterial);
  const items: { term: string; definition: string }[] = [];
  const seen = new Set<string>();
  const addTerm = (term: string, definition: string) => {
    if (seen.has(term.toLowerCase()) || items.length >= MAX_TERMS) return;
    seen.add(term.toLowerCase());
    items.push({ term, definition });
  };
  for (const m of materials) for (const d of findDefinitions(m.sentences)) addTerm(d.term, d.definition);
  for (const m of materials) {
    for (const concept of m.chapter.key_concepts) {
      const s = sentenceAbout(m, concept);
      addTerm(concept, s ? s.text : `A key concept of "${m.chapter.title}".`);
    }
  }
  const sections: StudyGuideSection[] = [];
  if (items.length > 0) sections.push({ heading: "Key terms", items });
  for (const [i, m] of materials.slice(0, MAX_CHAPTER_SECTIONS).entries()) {
    const bullets = topSentences(m.sentences, 4, { query: m.chapter.title }).map((s) => s.text);
    sections.push({
      heading: `Chapter ${i + 1}: ${m.chapter.title}`,
      bullets: bullets.length > 0 ? bullets : m.chapter.key_concepts.map((c) => `Know: ${c}`),
    });
  }
  const summary = materials.map((m) => m.ranked[0]?.text).filter(Boolean).join(" ");
  sections.push({
    heading: "Summary",
    body: summary.length >= 10 ? summary : `This guide covers ${input.chapters.map((c) => c.title).join(", ")}.`,
  });
  return { title: `${input.courseTitle}: Study Guide`, sections };
}
