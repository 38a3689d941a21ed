/** The single executable runs from an empty directory with no node_modules beside it. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { launchBrowser } from "../helpers/browser.ts";
import { BUN, call, cleanup, ROOT, startServer, type TestServer, tempDir } from "../helpers/server.ts";

const workDir = tempDir("cf-exe-");
const exe = join(workDir, "courseforge");
let srv: TestServer;

beforeAll(async () => {
  const built = join(workDir, "build-out");
  const proc = Bun.spawnSync([BUN, "build.ts", "--outfile", built], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`build failed: ${proc.stderr.toString()}`);
  copyFileSync(built, exe);
  rmSync(built);
  srv = await startServer({ command: [exe], cwd: workDir, dataDir: join(workDir, "data") });
}, 300_000);

afterAll(async () => {
  await srv?.stop();
  cleanup(workDir);
});

test("the executable starts outside the repository and serves", async () => {
  expect(existsSync(join(workDir, "node_modules"))).toBe(false);
  expect((await call(srv.url, "/health")).body).toEqual({ status: "ok" });
  const key = await srv.createKey("exe", "test");
  const user = await call(srv.url, "/v2/users", { key, json: { external_id: "exe-user" } });
  expect(user.status).toBe(201);
  const list = await call(srv.url, "/v2/courses", { key, user: "exe-user" });
  expect(list.status).toBe(200);
  expect(list.body.data).toEqual([]);
  // sqlite-vec was copied out of the executable and loaded.
  const { Database } = await import("bun:sqlite");
  const db = new Database(join(workDir, "data", "courseforge.db"), { readonly: true });
  expect(db.query("SELECT count(*) AS n FROM schema_migrations").get()).toMatchObject({ n: expect.any(Number) });
  db.close();
  expect(srv.output()).toContain('"msg":"courseforge listening"');
});

test("the executable serves the web console it embeds, which signs in and shows the learner's courses", async () => {
  const key = await srv.createKey("exe-console", "test");
  const browser = await launchBrowser();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(`${srv.url}/app/`);
    await page.getByLabel("API key").fill(key);
    await page.getByLabel("Learner id").fill("exe-learner");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Your courses" }).waitFor();
    await page.getByRole("link", { name: "Library", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Library" }).waitFor();
    await page.getByText("No documents yet.").waitFor();
  } finally {
    await browser.close();
  }
  // Served from the executable itself: no console sources exist beside it.
  expect(existsSync(join(workDir, "src"))).toBe(false);
});

test("--version and --help work without a data directory", () => {
  const v = Bun.spawnSync([exe, "--version"], { cwd: workDir });
  expect(v.stdout.toString()).toMatch(/^courseforge \d+\.\d+\.\d+/);
  const h = Bun.spawnSync([exe, "--help"], { cwd: workDir });
  const help = h.stdout.toString();
  expect(help).toContain("keys create");
  expect(help).toContain("DATA_DIR");
  expect(existsSync(join(workDir, "data", "lib"))).toBe(true);
});
