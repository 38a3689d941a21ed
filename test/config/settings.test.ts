import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";

test("a malformed URL setting stops the start with the setting's name, before anything is served", () => {
  expect(() => loadConfig({ PUBLIC_BASE_URL: "courses.example.org" })).toThrow(
    'PUBLIC_BASE_URL must be an http or https URL, got "courses.example.org"',
  );
  expect(() => loadConfig({ SEARXNG_URL: "ftp://search.local" })).toThrow("SEARXNG_URL must be an http or https URL");
});

test("a URL setting that is set is kept, and an unset one falls back to the listening address", () => {
  expect(loadConfig({ PUBLIC_BASE_URL: "https://courses.example.org/" }).baseUrl).toBe("https://courses.example.org");
  expect(loadConfig({ HOST: "127.0.0.1", PORT: "9000" }).baseUrl).toBe("http://127.0.0.1:9000");
});
