/**
 * Rate limits and sign-in limits on both engines (src/http/rate-limit.ts; on PostgreSQL counted in
 * `rate_windows`, src/db/rate-windows.ts): a bucket's budget per one-minute window, refused past
 * it with the time to the window's end, a fresh budget in the next window, and no more calls than
 * the budget when they race. On PostgreSQL two clients of one throwaway cluster stand for two
 * nodes: they spend one budget, for requests and for failed sign-ins alike.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { postgresSql, sql } from "../../src/db/sql.ts";
import { AppError } from "../../src/errors.ts";
import { rateLimiter } from "../../src/http/rate-limit.ts";
import { signInLimits } from "../../src/http/sign-in-limit.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";
import { manualClock } from "../helpers/manual-clock.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";

/** 10 s into a minute, so a test's window does not end under it. */
const startOfWindow = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000);
const wrongKey = new AppError("UNAUTHORIZED", "Invalid API key");
const forged = (prefix: string) => `sk-service-test-${prefix}${"A".repeat(32)}`;

describe.each(ENGINES)("rate limits on %s", (_, open) => {
  let e: Engine;
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("a bucket's calls up to its limit, then 429s until the next minute", async () => {
    const clock = manualClock(startOfWindow());
    const limiter = rateLimiter(e.db, clock);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.check("tenant:acme", 3));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    // 10 s into the minute: the window ends in 50.
    expect(decisions[3]!.retryAfter).toBe(50);
    // Another bucket has its own budget.
    expect((await limiter.check("tenant:globex", 3)).remaining).toBe(2);
    clock.advance(60_000);
    expect(await limiter.check("tenant:acme", 3)).toMatchObject({ allowed: true, remaining: 2 });
  });

  test("calls racing for a bucket take no more than its budget", async () => {
    const limiter = rateLimiter(e.db, manualClock(startOfWindow()));
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.check("key:racing", 5)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });

  test("failed sign-ins past the limit answer 429, per address and per key prefix", async () => {
    const limits = signInLimits(2, rateLimiter(e.db, manualClock(startOfWindow())));
    const codes = async (address: string, prefix: string) =>
      ((await limits.failed(address, forged(prefix), wrongKey)) as AppError).code;
    expect([await codes("10.0.0.1", "aaaaaaaa"), await codes("10.0.0.1", "bbbbbbbb")]).toEqual([
      "UNAUTHORIZED",
      "UNAUTHORIZED",
    ]);
    expect(await codes("10.0.0.1", "cccccccc")).toBe("RATE_LIMITED");
    // Another address, trying a prefix no one failed with: still a plain 401.
    expect(await codes("10.0.0.2", "dddddddd")).toBe("UNAUTHORIZED");
  });
});

describe("rate limits on PostgreSQL across two nodes", () => {
  let pg: TestPostgres;
  let clients: SQL[];
  beforeAll(async () => {
    pg = await startPostgres();
    await migratePostgres(pg.client);
    clients = [new SQL({ url: pg.url, max: 3 }), new SQL({ url: pg.url, max: 3 })];
  }, 120_000);
  afterAll(async () => {
    for (const c of clients ?? []) await c.close();
    await pg?.stop();
  });

  test("two nodes spend one budget, even racing for it", async () => {
    const start = startOfWindow();
    const [a, b] = clients.map((c) => rateLimiter(postgresSql(c), manualClock(start)));
    expect((await a!.check("tenant:shared", 7)).remaining).toBe(6);
    expect((await b!.check("tenant:shared", 7)).remaining).toBe(5);
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a! : b!).check("tenant:shared", 7)),
    );
    expect(racing.filter((d) => d.allowed)).toHaveLength(5);
    expect((await a!.check("tenant:shared", 7)).allowed).toBe(false);
    expect((await b!.check("tenant:shared", 7)).allowed).toBe(false);
  });

  test("failed sign-ins on one node count on the other", async () => {
    const start = startOfWindow();
    const [a, b] = clients.map((c) => signInLimits(2, rateLimiter(postgresSql(c), manualClock(start))));
    const code = async (limits: typeof a, prefix: string) =>
      ((await limits!.failed("192.0.2.7", forged(prefix), wrongKey)) as AppError).code;
    expect(await code(a, "eeeeeeee")).toBe("UNAUTHORIZED");
    expect(await code(b, "ffffffff")).toBe("UNAUTHORIZED");
    expect(await code(a, "gggggggg")).toBe("RATE_LIMITED");
    expect(await code(b, "hhhhhhhh")).toBe("RATE_LIMITED");
  });

  test("a new minute's first call drops the counts of the minutes before", async () => {
    const clock = manualClock(startOfWindow());
    const db = postgresSql(clients[0]!);
    const limiter = rateLimiter(db, clock);
    await limiter.check("tenant:old", 5);
    clock.advance(60_000);
    await limiter.check("tenant:new", 5);
    const windows = await db.all<{ bucket: string }>(sql`SELECT bucket FROM rate_windows ORDER BY bucket`);
    expect(windows.map((w) => w.bucket)).toEqual(["tenant:new"]);
  });
});
