/**
 * A course build with the built-in engine does not hold the server (#32): its builders run in a
 * worker thread, so /health, asked again and again while a book becomes a course, answers each time
 * in a small part of the build's time. (Built on the server's own thread, the answer waited for
 * each builder call: most of the build.) A bound relative to the build itself, so a loaded machine
 * slows both alike.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { call, ROOT, startServer, type TestServer } from "../helpers/server.ts";
import { filesForm } from "./helpers.ts";

const BOOK = join(ROOT, "../shared/corpus/books/gnu-bash-reference-manual.html");

let srv: TestServer;
let key: string;

beforeAll(async () => {
  srv = await startServer({ env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "100000" } });
  key = await srv.createKey("acme", "production");
});
afterAll(() => srv?.stop());

test("/health answers promptly all through a book's course build", async () => {
  const form = filesForm({ num_chapters: "2" }, [
    { name: "bashref.html", content: await Bun.file(BOOK).bytes(), type: "text/html" },
  ]);
  const started = performance.now();
  let building = true;
  const build = call(srv.url, "/v2/courses/generate-from-files?mode=sync", { key, user: "reader", body: form }).finally(
    () => {
      building = false;
    },
  );
  const waits: number[] = [];
  while (building) {
    const t0 = performance.now();
    const res = await fetch(`${srv.url}/health`);
    await res.arrayBuffer();
    waits.push(performance.now() - t0);
    await Bun.sleep(20);
  }
  const made = await build;
  const took = performance.now() - started;
  expect(made.status).toBe(200);
  expect(took).toBeGreaterThan(1_000);
  expect(waits.length).toBeGreaterThan(10);
  expect(Math.max(...waits)).toBeLessThan(took * 0.1);
}, 600_000);
