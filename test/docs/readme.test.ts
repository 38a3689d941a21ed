/** The README is part of the product: its quick start and configuration table must stay true. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { settingsTable } from "../../src/config.ts";
import { startApp } from "../helpers/app.ts";
import { call, ROOT } from "../helpers/server.ts";

const readme = await Bun.file(join(ROOT, "README.md")).text();

test("the configuration table matches src/config.ts", () => {
  expect(readme).toContain(settingsTable("markdown"));
});

test("CI runs exactly the README's test command", async () => {
  const ci = await Bun.file(join(ROOT, ".ci/run")).text();
  const command = "npm install && npm test";
  expect(readme).toContain(command);
  expect(ci).toContain(command);
});

test("the quick start works on a plain clone: its sample files are in the repository, and no command needs bun on PATH", async () => {
  const blocks = [...readme.matchAll(/```(?:sh|bash)?\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const uploads = blocks.flatMap((b) => [...b.matchAll(/files=@(\S+?)["\s]/g)].map((m) => m[1]!));
  expect(uploads.length).toBeGreaterThan(0);
  for (const path of uploads) {
    expect(path.startsWith("..")).toBe(false);
    expect(await Bun.file(join(ROOT, path)).exists()).toBe(true);
  }
  // `bun` itself is a dev dependency, not on PATH: commands go through npm scripts or npx.
  const commands = [...blocks.flatMap((b) => b.split("\n")), ...[...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)];
  expect(commands.filter((c) => /^\s*bun\s/.test(c))).toEqual([]);
  const pkg = await Bun.file(join(ROOT, "package.json")).json();
  expect(pkg.scripts.courseforge).toBe("bun src/main.ts");
});

test("the quick start's course request answers as the README says, with no model configured", async () => {
  const srv = await startApp({
    env: { LLM_PROVIDER: "auto", OLLAMA_HOST: "http://127.0.0.1:9", OPENAI_BASE_URL: "" },
  });
  try {
    const key = await srv.createKey("default", "test");
    const form = new FormData();
    form.append("files", new Blob([await Bun.file(join(ROOT, "samples/tides.md")).arrayBuffer()]), "tides.md");
    const made = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "alice", body: form });
    expect(made.status).toBe(200);
    const titles = made.body.course.chapters.map((c: { title: string }) => c.title);
    expect(titles).toEqual([
      "What causes tides",
      "Spring and neap tides",
      "Why tides differ from place to place",
      "Tides and people",
    ]);
  } finally {
    await srv.stop();
  }
});
