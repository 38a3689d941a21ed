/**
 * The exports owner's storage (podcast_feeds) on both engines: SQLite (the server's) and
 * PostgreSQL (a throwaway cluster). A course has one live feed, also when several requests open
 * it at once; its token opens it until it is revoked, and a new feed after that is another.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { feedOfToken, feedToken, openFeed, revokeFeed } from "../../src/exports/feed-tokens.ts";
import { createSigner } from "../../src/media/signer.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";

describe.each(ENGINES)("podcast feeds on %s", (_, open) => {
  let e: Engine;
  const signer = createSigner("feed secret of this test");

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("requests opening a course's feed at once all get the one live feed, created once", async () => {
    const c = await seedCourse(e.db, "listeners");
    const opened = await Promise.all(Array.from({ length: 5 }, () => openFeed(e.db, c.courseId)));
    expect(new Set(opened.map((o) => o.feed.id)).size).toBe(1);
    expect(opened.filter((o) => o.created)).toHaveLength(1);
    const again = await openFeed(e.db, c.courseId);
    expect(again).toEqual({ feed: opened[0]!.feed, created: false });
    expect(again.feed).toMatchObject({ course_id: c.courseId, created_at: expect.any(String) });
  });

  test("a token opens its feed until the feed is revoked; a forged one never; a new feed is another", async () => {
    const c = await seedCourse(e.db, "revokers");
    const { feed } = await openFeed(e.db, c.courseId);
    const token = feedToken(signer, feed);
    expect(await feedOfToken(e.db, signer, token)).toEqual(feed);
    const forged = `${token.slice(0, 32)}${"A".repeat(43)}`;
    expect(await feedOfToken(e.db, signer, forged)).toBeNull();
    expect(await feedOfToken(e.db, signer, "not-a-token")).toBeNull();

    expect(await revokeFeed(e.db, c.courseId)).toBe(true);
    expect(await revokeFeed(e.db, c.courseId)).toBe(false);
    expect(await feedOfToken(e.db, signer, token)).toBeNull();

    const next = await openFeed(e.db, c.courseId);
    expect(next.created).toBe(true);
    expect(next.feed.id).not.toBe(feed.id);
    expect(await feedOfToken(e.db, signer, feedToken(signer, next.feed))).toEqual(next.feed);
  });
});
