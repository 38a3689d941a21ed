/** The README is part of the product: its quick start and configuration table must stay true. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { settingsTable } from "../../src/config.ts";
import { ROOT } from "../helpers/server.ts";

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
