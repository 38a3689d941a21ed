/**
 * One deck and one exam per course for everyone who asks without a model_key: the newest, the one
 * exports package too. A course with two decks (two models) reviews the later one; model_key still
 * reaches the earlier one.
 */
import { afterAll, expect, test } from "bun:test";
import type { CourseOwner } from "../../src/courses/read.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { findExam } from "../../src/materials/exam.ts";
import { findDeck } from "../../src/materials/flashcards.ts";
import { courseExam } from "../../src/progress/decks.ts";
import { dueCards } from "../../src/progress/flashcard-reviews.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { cleanup, tempDir } from "../helpers/server.ts";
import { insertRichCourse } from "../materials/fixtures.ts";
import { cacheDeck, cacheExam, DECK, EXAM } from "./fixtures.ts";

const dir = tempDir("cf-deck-choice-");
const { sqlite } = await openDb(dir);
const key = (await createKey(sqliteSql(sqlite), { tenant: "acme", env: "production", rateLimit: null })).key;
const courseId = await insertRichCourse(dir, { apiKey: key, externalUserId: "ada" });
const row = sqlite
  .query<{ tenant_id: string; user_id: string }, [string]>("SELECT tenant_id, user_id FROM courses WHERE id = ?")
  .get(courseId)!;
const ada: CourseOwner = { tenantId: row.tenant_id, userId: row.user_id };
afterAll(() => {
  sqlite.close();
  cleanup(dir);
});

const older = { ...DECK, deck_title: "Older deck" };
const newer = { ...DECK, deck_title: "Newer deck", cards: DECK.cards.slice(0, 3), total: 3 };
await cacheDeck(dir, courseId, older, "model-a");
await cacheDeck(dir, courseId, newer, "model-b");
await cacheExam(dir, courseId, { size: 10, model: "model-a", questions: EXAM.slice(0, 2) });
await cacheExam(dir, courseId, { size: 10, model: "model-b", questions: EXAM.slice(0, 3) });

test("reviews without a model_key use the newest deck, the one an export packages", async () => {
  const due = await dueCards({ db: sqliteSql(sqlite) }, ada, courseId, {}, new Date());
  expect(due.deck_title).toBe("Newer deck");
  expect(due.model).toBe("model-b");
  expect(due.total_due).toBe(3);
  expect((await findDeck(sqliteSql(sqlite), courseId))?.deck.deck_title).toBe("Newer deck");
});

test("model_key still reaches the older deck", async () => {
  const due = await dueCards({ db: sqliteSql(sqlite) }, ada, courseId, { modelKey: "model-a" }, new Date());
  expect(due.deck_title).toBe("Older deck");
  expect(due.total_due).toBe(DECK.cards.length);
});

test("exam attempts without a model_key answer the newest exam of the size, the one an export packages", async () => {
  const db = sqliteSql(sqlite);
  expect((await courseExam(db, courseId, 10)).questions).toHaveLength(3);
  expect((await courseExam(db, courseId, 10, "model-a")).questions).toHaveLength(2);
  expect((await findExam(db, courseId))?.exam.questions).toHaveLength(3);
  await expect(courseExam(db, courseId, 20)).rejects.toThrow(/No exam of 20 questions/);
});
