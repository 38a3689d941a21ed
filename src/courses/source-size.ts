/**
 * The bound on what one course reads: planning and the builders hold a course's sources in memory
 * several times over (paragraphs, passages, tagged sentences), so a course from files or URLs may
 * read at most COURSE_MAX_SOURCE_WORDS words of teaching text (each source's count was stored at
 * ingest with its repeats). Past it the course is refused before anything is planned; its sources
 * stay indexed as the learner's documents.
 */
import type { Sql } from "../db/sql.ts";
import { documentRepeats } from "../documents/lookups.ts";
import { AppError } from "../errors.ts";

export async function refuseOversizedSources(db: Sql, documentIds: string[], maxWords: number): Promise<void> {
  const words: { id: string; words: number }[] = [];
  for (const id of documentIds) words.push({ id, words: (await documentRepeats(db, id))?.words ?? 0 });
  const total = words.reduce((n, d) => n + d.words, 0);
  if (total <= maxWords) return;
  // Another run would read the same sources: the job fails at once.
  const refused = new AppError(
    "COURSE_SOURCES_TOO_LARGE",
    `The course's sources hold ${total.toLocaleString("en-US")} words of teaching text; a course reads at most ${maxWords.toLocaleString("en-US")} (COURSE_MAX_SOURCE_WORDS). Build it from fewer or shorter sources: they stay indexed as your documents.`,
    { words: total, max_words: maxWords, documents: words },
  );
  throw Object.assign(refused, { retriable: false });
}
