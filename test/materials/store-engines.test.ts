/**
 * The materials owner's storage (study_guides, course_notes, flashcard_decks, exams) on both
 * engines: SQLite (the server's) and PostgreSQL (a throwaway cluster). Each material is kept once
 * per cache key (the first stays), the finders take the newest, notes are charged with the row
 * that pays for them, and a material asked for at once is made once: in one process by its
 * single flight, across PostgreSQL connections (nodes) by the seam's lock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "../../src/db/sql.ts";
import type { Exam } from "../../src/materials/exam.ts";
import { findExam, readExam, storeExam } from "../../src/materials/exam.ts";
import { findDeck, readDeck, storeDeck } from "../../src/materials/flashcards.ts";
import { findLatestNotes, type NotesOptions, storeNotes } from "../../src/materials/notes.ts";
import { cachedOrMade, madeOnce } from "../../src/materials/single-flight.ts";
import { readStudyGuide, storeStudyGuide } from "../../src/materials/study-guide.ts";
import type { AuthContext } from "../../src/tenants/keys.ts";
import { ENGINES, type Engine, postgresEngine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";

const byModel = (model: string) => ({ engine: "ollama" as const, model });
const deckOf = (title: string, fronts: string[]) => ({
  deck_title: title,
  cards: fronts.map((front) => ({ front, back: `${front}, explained` })),
  total: fronts.length,
});
const examOf = (title: string, prompts: string[]): Exam => ({
  title,
  instructions: "Answer all.",
  questions: prompts.map((prompt) => ({ type: "short_answer", prompt, answer: "A", rubric: ["A"] })),
  total: prompts.length,
});
const EXAMS: NotesOptions = { learning_goal: "exams", learning_style: "concise", tutor_tone: "peer" };
const PRACTICAL: NotesOptions = { learning_goal: "practical", learning_style: "narrative", tutor_tone: "mentor" };

function payerOf(owner: { tenantId: string; userId: string }) {
  const auth = { tenantId: owner.tenantId, keyId: "key-1", keyEnv: "production" } as AuthContext;
  return { auth, userId: owner.userId };
}

describe.each(ENGINES)("study materials on %s", (_, open) => {
  let e: Engine;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("a course's study guide is stored once: a second store keeps the first", async () => {
    const c = await seedCourse(e.db, "guide");
    expect(await readStudyGuide(e.db, c.courseId)).toBeNull();
    const first = { title: "Graphs", sections: [{ heading: "Basics", body: "Nodes and edges." }] };
    await storeStudyGuide(e.db, c.courseId, first, byModel("m1"));
    await storeStudyGuide(e.db, c.courseId, { title: "Other", sections: [] }, byModel("m2"));
    expect(await readStudyGuide(e.db, c.courseId)).toMatchObject({ guide: first, engine: "ollama", model: "m1" });
  });

  test("decks: one per model, the first kept; without a model the newest", async () => {
    const c = await seedCourse(e.db, "decks");
    await storeDeck(e.db, c.courseId, deckOf("A", ["a1", "a2"]), byModel("model-a"));
    await storeDeck(e.db, c.courseId, deckOf("B", ["b1"]), byModel("model-b"));
    await storeDeck(e.db, c.courseId, deckOf("A again", ["x"]), byModel("model-a"));
    expect((await readDeck(e.db, c.courseId, "model-a"))?.flashcards.deck_title).toBe("A");
    expect(await findDeck(e.db, c.courseId)).toMatchObject({ model: "model-b", deck: { deck_title: "B" } });
    expect((await findDeck(e.db, c.courseId, "model-a"))?.deck.cards.map((card) => card.front)).toEqual(["a1", "a2"]);
    expect(await findDeck(e.db, c.courseId, "model-c")).toBeNull();
  });

  test("exams: one per model and size, the first kept; the newest of a size or a model", async () => {
    const c = await seedCourse(e.db, "exams");
    await storeExam(e.db, c.courseId, 10, examOf("A10", ["p1", "p2"]), byModel("model-a"));
    await storeExam(e.db, c.courseId, 20, examOf("A20", ["q1"]), byModel("model-a"));
    await storeExam(e.db, c.courseId, 10, examOf("B10", ["r1", "r2", "r3"]), byModel("model-b"));
    await storeExam(e.db, c.courseId, 10, examOf("A10 again", ["x"]), byModel("model-a"));
    expect((await readExam(e.db, c.courseId, "model-a", 10))?.exam.title).toBe("A10");
    expect((await findExam(e.db, c.courseId))?.exam.title).toBe("B10");
    expect((await findExam(e.db, c.courseId, { size: 20 }))?.exam.title).toBe("A20");
    expect((await findExam(e.db, c.courseId, { size: 10, model: "model-a" }))?.exam_size).toBe(10);
    expect(await findExam(e.db, c.courseId, { size: 30 })).toBeNull();
  });

  test("notes are charged once with the row that pays for them; the newest, narrowed by options", async () => {
    const c = await seedCourse(e.db, "notes");
    const payer = payerOf(c.owner);
    expect(await storeNotes(e.db, c.courseId, EXAMS, "# First", byModel("m1"), payer)).toBe(true);
    expect(await storeNotes(e.db, c.courseId, EXAMS, "# Again", byModel("m1"), payer)).toBe(false);
    expect(await storeNotes(e.db, c.courseId, PRACTICAL, "# Practical", byModel("m1"), payer)).toBe(true);
    const charges = await e.db.all<{ operation: string; amount_micros: number | string }>(
      sql`SELECT operation, amount_micros FROM usage_events WHERE tenant_id = ${c.owner.tenantId}`,
    );
    expect(charges.map((r) => [r.operation, Number(r.amount_micros)])).toEqual([
      ["notes", 50_000],
      ["notes", 50_000],
    ]);
    expect((await findLatestNotes(e.db, c.courseId))?.notes).toBe("# Practical");
    expect(await findLatestNotes(e.db, c.courseId, { learning_goal: "exams" })).toMatchObject({
      notes: "# First",
      options: EXAMS,
    });
    expect(await findLatestNotes(e.db, c.courseId, { learning_goal: "interviews" })).toBeNull();
  });

  test("a failed charge stores no notes", async () => {
    const c = await seedCourse(e.db, "unpaid");
    const payer = payerOf({ ...c.owner, tenantId: "no-such-tenant" });
    await expect(storeNotes(e.db, c.courseId, EXAMS, "# Unpaid", byModel("m1"), payer)).rejects.toThrow();
    expect(await findLatestNotes(e.db, c.courseId)).toBeNull();
  });

  test("requests at once make a material once; the others get it from the cache", async () => {
    const c = await seedCourse(e.db, "crowd");
    let made = 0;
    const ask = () =>
      cachedOrMade(
        e.db,
        `flashcards:${c.courseId}:m1`,
        (db) => readDeck(db, c.courseId, "m1"),
        async (db) => {
          made++;
          await Bun.sleep(50);
          await storeDeck(db, c.courseId, deckOf("Once", ["a"]), byModel("m1"));
        },
      );
    const results = await Promise.all([ask(), ask(), ask()]);
    expect(made).toBe(1);
    expect(results.map((r) => r.from_cache).sort()).toEqual([false, true, true]);
    expect((await ask()).from_cache).toBe(true);
  });
});

describe("one material asked for on two PostgreSQL connections at once", () => {
  let e: Engine;

  beforeAll(async () => {
    e = await postgresEngine();
  }, 120_000);
  afterAll(() => e?.close());

  // madeOnce is what each node runs behind its own single flight: two calls are two nodes.
  test("it is made once: the second node waits for the first and finds its row", async () => {
    const c = await seedCourse(e.db, "two-nodes");
    const key = `exam:${c.courseId}:m1:10`;
    let made = 0;
    const node = () =>
      madeOnce(
        e.db,
        key,
        (db) => readExam(db, c.courseId, "m1", 10),
        async (db) => {
          made++;
          // The model call: long enough for the other node to read before this one stores.
          await Bun.sleep(300);
          await storeExam(db, c.courseId, 10, examOf(`Exam ${made}`, ["p"]), byModel("m1"));
        },
      );
    const results = await Promise.all([node(), node()]);
    expect(made).toBe(1);
    expect(results.map((r) => r.made).sort()).toEqual([false, true]);
    expect(results.map((r) => r.value.exam.title)).toEqual(["Exam 1", "Exam 1"]);
  }, 30_000);
});
