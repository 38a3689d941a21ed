/** A course's finished chapters as the study-material generators read them. */
import { type Sql, sql } from "../db/sql.ts";
import type { ChapterSummary } from "../llm/artefacts.ts";
import { chunkTexts } from "../retrieval/index.ts";

/**
 * Completed chapters in order, with the passages they cite (so a question can give the page of its
 * sentence) and their quizzes (so an exam does not repeat them).
 */
export async function completedChapters(stores: { db: Sql }, courseId: string): Promise<ChapterSummary[]> {
  const { db } = stores;
  const chapters = await db.all<{ id: string; title: string; content: string | null; key_concepts: string }>(
    sql`SELECT id, title, content, key_concepts FROM chapters
         WHERE course_id = ${courseId} AND status = 'completed' ORDER BY order_index`,
  );
  const summaries: ChapterSummary[] = [];
  for (const c of chapters) {
    const sources = await db.all<{ chunk_id: string; filename: string | null; page: number | null }>(
      sql`SELECT chunk_id, filename, page FROM chapter_sources
           WHERE chapter_id = ${c.id} AND chunk_id IS NOT NULL ORDER BY position`,
    );
    const quiz = await db.all<{ prompt: string; choices: string; answer: string; explanation: string | null }>(
      sql`SELECT prompt, choices, answer, explanation FROM quiz_questions
           WHERE chapter_id = ${c.id} AND type = 'mcq' ORDER BY position`,
    );
    summaries.push({
      title: c.title,
      content: c.content ?? "",
      key_concepts: JSON.parse(c.key_concepts) as string[],
      sources: await citedPassages(db, sources),
      quiz: quiz.map((q) => ({
        type: "mcq" as const,
        prompt: q.prompt,
        choices: JSON.parse(q.choices) as string[],
        answer: JSON.parse(q.answer) as number,
        explanation: q.explanation ?? "",
      })),
    });
  }
  return summaries;
}

/** The cited chunks' text; a source whose chunk was re-indexed away is left out. */
async function citedPassages(db: Sql, rows: { chunk_id: string; filename: string | null; page: number | null }[]) {
  const texts = await chunkTexts(
    db,
    rows.map((r) => r.chunk_id),
  );
  return rows.flatMap((r) => {
    const text = texts.get(r.chunk_id);
    return text === undefined ? [] : [{ text, filename: r.filename, page: r.page }];
  });
}
