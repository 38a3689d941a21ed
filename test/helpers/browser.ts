/**
 * Debian's Chromium driven by playwright-core, headless, with a fresh profile (Playwright gives each
 * launch its own new --user-data-dir) and nothing that reaches the network by itself (no component
 * updates, sync or background requests), plus axe-core run inside a page. The browser is launched by
 * Playwright's server under Node (chromium-server.mjs) and driven over its WebSocket from the tests.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { spawn } from "bun";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const server = spawn(["node", join(import.meta.dir, "chromium-server.mjs"), CHROMIUM, JSON.stringify(ARGS)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = server.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the browser server exited with ${await server.exited}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const browser = await chromium.connect(out.trim());
  const context = await browser.newContext({ acceptDownloads: true });
  return {
    context,
    async close() {
      await browser.close();
      server.stdin.end();
      await server.exited;
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's WCAG 2.1 A/AA rules on the page as it is now; the serious and critical violations.
 * Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return result.violations as AxeViolation[];
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
