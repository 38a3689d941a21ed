/** A course's finished chapters as the study-material generators read them. */
import type { Database } from "bun:sqlite";
import type { ChapterSummary } from "../llm/artefacts.ts";
import { chunkTexts } from "../retrieval/index.ts";

/**
 * Completed chapters in order, with the passages they cite (so a question can give the page of its
 * sentence) and their quizzes (so an exam does not repeat them).
 */
export function completedChapters(sqlite: Database, courseId: string): ChapterSummary[] {
  const chapters = sqlite
    .query<{ id: string; title: string; content: string | null; key_concepts: string }, [string]>(
      `SELECT id, title, content, key_concepts FROM chapters
        WHERE course_id = ? AND status = 'completed' ORDER BY order_index`,
    )
    .all(courseId);
  const sources = sqlite.query<{ chunk_id: string; filename: string | null; page: number | null }, [string]>(
    `SELECT chunk_id, filename, page FROM chapter_sources
      WHERE chapter_id = ? AND chunk_id IS NOT NULL ORDER BY position`,
  );
  const quiz = sqlite.query<{ prompt: string; choices: string; answer: string; explanation: string | null }, [string]>(
    "SELECT prompt, choices, answer, explanation FROM quiz_questions WHERE chapter_id = ? AND type = 'mcq' ORDER BY position",
  );
  return chapters.map((c) => ({
    title: c.title,
    content: c.content ?? "",
    key_concepts: JSON.parse(c.key_concepts) as string[],
    sources: citedPassages(sqlite, sources.all(c.id)),
    quiz: quiz.all(c.id).map((q) => ({
      type: "mcq" as const,
      prompt: q.prompt,
      choices: JSON.parse(q.choices) as string[],
      answer: JSON.parse(q.answer) as number,
      explanation: q.explanation ?? "",
    })),
  }));
}

/** The cited chunks' text; a source whose chunk was re-indexed away is left out. */
function citedPassages(sqlite: Database, rows: { chunk_id: string; filename: string | null; page: number | null }[]) {
  const texts = chunkTexts(
    sqlite,
    rows.map((r) => r.chunk_id),
  );
  return rows.flatMap((r) => {
    const text = texts.get(r.chunk_id);
    return text === undefined ? [] : [{ text, filename: r.filename, page: r.page }];
  });
}
