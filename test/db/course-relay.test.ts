/**
 * Course generation events across nodes (#34): a course's job runs on whichever node claims it, and
 * a stream on another node follows it. Two clients of the run's throwaway cluster stand for this
 * node and another: what this process publishes is sent as a NOTIFY another node hears, in the
 * order published; what another node sends reaches this process's followers; and this process's
 * own events, heard back, are not delivered to its followers a second time.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { deliver, type GenerationEvent, publish, subscribe } from "../../src/courses/events.ts";
import { postgresSql } from "../../src/db/sql.ts";
import { CHANNELS, postgresBus } from "../../src/events/bus.ts";
import { relayCourseEvents } from "../../src/events/course-relay.ts";
import { createLogger } from "../../src/log.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";

let pg: TestPostgres;
let here: SQL;
let other: SQL;
let stop: () => Promise<void>;

beforeAll(async () => {
  pg = await startPostgres();
  here = new SQL({ url: pg.url, max: 2 });
  other = new SQL({ url: pg.url, max: 2 });
  stop = await relayCourseEvents({ sql: postgresSql(here), events: postgresBus(here), log: createLogger("error") });
}, 120_000);
afterAll(async () => {
  await stop?.();
  await here?.close();
  await other?.close();
  await pg?.stop();
});

const chapter = (jobId: string, order: number): GenerationEvent => ({
  type: "chapter",
  job_id: jobId,
  course_id: "course-1",
  order_index: order,
  title: `Chapter ${order}`,
  status: "completed",
  completed_at: "2030-01-01T00:00:00.000Z",
});

/** Resolves once `n` items are in `list`, failing after 20 s. */
async function until<T>(list: T[], n: number): Promise<T[]> {
  for (let i = 0; i < 400 && list.length < n; i++) await Bun.sleep(50);
  expect(list).toHaveLength(n);
  return list;
}

test("this node's events reach another node, in the order published", async () => {
  const heard: GenerationEvent[] = [];
  const listening = await other.listen(CHANNELS.courseEvent, (payload) => heard.push(JSON.parse(payload).event));
  try {
    for (const order of [0, 1, 2, 3, 4]) publish(chapter("job-out", order));
    expect((await until(heard, 5)).map((e) => e.type === "chapter" && e.order_index)).toEqual([0, 1, 2, 3, 4]);
  } finally {
    await listening.unlisten();
  }
});

test("another node's events reach this node's followers, and this node's own are delivered once", async () => {
  const followed: GenerationEvent[] = [];
  const unsubscribe = subscribe("job-in", (e) => followed.push(e));
  try {
    const fromOther = JSON.stringify({ from: "another-node", event: chapter("job-in", 0) });
    await other`SELECT pg_notify(${CHANNELS.courseEvent}, ${fromOther})`;
    await until(followed, 1);
    publish(chapter("job-in", 1));
    // The second event arrived at once; its echo through PostgreSQL, had it been delivered, before a third sent after it.
    await other`SELECT pg_notify(${CHANNELS.courseEvent}, ${JSON.stringify({ from: "another-node", event: chapter("job-in", 2) })})`;
    await until(followed, 3);
    await Bun.sleep(200);
    expect(followed.map((e) => e.type === "chapter" && e.order_index)).toEqual([0, 1, 2]);
  } finally {
    unsubscribe();
  }
  // Delivering locally never relays again.
  const heard: string[] = [];
  const listening = await other.listen(CHANNELS.courseEvent, (p) => heard.push(p));
  deliver(chapter("job-local", 0));
  publish(chapter("job-local", 1));
  await until(heard, 1);
  await listening.unlisten();
  expect(JSON.parse(heard[0]!).event.order_index).toBe(1);
});
