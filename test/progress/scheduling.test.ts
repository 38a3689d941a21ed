/**
 * FSRS scheduling with an injected clock: how far each rating pushes a card, the order of the due
 * list at chosen times, lapses, and that the same reviews always give the same schedule.
 */
import { afterAll, expect, test } from "bun:test";
import type { CourseOwner } from "../../src/courses/read.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { dueCards, reviewCard } from "../../src/progress/flashcard-reviews.ts";
import { learnerProgress } from "../../src/progress/standing.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { cleanup, tempDir } from "../helpers/server.ts";
import { insertRichCourse } from "../materials/fixtures.ts";
import { cacheDeck } from "./fixtures.ts";

const dir = tempDir("cf-fsrs-");
const { sqlite } = await openDb(dir);
const key = (await createKey(sqliteSql(sqlite), { tenant: "acme", env: "production", rateLimit: null })).key;
const courseId = await insertRichCourse(dir, { apiKey: key, externalUserId: "ada" });
const twinCourse = await insertRichCourse(dir, { apiKey: key, externalUserId: "bob" });
await cacheDeck(dir, courseId);
await cacheDeck(dir, twinCourse);
const ownerOf = (id: string): CourseOwner => {
  const row = sqlite
    .query<{ tenant_id: string; user_id: string }, [string]>("SELECT tenant_id, user_id FROM courses WHERE id = ?")
    .get(id)!;
  return { tenantId: row.tenant_id, userId: row.user_id };
};
const stores = { db: sqliteSql(sqlite) };
const ada = ownerOf(courseId);
const bob = ownerOf(twinCourse);
afterAll(() => {
  sqlite.close();
  cleanup(dir);
});

const T0 = new Date("2026-03-02T09:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;
const DAY = 86_400_000;
const order = async (at: Date) => (await dueCards(stores, ada, courseId, {}, at)).cards.map((c) => c.card_index);

test("again < hard < good < easy: each rating of a new card brings it back later than the one before", async () => {
  const dues = await Promise.all(
    (["again", "hard", "good", "easy"] as const).map((rating, i) =>
      reviewCard(stores, ada, courseId, { cardIndex: i, rating }, T0),
    ),
  );
  const at = dues.map((d) => Date.parse(d.due!) - T0.getTime());
  expect(at[0]).toBeGreaterThan(0);
  for (let i = 1; i < at.length; i++) expect(at[i]!).toBeGreaterThan(at[i - 1]!);
  // Learning steps for again/hard/good come back the same day; easy graduates to days.
  expect(at[2]!).toBeLessThan(DAY);
  expect(at[3]!).toBeGreaterThanOrEqual(DAY);
  expect(dues.map((d) => d.state)).toEqual(["learning", "learning", "learning", "review"]);
});

test("the due list at a chosen time: reviewed cards due, most overdue first, then new cards in deck order", async () => {
  expect(await order(T0)).toEqual([4]);
  expect(await order(later(MINUTE))).toEqual([0, 4]);
  expect(await order(later(DAY))).toEqual([0, 1, 2, 4]);
  const easyDue = Date.parse((await dueCards(stores, ada, courseId, {}, later(DAY))).next_due!);
  expect(await order(new Date(easyDue - 1))).toEqual([0, 1, 2, 4]);
  expect(await order(new Date(easyDue))).toEqual([0, 1, 2, 3, 4]);
  expect(
    (await learnerProgress(stores, ada, { id: courseId, title: "", status: "completed", model: null }, later(DAY)))
      .flashcards,
  ).toMatchObject({
    total: 5,
    reviewed: 4,
    due: 4,
    next_due: new Date(easyDue).toISOString(),
  });
});

test("reviewing a due card moves it behind the others; forgetting a graduated card is a lapse", async () => {
  const at = later(DAY);
  const good = await reviewCard(stores, ada, courseId, { cardIndex: 0, rating: "good" }, at);
  expect(Date.parse(good.due!)).toBeGreaterThan(at.getTime());
  expect(await order(at)).toEqual([1, 2, 4]);
  const easyDue = new Date(
    (await dueCards(stores, ada, courseId, {}, later(365 * DAY))).cards.find((c) => c.card_index === 3)!.due!,
  );
  const lapse = await reviewCard(stores, ada, courseId, { cardIndex: 3, rating: "again" }, easyDue);
  expect(lapse).toMatchObject({ state: "relearning", lapses: 1, reps: 2 });
  expect(Date.parse(lapse.due!) - easyDue.getTime()).toBeLessThan(DAY);
});

test("no fuzz: the same reviews at the same times give the same schedule to every learner", async () => {
  const seq = [
    ["good", 0],
    ["good", 10 * MINUTE],
    ["hard", 3 * DAY],
  ] as const;
  const run = async (owner: CourseOwner, course: string) => {
    const dues: (string | null)[] = [];
    for (const [rating, t] of seq)
      dues.push((await reviewCard(stores, owner, course, { cardIndex: 4, rating }, later(t))).due);
    return dues;
  };
  expect(await run(bob, twinCourse)).toEqual(await run(ada, courseId));
});
