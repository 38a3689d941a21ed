/**
 * A job worker's database that counts the worker's looks at the queue (its read of due jobs, one
 * per tick) and can run a step of a test at the end of a look (when the worker asks when the queue
 * next changes), so a test waits for the worker's next look instead of sleeping.
 */
import type { Query, Sql } from "../../src/db/sql.ts";

export interface LookedDb {
  /** The database to hand the worker. */
  sql: Sql;
  /** Looks so far. */
  looks(): number;
  /** Runs `step` once, at the end of the worker's next look, before the worker chooses its sleep. */
  atLookEnd(step: () => Promise<void>): void;
}

export function countLooks(db: Sql): LookedDb {
  let looks = 0;
  let step: (() => Promise<void>) | null = null;
  const sql = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== "get") return value;
      return async (q: Query) => {
        const text = q.render("sqlite").text;
        if (text.includes("AS due FROM jobs")) looks++;
        if (text.includes("min(at)") && step) {
          const run = step;
          step = null;
          await run();
        }
        return value.call(target, q);
      };
    },
  });
  return {
    sql,
    looks: () => looks,
    atLookEnd: (s) => {
      step = s;
    },
  };
}
