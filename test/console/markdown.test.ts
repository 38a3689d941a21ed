/**
 * The console's markdown renderer (src/console/web/markdown.ts) in a real browser, fed what a
 * model's chapter or notes could hold: raw HTML with scripts, event handlers, javascript: links,
 * images and frames from elsewhere. What it returns, put into a page, runs nothing and loads nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type Browser, launchBrowser } from "../helpers/browser.ts";
import { cleanup, ROOT, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-markdown-");
let browser: Browser;
let page: Page;

const HOSTILE = `# Notes <img src=x onerror="window.__pwned='heading'">

Plain text with **bold** and a [safe link](https://example.org/page) and a [bad one](javascript:window.__pwned='link').

<script>window.__pwned = "script"</script>

<img src="http://127.0.0.1:9/tracker.png" onerror="window.__pwned='img'">

<a href="javascript:alert(1)" onclick="window.__pwned='onclick'">click</a> <a href="JaVaScRiPt:window.__pwned='case'">case</a>

<iframe src="http://127.0.0.1:9/frame"></iframe><svg onload="window.__pwned='svg'"><circle r="1"/></svg>

<form action="http://127.0.0.1:9/steal"><input name="q" onfocus="window.__pwned='focus'" autofocus></form>

<div style="background:url(http://127.0.0.1:9/bg.png)" onmouseover="window.__pwned='hover'">styled</div>

| a | b |
|---|---|
| <b onclick="window.__pwned='cell'">1</b> | 2 |
`;

beforeAll(async () => {
  // The module bundled for a browser, as the console bundles it, and exposed to the test page.
  const entry = join(dir, "entry.ts");
  await Bun.write(
    entry,
    `import { markdownToSafeHtml } from ${JSON.stringify(join(ROOT, "src/console/web/markdown.ts"))};\n(window as any).consoleMarkdown = { markdownToSafeHtml };\n`,
  );
  const built = await Bun.build({ entrypoints: [entry], target: "browser" });
  if (!built.success) throw new AggregateError(built.logs, "markdown.ts did not build");
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.setContent("<!doctype html><title>markdown</title><main id=out></main>");
  await page.addScriptTag({ content: await built.outputs[0]!.text() });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  cleanup(dir);
});

test("hostile markdown renders as inert text and markup", async () => {
  const outcome = await page.evaluate(async (markdown) => {
    const out = document.getElementById("out")!;
    out.innerHTML = (window as any).consoleMarkdown.markdownToSafeHtml(markdown);
    // Give handlers, loads and autofocus every chance to fire.
    out.querySelectorAll("*").forEach((el) => {
      el.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    });
    await new Promise((r) => setTimeout(r, 300));
    return {
      pwned: (window as any).__pwned ?? null,
      html: out.innerHTML,
      handlers: [...out.querySelectorAll("*")].flatMap((el) =>
        [...el.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name),
      ),
      hrefs: [...out.querySelectorAll("a")].map((a) => a.getAttribute("href")),
      loaders: out.querySelectorAll("img, iframe, svg, form, input, script, style, object, embed").length,
      styled: out.querySelectorAll("[style]").length,
      text: out.textContent,
      links: [...out.querySelectorAll("a[href]")].map((a) => [a.getAttribute("rel"), a.getAttribute("target")]),
      bold: out.querySelector("strong")?.textContent,
      cells: out.querySelectorAll("td").length,
    };
  }, HOSTILE);
  expect(outcome.pwned).toBeNull();
  expect(outcome.handlers).toEqual([]);
  expect(outcome.loaders).toBe(0);
  expect(outcome.styled).toBe(0);
  // Only the safe link keeps its address; the javascript: ones keep their words, not their target.
  expect(outcome.hrefs.filter((h) => h !== null)).toEqual(["https://example.org/page"]);
  expect(outcome.links).toEqual([["noopener noreferrer nofollow", "_blank"]]);
  expect(outcome.text).toContain("bad one");
  expect(outcome.text).toContain("click");
  // Ordinary markdown still renders.
  expect(outcome.bold).toBe("bold");
  expect(outcome.cells).toBe(2);
  expect(outcome.html).not.toMatch(/javascript:/i);
});
