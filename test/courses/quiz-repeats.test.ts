/** Chapters write their quizzes in parallel; once all are written, a question an earlier chapter's quiz already asked is dropped. */
import { expect, test } from "bun:test";
import { dropRepeatedQuizQuestions } from "../../src/courses/store.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { newId } from "../../src/util.ts";
import { tempDir } from "../helpers/server.ts";

const SAME =
  "Although DPR performs better than BM25 in general, passages retrieved by these two methods differ qualitatively.";
const AGAIN =
  "Although DPR performs better than BM25 in general, the retrieved passages of these two retrievers actually differ qualitatively.";

test("a later chapter's question on a sentence an earlier quiz asked is dropped, while each chapter keeps three questions", async () => {
  const { sqlite } = await openDb(tempDir("cf-quiz-repeats-"));
  const now = new Date().toISOString();
  const tenant = newId();
  const user = newId();
  const course = newId();
  sqlite.run("INSERT INTO tenants (id, name, created_at) VALUES (?, 'acme', ?)", [tenant, now]);
  sqlite.run("INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (?, ?, 'u', ?)", [user, tenant, now]);
  sqlite.run(
    `INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, num_chapters, engine, model, created_at, updated_at)
     VALUES (?, ?, ?, 'DPR', 'DPR', 'dpr', 'files', 'generating', 2, 'extractive', 'extractive', ?, ?)`,
    [course, tenant, user, now, now],
  );
  const quizzes = [
    [
      `Complete the statement: ${SAME.replace("BM25", "_____")}`,
      "What is a dense retriever?",
      "Which term names the top-k list?",
      "How many passages are retrieved?",
    ],
    [
      `Complete the statement: ${AGAIN.replace("passages", "_____")}`,
      "What is an in-batch negative?",
      "Which term names the reader?",
      "What does FAISS index?",
    ],
  ];
  const quoted = [SAME, AGAIN];
  const chapterIds = quizzes.map((prompts, i) => {
    const id = newId();
    sqlite.run(
      `INSERT INTO chapters (id, course_id, order_index, title, status, content, key_concepts, completed_at, created_at)
       VALUES (?, ?, ?, ?, 'completed', 'Body.', '[]', ?, ?)`,
      [id, course, i, `Chapter ${i + 1}`, now, now],
    );
    prompts.forEach((prompt, p) => {
      sqlite.run(
        `INSERT INTO quiz_questions (id, chapter_id, position, type, prompt, choices, answer, explanation) VALUES (?, ?, ?, 'mcq', ?, '["a","b","c"]', '0', ?)`,
        [
          newId(),
          id,
          p,
          prompt,
          p === 0
            ? `The source says: “${quoted[i]}” (dpr.pdf, p. ${7 + 5 * i})`
            : `The source says: “Sentence ${i}-${p}.” (dpr.pdf, p. 1)`,
        ],
      );
    });
    return id;
  });
  const prompts = (chapter: string) =>
    sqlite
      .query<{ prompt: string }, [string]>("SELECT prompt FROM quiz_questions WHERE chapter_id = ? ORDER BY position")
      .all(chapter)
      .map((r) => r.prompt);

  await dropRepeatedQuizQuestions(sqliteSql(sqlite), course);
  expect(prompts(chapterIds[0]!)).toEqual(quizzes[0]!);
  expect(prompts(chapterIds[1]!)).toEqual(quizzes[1]!.slice(1));
  // Again (a resumed job runs it again): nothing more goes, and a chapter at three keeps its three.
  await dropRepeatedQuizQuestions(sqliteSql(sqlite), course);
  expect(prompts(chapterIds[1]!)).toHaveLength(3);
  sqlite.close();
});
