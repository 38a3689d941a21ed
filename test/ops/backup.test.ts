import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startApp } from "../helpers/app.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { BUN, call, cleanup, ROOT, tempDir } from "../helpers/server.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach(cleanup));

/** The command line, awaited rather than run synchronously: the server under test runs in this process. */
async function cli(dataDir: string, ...args: string[]) {
  const p = Bun.spawn([BUN, "src/main.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code, out, err };
}

test("an online backup restores into a fresh server that reads every course", async () => {
  const srv = await startApp();
  const key = await srv.createKey("backup-co", "production");
  const ids: string[] = [];
  for (let i = 0; i < 5; i++)
    ids.push(
      await insertCourse(
        srv.dataDir,
        { apiKey: key, externalUserId: "learner" },
        { title: `Backed up ${i}`, chapters: 3 },
      ),
    );
  await Bun.write(join(srv.dataDir, "blobs", "2026", "01", "00000000-0000-4000-8000-000000000000.txt"), "blob body");

  // The server keeps writing while the backup runs.
  const writes = (async () => {
    for (let i = 0; i < 30; i++) await call(srv, "/v2/users", { key, json: { external_id: `w${i}` } });
  })();
  const dest = join(tempDir("cf-backup-"), "snapshot");
  dirs.push(dest);
  const b = await cli(srv.dataDir, "backup", dest);
  await writes;
  expect(b.err).toBe("");
  expect(b.code).toBe(0);
  expect(b.out).toContain("5 courses");
  expect(existsSync(join(dest, "backup.json"))).toBe(true);

  const before: Record<string, unknown> = {};
  for (const id of ids) before[id] = (await call(srv, `/v2/courses/${id}`, { key, user: "learner" })).body;
  await srv.stop();

  const fresh = tempDir("cf-restored-");
  dirs.push(fresh);
  const r = await cli(fresh, "restore", dest);
  expect(r.code).toBe(0);
  expect(r.out).toContain("5 courses and 1 blobs");

  const restored = await startApp({ dataDir: fresh });
  try {
    const list = await call(restored, "/v2/courses?limit=100", { key, user: "learner" });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const c = await call(restored, `/v2/courses/${id}`, { key, user: "learner" });
      expect(c.body).toEqual(before[id]);
    }
    expect(await Bun.file(join(fresh, "blobs", "2026", "01", "00000000-0000-4000-8000-000000000000.txt")).text()).toBe(
      "blob body",
    );
  } finally {
    await restored.stop();
  }
});

test("backup refuses a non-empty destination and restore refuses to overwrite data", async () => {
  const srv = await startApp();
  dirs.push(srv.dataDir);
  try {
    const dest = tempDir("cf-occupied-");
    dirs.push(dest);
    await Bun.write(join(dest, "something"), "x");
    const b = await cli(srv.dataDir, "backup", dest);
    expect(b.code).toBe(2);
    expect(b.err).toContain("is not empty");
    const r = await cli(srv.dataDir, "restore", dest);
    expect(r.code).toBe(2);
    expect(r.err).toContain("holds no courseforge.db");
  } finally {
    await srv.stop({ keepData: true });
  }
  const snapshot = join(tempDir("cf-b2-"), "s");
  dirs.push(snapshot);
  expect((await cli(srv.dataDir, "backup", snapshot)).code).toBe(0);
  const again = await cli(srv.dataDir, "restore", snapshot);
  expect(again.code).toBe(2);
  expect(again.err).toContain("--force");
  expect((await cli(srv.dataDir, "restore", snapshot, "--force")).code).toBe(0);
});

test("with DATABASE_URL set, backup and restore refuse and point to pg_dump, never copying DATA_DIR's old SQLite database", async () => {
  // A data directory that still holds a SQLite database, as one does after migrate-to-postgres.
  const srv = await startApp();
  dirs.push(srv.dataDir);
  await srv.stop({ keepData: true });
  const dest = join(tempDir("cf-pg-backup-"), "s");
  dirs.push(dest);
  const onPostgres = (...args: string[]) =>
    Bun.spawn([BUN, "src/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: srv.dataDir, DATABASE_URL: "postgres://courseforge@127.0.0.1:9/courseforge" },
      stdout: "pipe",
      stderr: "pipe",
    });
  for (const args of [
    ["backup", dest],
    ["restore", dest],
  ]) {
    const p = onPostgres(...args);
    const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    expect(code).toBe(2);
    expect(err).toContain("pg_dump");
  }
  expect(existsSync(dest)).toBe(false);
});
