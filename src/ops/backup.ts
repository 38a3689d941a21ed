/**
 * Online backup and restore of a data directory. The database is copied with `VACUUM INTO`, which
 * reads one consistent snapshot inside a read transaction, so it is safe while the server writes
 * (WAL mode). Blobs are copied after the snapshot: they are immutable and written before the rows
 * that name them, so every blob the snapshot references is already on disk. A backup holds the
 * blobs in its `blobs` folder wherever BLOB_DIR put them, and a restore puts them back there.
 */
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { openDb } from "../db/index.ts";

const DB_FILE = "courseforge.db";

/** A refusal the operator can act on (printed without a stack trace). */
export class BackupError extends Error {}
const BLOBS = "blobs";
const SECRETS = "secrets";

function isEmptyDir(path: string): boolean {
  return !existsSync(path) || readdirSync(path).length === 0;
}

export interface BackupSummary {
  dest: string;
  schemaVersions: string[];
  courses: number;
  blobs: number;
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}

/** What a data directory holds: its database's migrations and courses, and its blob files. */
function summaryOf(sqlite: Database, dir: string, blobDir: string): BackupSummary {
  return {
    dest: dir,
    schemaVersions: sqlite
      .query<{ version: string }, []>("SELECT version FROM schema_migrations ORDER BY version")
      .all()
      .map((r) => r.version),
    courses: sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM courses").get()!.n,
    blobs: countFiles(blobDir),
  };
}

/** `blobDir` is BLOB_DIR (DATA_DIR/blobs unless set). */
export async function backup(
  dataDir: string,
  destInput: string,
  blobDir = join(dataDir, BLOBS),
): Promise<BackupSummary> {
  const dest = resolve(destInput);
  if (!isEmptyDir(dest)) throw new BackupError(`${dest} is not empty; back up into a new or empty directory`);
  if (!existsSync(join(dataDir, DB_FILE))) throw new BackupError(`no database in ${dataDir}`);
  mkdirSync(dest, { recursive: true });
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    sqlite.query("VACUUM INTO ?").run(join(dest, DB_FILE));
  } finally {
    sqlite.close();
  }
  for (const [from, to] of [
    [blobDir, join(dest, BLOBS)],
    [join(dataDir, SECRETS), join(dest, SECRETS)],
  ] as const) {
    if (existsSync(from)) cpSync(from, to, { recursive: true });
  }
  const copy = new Database(join(dest, DB_FILE), { readonly: true });
  const summary = summaryOf(copy, dest, join(dest, BLOBS));
  copy.close();
  writeFileSync(
    join(dest, "backup.json"),
    JSON.stringify(
      { app: "courseforge", version: pkg.version, created_at: new Date().toISOString(), ...summary },
      null,
      2,
    ),
  );
  return summary;
}

/** Restores a backup into a data directory that has no database yet (or, with force, replaces it). */
export async function restore(
  dataDir: string,
  srcInput: string,
  opts: { force?: boolean; blobDir?: string } = {},
): Promise<BackupSummary> {
  const blobDir = opts.blobDir ?? join(dataDir, BLOBS);
  const src = resolve(srcInput);
  const srcDb = join(src, DB_FILE);
  if (!existsSync(srcDb)) throw new BackupError(`${src} holds no ${DB_FILE}; is it a courseforge backup?`);
  const check = new Database(srcDb, { readonly: true });
  const integrity = check.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check;
  check.close();
  if (integrity !== "ok") throw new BackupError(`the backup's database fails its integrity check: ${integrity}`);
  if (existsSync(join(dataDir, DB_FILE)) && !opts.force) {
    throw new BackupError(`${dataDir} already has a database; stop the server and pass --force to replace it`);
  }
  mkdirSync(dataDir, { recursive: true });
  for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) rmSync(join(dataDir, f), { force: true });
  for (const [from, to] of [
    [join(src, BLOBS), blobDir],
    [join(src, SECRETS), join(dataDir, SECRETS)],
  ] as const) {
    rmSync(to, { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, to, { recursive: true });
  }
  cpSync(srcDb, join(dataDir, DB_FILE));
  // Applies any migration newer than the backup, so an old backup restores into a new version.
  const { sqlite } = await openDb(dataDir);
  const summary = summaryOf(sqlite, dataDir, blobDir);
  sqlite.close();
  return summary;
}
