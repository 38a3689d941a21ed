import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { startApp } from "../helpers/app.ts";

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

test("the longest body timeout the server can serve with starts it; a longer one is refused by name", async () => {
  expect(() => loadConfig({ REQUEST_BODY_TIMEOUT_SECONDS: "248" })).toThrow(
    'REQUEST_BODY_TIMEOUT_SECONDS must be an integer from 1 to 247, got "248"',
  );
  const srv = await startApp({ listen: true, env: { REQUEST_BODY_TIMEOUT_SECONDS: "247" } });
  try {
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  } finally {
    await srv.stop();
  }
});
