/**
 * format=imscc read as an LMS importer reads a Common Cartridge 1.3: the manifest declares CC 1.3,
 * its organisation holds a module per chapter (page and quiz), the study guide and the exam, every
 * item points at a resource and every file named is in the package; assessments are QTI 1.2.1 in
 * the CC profile whose right answers name one of their choices; pages carry no script.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, ROOT } from "../helpers/server.ts";
import { download, type ExportCourseEnv, exportCourse, HOSTILE_TOPIC } from "./course.ts";
import { extractZip, openZip } from "./unzip.ts";

let env: ExportCourseEnv;
let dir: string;
let course: any;
let exam: any;

// The course is built once per run with its episodes: the file that builds it waits for their speech.
beforeAll(async () => {
  env = await exportCourse();
  course = (await call(env.srv, `/v2/courses/${env.courseId}`, { key: env.key, user: env.user })).body;
  exam = (
    await call(env.srv, `/v2/courses/${env.courseId}/generate-exam`, {
      key: env.key,
      user: env.user,
      json: { exam_size: 10 },
    })
  ).body.exam;
  const res = await download(env, "imscc");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/vnd.ims.imsccv1p3");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.imscc"$/);
  openZip(res.bytes);
  dir = extractZip(res.bytes);
}, 600_000);
afterAll(() => env.stop());

/** XPath over a package file with Debian's xmllint (which also refuses a file that is not well-formed XML). */
function xpath(file: string, expr: string): string {
  const run = Bun.spawnSync(["xmllint", "--xpath", expr, join(dir, file)], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0 && run.exitCode !== 10) throw new Error(`xmllint ${expr}: ${run.stderr.toString()}`);
  return run.stdout.toString().replace(/\n$/, "");
}
const attrs = (file: string, expr: string) => [...xpath(file, expr).matchAll(/="([^"]*)"/g)].map((m) => m[1]!);
const count = (file: string, expr: string) => Number(xpath(file, `count(${expr})`));
const el = (name: string) => `*[local-name()='${name}']`;

const SCHEMAS = join(ROOT, "../shared/schemas/imscc-1.3");

describe("format=imscc", () => {
  test("the manifest validates against the official CC 1.3 schemas, hostile title and all", () => {
    const run = Bun.spawnSync(
      [
        "xmllint",
        "--nonet",
        "--noout",
        "--schema",
        join(SCHEMAS, "ccv1p3_imscp_v1p2_v1p0.xsd"),
        join(dir, "imsmanifest.xml"),
      ],
      { stdout: "pipe", stderr: "pipe", env: { ...process.env, XML_CATALOG_FILES: join(SCHEMAS, "catalog.xml") } },
    );
    expect({ code: run.exitCode, err: run.stderr.toString().trim() }).toEqual({
      code: 0,
      err: `${join(dir, "imsmanifest.xml")} validates`,
    });
  });

  test("a CC 1.3 manifest: schema, version, namespace and the course title as escaped LOM text", () => {
    expect(xpath("imsmanifest.xml", "namespace-uri(/*)")).toBe("http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1");
    expect(xpath("imsmanifest.xml", `string(/${el("manifest")}/${el("metadata")}/${el("schema")})`)).toBe(
      "IMS Common Cartridge",
    );
    expect(xpath("imsmanifest.xml", `string(/${el("manifest")}/${el("metadata")}/${el("schemaversion")})`)).toBe(
      "1.3.0",
    );
    expect(xpath("imsmanifest.xml", `string(//${el("lom")}/${el("general")}/${el("title")}/${el("string")})`)).toBe(
      HOSTILE_TOPIC,
    );
  });

  test("every item points at a resource, every resource and dependency resolves, every file named exists", () => {
    const resources = attrs("imsmanifest.xml", `//${el("resource")}/@identifier`);
    const refs = attrs("imsmanifest.xml", `//${el("item")}/@identifierref`);
    const deps = attrs("imsmanifest.xml", `//${el("dependency")}/@identifierref`);
    for (const r of [...refs, ...deps]) expect(resources).toContain(r);
    for (const r of resources) expect([...refs, ...deps]).toContain(r);
    const files = attrs("imsmanifest.xml", `//${el("file")}/@href | //${el("resource")}/@href`);
    expect(files.length).toBeGreaterThan(course.chapters.length * 2);
    for (const f of files) expect({ file: f, exists: existsSync(join(dir, f)) }).toEqual({ file: f, exists: true });
    // An identifier is an XML ID, unique in the manifest.
    const ids = attrs("imsmanifest.xml", "//@identifier");
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("one module per chapter with its page and quiz, then the study guide and the exam", () => {
    const root = `/${el("manifest")}/${el("organizations")}/${el("organization")}/${el("item")}`;
    expect(count("imsmanifest.xml", `${root}/${el("item")}`)).toBe(course.chapters.length + 2);
    for (const [i, ch] of course.chapters.entries()) {
      const module = `${root}/${el("item")}[${i + 1}]`;
      expect(xpath("imsmanifest.xml", `string(${module}/${el("title")})`)).toBe(`Chapter ${i + 1}: ${ch.title}`);
      const [pageRef, quizRef] = attrs("imsmanifest.xml", `${module}/${el("item")}/@identifierref`);
      const pageFile = xpath("imsmanifest.xml", `string(//${el("resource")}[@identifier='${pageRef}']/@href)`);
      expect(xpath("imsmanifest.xml", `string(//${el("resource")}[@identifier='${pageRef}']/@type)`)).toBe(
        "webcontent",
      );
      const html = readFileSync(join(dir, pageFile), "utf8");
      for (const k of ch.key_concepts) expect(html).toContain(Bun.escapeHTML(k));
      expect(html).toContain("<h2>Sources</h2>");
      expect(html).toContain(Bun.escapeHTML(ch.sources[0].excerpt.trim().slice(0, 40)));

      expect(xpath("imsmanifest.xml", `string(//${el("resource")}[@identifier='${quizRef}']/@type)`)).toBe(
        "imsqti_xmlv1p2/imscc_xmlv1p3/assessment",
      );
      const quizFile = xpath(
        "imsmanifest.xml",
        `string(//${el("resource")}[@identifier='${quizRef}']/${el("file")}/@href)`,
      );
      expect(count(quizFile, `//${el("item")}`)).toBe(ch.quiz.questions.length);
      for (const [j, q] of ch.quiz.questions.entries()) {
        const item = `//${el("item")}[${j + 1}]`;
        expect(xpath(quizFile, `string(${item}//${el("fieldentry")}[../${el("fieldlabel")}='cc_profile'])`)).toBe(
          "cc.multiple_choice.v0p1",
        );
        expect(xpath(quizFile, `string(${item}/${el("presentation")}/${el("material")}/${el("mattext")})`)).toBe(
          q.prompt,
        );
        const labels = attrs(quizFile, `${item}//${el("response_label")}/@ident`);
        expect(labels).toHaveLength(q.choices.length);
        const right = xpath(quizFile, `string(${item}//${el("varequal")})`);
        expect(labels.indexOf(right)).toBe(q.answer);
      }
    }
    const guide = readFileSync(join(dir, "study-guide.html"), "utf8");
    expect(guide).toContain("Key terms");

    const examFile = xpath("imsmanifest.xml", `string(//${el("resource")}[@identifier='R_exam']/${el("file")}/@href)`);
    expect(xpath(examFile, `string(//${el("fieldentry")}[../${el("fieldlabel")}='qmd_assessmenttype'])`)).toBe(
      "Examination",
    );
    expect(count(examFile, `//${el("item")}`)).toBe(exam.questions.length);
    const profiles = attrs(examFile, `//${el("item")}/@ident`).map((_, j) =>
      xpath(examFile, `string(//${el("item")}[${j + 1}]//${el("fieldentry")}[../${el("fieldlabel")}='cc_profile'])`),
    );
    expect(profiles).toEqual(
      exam.questions.map((q: { type: string }) => (q.type === "mcq" ? "cc.multiple_choice.v0p1" : "cc.essay.v0p1")),
    );
  });

  test("pages are sanitised: document markup is text, no script, handler or remote image survives", () => {
    const pages = attrs("imsmanifest.xml", `//${el("resource")}[@type='webcontent']/@href`);
    const all = pages.map((p) => readFileSync(join(dir, p), "utf8")).join("\n");
    expect(all).not.toMatch(/<script|<img|onerror=|javascript:/i);
    expect(all).toContain("&lt;script&gt;");
    expect(readFileSync(join(dir, pages[0]!), "utf8")).toContain(
      `<title>${Bun.escapeHTML(course.chapters[0].title)}</title>`,
    );
  });
});
