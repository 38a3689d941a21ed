import { afterAll, expect, test } from "bun:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { openDb } from "../../src/db/index.ts";
import { migrate } from "../../src/db/migrate.ts";
import * as schema from "../../src/db/schema/index.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-db-");
const opened = await openDb(dir);
afterAll(() => {
  opened.sqlite.close();
  cleanup(dir);
});

test("WAL mode, busy timeout and foreign keys are on", () => {
  const { sqlite } = opened;
  expect(sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(sqlite.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
  expect(sqlite.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
});

test("sqlite-vec answers a vec0 KNN query in order of distance", () => {
  const { sqlite } = opened;
  sqlite.run("CREATE VIRTUAL TABLE knn_probe USING vec0(embedding float[3])");
  const insert = sqlite.prepare("INSERT INTO knn_probe(rowid, embedding) VALUES (?, ?)");
  const vectors: [number, number[]][] = [
    [1, [1, 0, 0]],
    [2, [0, 1, 0]],
    [3, [0.9, 0.1, 0]],
    [4, [0, 0, 1]],
  ];
  for (const [id, v] of vectors) insert.run(id, new Float32Array(v));
  const rows = sqlite
    .query<{ rowid: number; distance: number }, [Float32Array]>(
      "SELECT rowid, distance FROM knn_probe WHERE embedding MATCH ? AND k = 2 ORDER BY distance",
    )
    .all(new Float32Array([1, 0, 0]));
  expect(rows.map((r) => r.rowid)).toEqual([1, 3]);
  expect(rows[0]!.distance).toBeCloseTo(0, 5);
});

test("migrations are recorded and applying them again changes nothing", () => {
  const { sqlite } = opened;
  const before = sqlite.query("SELECT version FROM schema_migrations ORDER BY version").all();
  expect(before.length).toBeGreaterThan(0);
  expect(migrate(sqlite)).toEqual([]);
  expect(sqlite.query("SELECT version FROM schema_migrations ORDER BY version").all()).toEqual(before);
});

test("every drizzle table and column exists in the migrated database", () => {
  const { sqlite } = opened;
  const tables = (Object.values(schema) as unknown[]).filter(
    (v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v,
  );
  expect(tables.length).toBeGreaterThan(5);
  for (const table of tables) {
    const cfg = getTableConfig(table);
    const actual = sqlite
      .query<{ name: string; notnull: number }, []>(`PRAGMA table_info(${JSON.stringify(cfg.name)})`)
      .all();
    expect({ table: cfg.name, exists: actual.length > 0 }).toEqual({ table: cfg.name, exists: true });
    const byName = new Map(actual.map((c) => [c.name, c]));
    for (const col of cfg.columns) {
      expect({ table: cfg.name, column: col.name, present: byName.has(col.name) }).toEqual({
        table: cfg.name,
        column: col.name,
        present: true,
      });
    }
  }
});
