/**
 * The seam between a table's owner and its engine. An owner writes each statement once, as a
 * `sql` template whose values become bound parameters (`?` on SQLite, `$n` on PostgreSQL), and
 * runs it through `Sql`, which both engines implement with the same async methods. The few
 * places where the engines' SQL differs are named fragments below (`jsonArrayHas`, `inJsonArray`),
 * or an owner's own `byDialect` choice, so a difference is visible where it is used.
 */
import type { Database } from "bun:sqlite";
import type { SQL, TransactionSQL } from "bun";
import { withWriteLock } from "./write-lock.ts";

export type Dialect = "sqlite" | "postgres";

type Part = string | { value: unknown } | { choice: Record<Dialect, Query> };

/** A statement or a fragment of one, rendered for an engine when it runs. */
export class Query {
  constructor(readonly parts: readonly Part[]) {}

  render(dialect: Dialect): { text: string; params: unknown[] } {
    const params: unknown[] = [];
    const walk = (q: Query): string =>
      q.parts
        .map((p) => {
          if (typeof p === "string") return p;
          if ("choice" in p) return walk(p.choice[dialect]);
          params.push(p.value);
          return dialect === "sqlite" ? "?" : `$${params.length}`;
        })
        .join("");
    return { text: walk(this), params };
  }
}

/** A statement: interpolated values are bound, interpolated `Query` fragments are inlined. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Query {
  const parts: Part[] = [];
  strings.forEach((s, i) => {
    parts.push(s);
    if (i >= values.length) return;
    const v = values[i];
    if (v instanceof Query) parts.push(...v.parts);
    else parts.push({ value: v });
  });
  return new Query(parts);
}

/** Trusted SQL text (an identifier or a keyword chosen by the code, never a caller's value). */
export const raw = (text: string): Query => new Query([text]);

/** Rows of a multi-row VALUES, or any comma-separated list of fragments (at least one). */
export const valuesList = (parts: Query[]): Query => parts.reduce((a, b) => sql`${a}, ${b}`);

/** One fragment per engine, for the SQL the two do not share. */
export const byDialect = (choice: Record<Dialect, Query>): Query => new Query([{ choice }]);

/** `column` holds a JSON array of strings that contains `value`. */
export const jsonArrayHas = (column: string, value: string): Query =>
  byDialect({
    sqlite: sql`EXISTS (SELECT 1 FROM json_each(${raw(column)}) WHERE value = ${value})`,
    postgres: sql`${raw(column)}::jsonb @> jsonb_build_array(${value}::text)`,
  });

/**
 * Locks the rows a SELECT reads until the transaction ends, where another node could change them
 * between the read and the write that depends on it; SQLite's one writer needs no row locks.
 */
export const forUpdate: Query = byDialect({ sqlite: sql``, postgres: sql` FOR UPDATE` });

/**
 * `column IN (values)` for a list of any length, bound as one JSON array parameter (cast through
 * text on PostgreSQL: a parameter typed jsonb would be taken as one JSON string).
 */
export const inJsonArray = (column: string, values: readonly string[]): Query =>
  byDialect({
    sqlite: sql`${raw(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`,
    postgres: sql`${raw(column)} IN (SELECT jsonb_array_elements_text(${JSON.stringify(values)}::text::jsonb))`,
  });

/**
 * The queries of one connection (or one transaction). `run` answers the rows changed.
 * `transaction` commits when `fn` resolves and rolls back when it throws; called inside a
 * transaction it is a savepoint of it. `lock(key)`, inside a transaction, holds `key` until it
 * ends, for a read-then-write that must not interleave with another node's (a count checked
 * against a cap, a row looked up before it is inserted).
 */
export interface Sql {
  readonly dialect: Dialect;
  all<T>(q: Query): Promise<T[]>;
  get<T>(q: Query): Promise<T | null>;
  run(q: Query): Promise<number>;
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  lock(key: string): Promise<void>;
}

/**
 * SQLite through the server's one bun:sqlite connection. Its statements run synchronously, so
 * the promises are already settled; the `*Sync` forms serve a caller still inside a synchronous
 * `sqlite.transaction` (an owner not yet behind the seam) with the same statements.
 *
 * A transaction's callback must await only its own queries: between them nothing but already
 * queued microtasks can run on this thread, and seam transactions wait for each other, so no
 * other request's statements land in it. Awaiting the network inside one would break that.
 */
export class SqliteSql implements Sql {
  readonly dialect = "sqlite";
  /** Seam transactions of this connection, one after the other. */
  private queue: Promise<unknown> = Promise.resolve();
  private open = false;

  /** `level` 0 is the connection; n > 0 is inside n nested seam transactions. */
  constructor(
    readonly db: Database,
    private readonly level = 0,
  ) {}

  allSync<T>(q: Query): T[] {
    const { text, params } = q.render("sqlite");
    return this.db.query(text).all(...(params as never[])) as T[];
  }

  getSync<T>(q: Query): T | null {
    const { text, params } = q.render("sqlite");
    return (this.db.query(text).get(...(params as never[])) as T | null) ?? null;
  }

  runSync(q: Query): number {
    const { text, params } = q.render("sqlite");
    return this.db.run(text, params as never[]).changes;
  }

  async all<T>(q: Query): Promise<T[]> {
    return this.allSync<T>(q);
  }

  async get<T>(q: Query): Promise<T | null> {
    return this.getSync<T>(q);
  }

  async run(q: Query): Promise<number> {
    return this.runSync(q);
  }

  /** Nothing to do: one process, one connection, and its seam transactions run one at a time. */
  async lock(_key: string): Promise<void> {}

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.level > 0) return this.savepoint(fn);
    // Called synchronously inside an owner's sqlite.transaction(): a savepoint of that one.
    if (!this.open && this.db.inTransaction) return this.savepoint(fn);
    const turn = this.queue.then(async () => {
      this.open = true;
      try {
        return await this.savepoint(fn);
      } finally {
        this.open = false;
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * A savepoint inside a transaction; outside any, a transaction of its own begun IMMEDIATE. A
   * deferred one (what a bare SAVEPOINT begins) reads from a snapshot and takes the write lock only
   * at its first write: when an extraction process committed in between, SQLite refuses that write
   * at once ("database is locked", no busy wait can help a stale snapshot) and the job that asked
   * failed under load. IMMEDIATE takes the write lock first, waiting out busy_timeout.
   */
  private async savepoint<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const outer = !this.db.inTransaction;
    const name = `seam_${this.level}`;
    if (outer) await beginImmediate(this.db);
    else this.db.run(`SAVEPOINT ${name}`);
    try {
      const result = await fn(new SqliteSql(this.db, this.level + 1));
      this.db.run(outer ? "COMMIT" : `RELEASE ${name}`);
      return result;
    } catch (err) {
      // SQLite rolls the whole transaction back itself on some errors (a full disk, out of memory):
      // rolling back again would fail and hide the error that says what happened.
      if (this.db.inTransaction) {
        if (outer) this.db.run("ROLLBACK");
        else {
          this.db.run(`ROLLBACK TO ${name}`);
          this.db.run(`RELEASE ${name}`);
        }
      }
      throw err;
    }
  }
}

/** BEGIN IMMEDIATE, waiting for the write lock without sleeping the server's thread (write-lock.ts). */
function beginImmediate(db: Database): Promise<void> {
  const deadline = performance.now() + LOCK_PATIENCE_MS;
  return withWriteLock(
    db,
    () => void db.run("BEGIN IMMEDIATE"),
    () => deadline,
  );
}
const LOCK_PATIENCE_MS = 5_000;

const sqliteSeams = new WeakMap<Database, SqliteSql>();

/** The seam over a bun:sqlite connection; one per connection, so its transactions queue together. */
export function sqliteSql(db: Database): SqliteSql {
  let seam = sqliteSeams.get(db);
  if (!seam) {
    seam = new SqliteSql(db);
    sqliteSeams.set(db, seam);
  }
  return seam;
}

/** PostgreSQL through Bun's built-in client: its pool, or one transaction (or savepoint) of it. */
export class PostgresSql implements Sql {
  readonly dialect = "postgres";

  constructor(
    private readonly client: SQL,
    private readonly inTransaction = false,
  ) {}

  async all<T>(q: Query): Promise<T[]> {
    const { text, params } = q.render("postgres");
    return [...(await this.client.unsafe(text, params))] as T[];
  }

  async get<T>(q: Query): Promise<T | null> {
    return (await this.all<T>(q))[0] ?? null;
  }

  async run(q: Query): Promise<number> {
    const { text, params } = q.render("postgres");
    return (await this.client.unsafe(text, params)).count as number;
  }

  async lock(key: string): Promise<void> {
    await this.client.unsafe("SELECT pg_advisory_xact_lock(hashtext($1))", [key]);
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const inner = (tx: TransactionSQL) => fn(new PostgresSql(tx, true));
    return (
      this.inTransaction ? (this.client as TransactionSQL).savepoint(inner) : this.client.begin(inner)
    ) as Promise<T>;
  }
}

export const postgresSql = (client: SQL): Sql => new PostgresSql(client);

/**
 * Locks the row a claim's SELECT picks and skips rows another transaction has locked, so claimers
 * on several nodes at once each take a different row instead of queueing behind one; SQLite's one
 * writer needs neither.
 */
export const forUpdateSkipLocked: Query = byDialect({ sqlite: sql``, postgres: sql` FOR UPDATE SKIP LOCKED` });
