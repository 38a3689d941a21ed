/**
 * Debian's Chromium driven by playwright-core, headless, with a fresh profile and nothing that
 * reaches the network by itself (no component updates, sync or background requests), plus
 * axe-core run inside a page. Chromium writes its own log of every network request it makes
 * (NetLog), so a test can see all traffic, the browser's own included, not only a page's.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export interface Browser {
  context: BrowserContext;
  /**
   * Every request Chromium has started so far, with its traffic annotation: the id Chromium gives
   * each kind of request (a page's navigation, its subresources and fetches; or the browser's own
   * update checks, account and autofill lookups, which a test tells apart by it).
   */
  requests(): { url: string; annotation: number }[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "cf-chromium-"));
  const netLog = join(profile, "netlog.json");
  // launchPersistentContext passes the fresh profile as --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--log-net-log=${netLog}`,
    ],
    acceptDownloads: true,
  });
  // Playwright's 30 s for a click or a wait is an idle machine's; the test's own budget bounds the walk.
  context.setDefaultTimeout(120_000);
  return {
    context,
    // The log is JSON once Chromium exits; while it runs, requests are read from the text so far.
    requests: () =>
      [...readFileSync(netLog, "utf8").matchAll(/"traffic_annotation":(\d+),"url":"([^"]+)"/g)].map((m) => ({
        url: m[2]!,
        annotation: Number(m[1]),
      })),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
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
  // Once per document: parsing its half-megabyte source took 1.5 s of the renderer's CPU at each look.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      // The passes and incomplete checks are not read: only the violations' nodes are gathered.
      resultTypes: ["violations"],
    });
    return result.violations as AxeViolation[];
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
