/**
 * A DOCX's front section found by what its text is (#28, found on DEV owasp-asvs-4.0.3.docx): a
 * "Frontispiece" holding a paragraph about the guide, its copyright and licence, and grids of its
 * leads' and contributors' names is front matter, heading and all, and so is a credits section at
 * the back; the preface after it is taught. A DOCX has no pages for the page rules to read.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "../courses/helpers.ts";
import { docxWithStyles } from "./build-fixtures.ts";

const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const STYLES = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${ns}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
</w:styles>`;

const p = (text: string, style = "") =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}<w:r><w:t>${text}</w:t></w:r></w:p>`;
const grid = (names: string[], width: number) => {
  const rows: string[] = [];
  for (let i = 0; i < names.length; i += width)
    rows.push(
      `<w:tr>${names
        .slice(i, i + width)
        .map((n) => `<w:tc>${p(n)}</w:tc>`)
        .join("")}</w:tr>`,
    );
  return `<w:tbl>${rows.join("")}</w:tbl>`;
};

const LEADS = ["Maria Okafor", "Tomas Lindqvist", "Priya Raman", "Jonas Weber", "Aiko Tanaka", "Luis Moreno"];
const CONTRIBUTORS = [
  "Hannah Schultz",
  "Omar Haddad",
  "Grace Liu",
  "Pieter van Dijk",
  "Sofia Rossi",
  "Kwame Mensah",
  "Elena Petrova",
  "Daniel Cohen",
  "Ingrid Berg",
  "Rafael Costa",
  "Mei Chen",
  "Arjun Nair",
];
const TEAM = ["Chloe Martin", "Yusuf Demir", "Nora Fischer", "Samuel Adeyemi", "Lena Novak", "Mateo Silva"];

const ABOUT =
  "The Field Guide to Safe Deployments is a list of deployment practices that architects, developers, testers and operators can use to plan, stage, watch and undo the releases of the services they run.";
const COPYRIGHT =
  "Copyright © 2019-2024 The Example Foundation. This document is released under the Creative Commons Attribution ShareAlike 3.0 license. For any reuse or distribution, you must make clear to others the license terms of this work.";
const CREDIT_NOTE =
  "If a credit is missing from the list above, please open a ticket on the project site to be recognised in the next release.";

/** Four sentences of prose on one topic. */
const prose = (topic: string, n: number) =>
  Array.from(
    { length: 4 },
    (_, i) =>
      `${topic} rests on practice ${n * 4 + i + 1}, which the team applies to every release before it reaches the users who depend on the service.`,
  ).join(" ");

const document = `<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>
${p("Field Guide to Safe Deployments", "Title")}
${p("Frontispiece", "Heading1")}
${p("About the Guide", "Heading2")}
${p(ABOUT)}
${p("Copyright and License", "Heading2")}
${p("Version 2.1, March 2024")}
${p(COPYRIGHT)}
${p("Project Leads", "Heading2")}
${grid(LEADS, 3)}
${p("Contributors and Reviewers", "Heading2")}
${grid(CONTRIBUTORS, 4)}
${p(CREDIT_NOTE)}
${p("Preface", "Heading1")}
${p("Welcome to the second edition of the field guide, rewritten after five years of releases that went wrong in instructive ways.")}
${[0, 1].map((n) => p(prose("A careful preface", n))).join("\n")}
${p("Staged Rollouts", "Heading1")}
${[0, 1, 2].map((n) => p(prose("A staged rollout", n))).join("\n")}
${p("Rollback Plans", "Heading1")}
${[0, 1, 2].map((n) => p(prose("A rollback plan", n))).join("\n")}
${p("The Team Behind This Release", "Heading1")}
${grid(TEAM, 3)}
${p(COPYRIGHT)}
</w:body></w:document>`;

let env: CourseEnv;
let course: any;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  course = await syncCourse(
    env,
    filesForm({ num_chapters: "3" }, [{ name: "field-guide.docx", content: docxWithStyles(document, STYLES) }]),
  );
}, 300_000);
afterAll(() => env.stop());

test("a front section of licence lines and name grids is never a chapter or taught; the preface is", () => {
  const titles: string[] = course.chapters.map((c: { title: string }) => c.title);
  const content = course.chapters.map((c: { content: string }) => c.content).join("\n\n");
  for (const heading of ["Frontispiece", "About the Guide", "Project Leads", "Contributors", "Team Behind"])
    expect(titles.filter((t) => t.includes(heading))).toEqual([]);
  for (const text of ["Creative Commons", "list of deployment practices", "credit is missing", ...LEADS, ...TEAM])
    expect(content).not.toContain(text);
  expect(content).toContain("A careful preface rests on practice");
  expect(content).toContain("A staged rollout rests on practice");
  expect(content).toContain("A rollback plan rests on practice");
});
