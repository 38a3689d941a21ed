/**
 * /docs makes no request beyond this server: the page loads only same-origin resources, and the
 * Scalar configuration it embeds turns off the hosted features (fonts, proxy, toolbar, client
 * button, AI agent, telemetry). A static check of the served page and its configuration, not a
 * browser run.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";

let srv: TestApp;
let html: string;
let config: Record<string, any>;

beforeAll(async () => {
  srv = await startApp();
  const res = await srv.fetch(`/docs`);
  expect(res.status).toBe(200);
  html = await res.text();
  // Read the attribute the way the Scalar bundle does: #api-reference[data-configuration].
  const attr = /<script id="api-reference" data-configuration="([^"]*)"/.exec(html)?.[1];
  expect(attr).toBeDefined();
  config = JSON.parse(attr!.replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
});
afterAll(() => srv.stop());

test("the page names no other origin", () => {
  expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
  for (const src of html.matchAll(/src="([^"]*)"/g)) expect(src[1]!.startsWith("/")).toBe(true);
  expect(html).not.toContain("scalar.com");
});

test("the Scalar configuration keeps everything on this server", () => {
  expect(JSON.stringify(config)).not.toContain("scalar.com");
  expect(config.url).toBe("/openapi.json");
  expect(config.withDefaultFonts).toBe(false); // else @font-face from fonts.scalar.com
  expect(config).not.toHaveProperty("proxyUrl"); // unset: the built-in client calls this server directly
  expect(config).not.toHaveProperty("proxy");
  expect(config.showDeveloperTools).toBe("never"); // Deploy / Share (api.scalar.com via proxy.scalar.com)
  expect(config.hideClientButton).toBe(true); // "Open in API Client" links to client.scalar.com
  expect(config.agent).toEqual({ disabled: true }); // "Ask AI"
  expect(config.telemetry).toBe(false);
  expect(config).not.toHaveProperty("hideDarkModeToggle"); // works offline: kept
  const value = config.authentication.securitySchemes.ApiKey.value;
  expect(value).not.toBe("YOUR_SECRET_TOKEN");
  expect(value).toContain("keys create");
});

test("the script the page loads is served here", async () => {
  const src = /<script src="([^"]+)"><\/script>/.exec(html)![1]!;
  const res = await srv.fetch(src);
  expect(res.status).toBe(200);
  const bundle = await res.text();
  // These are the options read above, under the names this bundle's configuration schema parses.
  for (const option of [
    "withDefaultFonts:",
    "hideClientButton:",
    "showDeveloperTools:",
    "agent:",
    "telemetry:",
    "proxyUrl:",
  ]) {
    expect(bundle).toContain(option);
  }
  expect(bundle).toContain('"#api-reference[data-configuration]"');
});
