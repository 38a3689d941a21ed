/**
 * A learner's completed course written straight into either engine's tables (the courses owner is
 * not behind the seam yet): the rows progress, feeds and episodes refer to.
 */
import type { CourseOwner } from "../../src/courses/read.ts";
import { type Sql, sql } from "../../src/db/sql.ts";

export interface SeededCourse {
  owner: CourseOwner;
  courseId: string;
  chapters: { id: string; order_index: number; title: string }[];
  deckId: string;
  examId: string;
}

export async function seedCourse(db: Sql, tenantName: string, chapterCount = 2): Promise<SeededCourse> {
  const now = new Date().toISOString();
  const id = () => crypto.randomUUID();
  const owner = { tenantId: id(), userId: id() };
  const courseId = id();
  const chapters = Array.from({ length: chapterCount }, (_, i) => ({
    id: id(),
    order_index: i,
    title: `Chapter ${i}`,
  }));
  const deckId = id();
  const examId = id();
  await db.run(sql`INSERT INTO tenants (id, name, created_at) VALUES (${owner.tenantId}, ${tenantName}, ${now})`);
  await db.run(sql`INSERT INTO users (id, tenant_id, created_at) VALUES (${owner.userId}, ${owner.tenantId}, ${now})`);
  await db.run(
    sql`INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, num_chapters, created_at, updated_at)
        VALUES (${courseId}, ${owner.tenantId}, ${owner.userId}, 'Graphs', 'graphs', 'graphs', 'topic', 'completed', ${chapterCount}, ${now}, ${now})`,
  );
  for (const ch of chapters) {
    await db.run(
      sql`INSERT INTO chapters (id, course_id, order_index, title, status, created_at)
          VALUES (${ch.id}, ${courseId}, ${ch.order_index}, ${ch.title}, 'completed', ${now})`,
    );
  }
  await db.run(
    sql`INSERT INTO flashcard_decks (id, course_id, model, deck, engine, created_at)
        VALUES (${deckId}, ${courseId}, 'extractive', '{}', 'extractive', ${now})`,
  );
  await db.run(
    sql`INSERT INTO exams (id, course_id, model, exam_size, exam, engine, created_at)
        VALUES (${examId}, ${courseId}, 'extractive', 10, '{}', 'extractive', ${now})`,
  );
  return { owner, courseId, chapters, deckId, examId };
}
