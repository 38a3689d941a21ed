/**
 * A topic course's chapters with no model, read from the learner's paragraphs that the matched
 * passages lie in. It reads whole documents, so it runs in the extractive engine's thread
 * (plan.ts asks it there), off the server's.
 */
import type { Sql } from "../db/sql.ts";
import type { Passage } from "../llm/artefacts.ts";
import { cleanTitle, groupTitle, partition, splitToCount } from "./chapter-groups.ts";
import { documentParagraphs, type Paragraph, type Section, wordsOf } from "./sections.ts";
import { paragraphPassages } from "./source-passages.ts";
import type { SectionChapter } from "./source-plan.ts";

/**
 * The runs of the learner's paragraphs that lie in the chunks matched to a topic, as sections in
 * document order, with each document's paragraphs to read them from.
 */
async function matchedSections(
  db: Sql,
  passages: Passage[],
): Promise<{ sections: Section[]; paragraphs: Map<string, Paragraph[]> }> {
  const chunkIds = new Set(passages.map((p) => p.id));
  const documentIds = [...new Set(passages.map((p) => p.documentId).filter((id): id is string => !!id))];
  const paragraphs = new Map<string, Paragraph[]>();
  for (const id of documentIds) paragraphs.set(id, await documentParagraphs(db, id));
  const sections: Section[] = [];
  for (const [documentId, ps] of paragraphs) {
    let from = -1;
    const close = (to: number) => {
      if (from < 0) return;
      const path = ps[from]!.headingPath;
      sections.push({
        documentId,
        title: path.at(-1) ?? ps[from]!.filename,
        from,
        to,
        depth: Math.max(0, path.length - 1),
        words: wordsOf(ps, from, to),
      });
      from = -1;
    };
    ps.forEach((p, i) => {
      if (chunkIds.has(p.chunkId)) {
        if (from < 0) from = i;
      } else close(i);
    });
    close(ps.length);
  }
  return { sections, paragraphs };
}

/**
 * A topic course with no model: chapters are contiguous runs of the sections that cover the
 * topic (nothing else of the documents is taught), titled by their headings.
 */
export async function topicChapters(db: Sql, passages: Passage[], count: number): Promise<SectionChapter[]> {
  const { sections, paragraphs } = await matchedSections(db, passages);
  // Sections split within their own document; groups may run across documents.
  const split = [...paragraphs].flatMap(([id, ps]) =>
    splitToCount(
      sections.filter((s) => s.documentId === id),
      ps,
      Math.max(
        1,
        Math.ceil((count * sections.filter((s) => s.documentId === id).length) / Math.max(1, sections.length)),
      ),
    ),
  );
  return partition(split, count).map((group) => ({
    title: groupTitle(group.map((s) => s.title)),
    sections: group.map((s) => cleanTitle(s.title)),
    parts: group.map((s) => ({ document_id: s.documentId, from: s.from, to: s.to, depth: s.depth })),
    passages: group.flatMap((s) => paragraphPassages(paragraphs.get(s.documentId)!.slice(s.from, s.to))),
  }));
}
