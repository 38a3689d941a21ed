/**
 * format=scorm12: a SCORM 1.2 package with one SCO, a self-contained HTML course (chapters, study
 * guide, the chapter quizzes as one quiz) whose script talks to the LMS's SCORM API: it reports
 * the lesson status (passed or failed against the mastery score) and the quiz score.
 */
import courseCss from "./assets/course.css" with { type: "text" };
import courseJs from "./assets/scorm-course.js" with { type: "text" };
import type { ExportCourse } from "./course-export.ts";
import { escapeHtml } from "./html.ts";
import { chapterBodyHtml, htmlPage, scriptJson, studyGuideBodyHtml } from "./html-pages.ts";
import { xmlDocument, xmlText } from "./xml.ts";
import type { ZipEntry } from "./zip-stream.ts";

/** The share of quiz answers that passes the course, in percent (adlcp:masteryscore). */
const MASTERY_SCORE = 80;

const FILES = ["index.html", "course.js", "course.css"];

function scormManifest(course: ExportCourse): string {
  const doc = xmlDocument().ele("manifest", {
    identifier: `courseforge-${course.id}`,
    version: "1.0",
    xmlns: "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
    "xmlns:adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
    "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
    "xsi:schemaLocation":
      "http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd",
  });
  doc.ele("metadata").ele("schema").txt(xmlText("ADL SCORM")).up().ele("schemaversion").txt(xmlText("1.2")).up().up();
  const org = doc.ele("organizations", { default: "course" }).ele("organization", { identifier: "course" });
  org.ele("title").txt(xmlText(course.title)).up();
  org
    .ele("item", { identifier: "course-sco", identifierref: "sco", isvisible: "true" })
    .ele("title")
    .txt(xmlText(course.title))
    .up()
    .ele("adlcp:masteryscore")
    .txt(xmlText(String(MASTERY_SCORE)))
    .up()
    .up();
  const resource = doc
    .ele("resources")
    .ele("resource", { identifier: "sco", type: "webcontent", "adlcp:scormtype": "sco", href: "index.html" });
  for (const f of FILES) resource.ele("file", { href: f }).up();
  return doc.end({ prettyPrint: true });
}

function scormIndexHtml(course: ExportCourse): string {
  const pages = [
    ...course.chapters.map((c) => ({ id: `chapter-${c.index + 1}`, title: c.title, body: chapterBodyHtml(c) })),
    { id: "study-guide", title: "Study guide", body: studyGuideBodyHtml(course) },
  ];
  const questions = course.chapters.flatMap((c) => c.quiz);
  const nav = [...pages, { id: "quiz", title: "Quiz" }]
    .map((p) => `<a href="#${p.id}" data-page="${p.id}">${escapeHtml(p.title)}</a>`)
    .join("\n");
  const sections = pages.map((p) => `<section class="page" id="${p.id}">\n${p.body}\n</section>`).join("\n");
  const quiz = `<section class="page" id="quiz">
<h1>Quiz</h1>
<p>${questions.length} questions from the chapters; ${MASTERY_SCORE}% passes.</p>
<form id="quiz-form"><p><button type="submit">Check answers</button></p></form>
<p id="quiz-result" role="status"></p>
<p><button type="button" id="finish">Finish the course</button></p>
</section>`;
  const data = {
    masteryScore: MASTERY_SCORE,
    questions: questions.map((q) => ({
      prompt: q.prompt,
      choices: q.choices,
      answer: q.answer,
      explanation: q.explanation,
    })),
  };
  const body = `<header><h1>${escapeHtml(course.title)}</h1></header>
<nav>
${nav}
</nav>
<main>
${sections}
${quiz}
</main>
<script type="application/json" id="course-data">${scriptJson(data)}</script>`;
  return htmlPage(course.title, body, { stylesheet: "course.css", script: "course.js" });
}

export function* scormEntries(course: ExportCourse): Iterable<ZipEntry> {
  yield { name: "imsmanifest.xml", data: scormManifest(course) };
  yield { name: "index.html", data: scormIndexHtml(course) };
  yield { name: "course.js", data: courseJs };
  yield { name: "course.css", data: courseCss };
}
