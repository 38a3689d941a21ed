/**
 * format=imscc: an IMS Common Cartridge 1.3. Each chapter is a module holding a web-content page
 * (rendered markdown, key concepts, citations) and its quiz as a QTI assessment; then the study
 * guide page and, when one has been generated, the exam. LMSs import it as a course.
 */
import courseCss from "./assets/course.css" with { type: "text" };
import type { ExportCourse } from "./course-export.ts";
import { chapterBodyHtml, htmlPage, studyGuideBodyHtml } from "./html-pages.ts";
import { numbered } from "./names.ts";
import { qtiAssessment } from "./qti.ts";
import { xmlDocument, xmlText } from "./xml.ts";
import type { ZipEntry } from "./zip-stream.ts";

const QTI_TYPE = "imsqti_xmlv1p2/imscc_xmlv1p3/assessment";
const CSS = "web_resources/course.css";

interface Resource {
  id: string;
  type: "webcontent" | typeof QTI_TYPE;
  /** Launch file of a web page; assessments have none. */
  href?: string;
  file: string;
  data: string;
  dependsOnCss?: boolean;
}

interface Item {
  id: string;
  title: string;
  resource?: string;
  children?: Item[];
}

function parts(course: ExportCourse): { resources: Resource[]; items: Item[] } {
  const resources: Resource[] = [{ id: "R_css", type: "webcontent", file: CSS, data: courseCss }];
  const items: Item[] = [];
  for (const c of course.chapters) {
    const n = c.index + 1;
    const page = `chapters/${numbered(c.index, c.title)}.html`;
    resources.push({
      id: `R_chapter_${n}`,
      type: "webcontent",
      href: page,
      file: page,
      data: htmlPage(c.title, `<main>\n${chapterBodyHtml(c)}\n</main>`, { stylesheet: `../${CSS}` }),
      dependsOnCss: true,
    });
    const children: Item[] = [{ id: `I_chapter_${n}_page`, title: c.title, resource: `R_chapter_${n}` }];
    if (c.quiz.length > 0) {
      resources.push({
        id: `R_quiz_${n}`,
        type: QTI_TYPE,
        file: `R_quiz_${n}/assessment.xml`,
        data: qtiAssessment({ ident: `A_quiz_${n}`, title: `Quiz: ${c.title}`, kind: "quiz", questions: c.quiz }),
      });
      children.push({ id: `I_chapter_${n}_quiz`, title: `Quiz: ${c.title}`, resource: `R_quiz_${n}` });
    }
    items.push({ id: `I_chapter_${n}`, title: `Chapter ${n}: ${c.title}`, children });
  }
  resources.push({
    id: "R_study_guide",
    type: "webcontent",
    href: "study-guide.html",
    file: "study-guide.html",
    data: htmlPage(course.studyGuide.title, `<main>\n${studyGuideBodyHtml(course)}\n</main>`, { stylesheet: CSS }),
    dependsOnCss: true,
  });
  items.push({ id: "I_study_guide", title: "Study guide", resource: "R_study_guide" });
  if (course.exam && course.exam.questions.length > 0) {
    resources.push({
      id: "R_exam",
      type: QTI_TYPE,
      file: "R_exam/assessment.xml",
      data: qtiAssessment({
        ident: "A_exam",
        title: course.exam.title,
        kind: "exam",
        questions: course.exam.questions,
      }),
    });
    items.push({ id: "I_exam", title: course.exam.title, resource: "R_exam" });
  }
  return { resources, items };
}

function imsccManifest(course: ExportCourse, resources: Resource[], items: Item[]): string {
  const doc = xmlDocument().ele("manifest", {
    identifier: `M_${course.id.replaceAll("-", "")}`,
    xmlns: "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1",
    "xmlns:lomimscc": "http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest",
    "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
    "xsi:schemaLocation":
      "http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1 http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_imscp_v1p2_v1p0.xsd http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest http://www.imsglobal.org/profile/cc/ccv1p3/LOM/ccv1p3_lommanifest_v1p0.xsd",
  });
  const metadata = doc.ele("metadata");
  metadata.ele("schema").txt(xmlText("IMS Common Cartridge")).up().ele("schemaversion").txt(xmlText("1.3.0")).up();
  const general = metadata.ele("lomimscc:lom").ele("lomimscc:general");
  general.ele("lomimscc:title").ele("lomimscc:string", { language: "en" }).txt(xmlText(course.title));
  if (course.description)
    general.ele("lomimscc:description").ele("lomimscc:string", { language: "en" }).txt(xmlText(course.description));
  const root = doc
    .ele("organizations")
    .ele("organization", { identifier: "O_course", structure: "rooted-hierarchy" })
    .ele("item", { identifier: "I_root" });
  const addItem = (parent: typeof root, item: Item) => {
    const el = parent.ele("item", { identifier: item.id, ...(item.resource ? { identifierref: item.resource } : {}) });
    el.ele("title").txt(xmlText(item.title));
    for (const child of item.children ?? []) addItem(el, child);
  };
  for (const item of items) addItem(root, item);
  const list = doc.ele("resources");
  for (const r of resources) {
    const el = list.ele("resource", { identifier: r.id, type: r.type, ...(r.href ? { href: r.href } : {}) });
    el.ele("file", { href: r.file });
    if (r.dependsOnCss) el.ele("dependency", { identifierref: "R_css" });
  }
  return doc.end({ prettyPrint: true });
}

export function* imsccEntries(course: ExportCourse): Iterable<ZipEntry> {
  const { resources, items } = parts(course);
  yield { name: "imsmanifest.xml", data: imsccManifest(course, resources, items) };
  for (const r of resources) yield { name: r.file, data: r.data };
}
