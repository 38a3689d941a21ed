/**
 * Assessments in the Common Cartridge profile of QTI 1.2.1: each multiple-choice question an item
 * (cc.multiple_choice.v0p1) scored 100 for the right choice, with the explanation as feedback;
 * the exam's short-answer and worked problems are essay items (cc.essay.v0p1) whose feedback is
 * the model answer, rubric or steps, since an LMS cannot mark them itself.
 */
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces";
import type { ExamQuestion, McqQuestion } from "../llm/artefacts.ts";
import { xmlDocument, xmlText } from "./xml.ts";

const field = (meta: XMLBuilder, label: string, entry: string) =>
  meta
    .ele("qtimetadatafield")
    .ele("fieldlabel")
    .txt(xmlText(label))
    .up()
    .ele("fieldentry")
    .txt(xmlText(entry))
    .up()
    .up();

const material = (parent: XMLBuilder, text: string) =>
  parent.ele("material").ele("mattext", { texttype: "text/plain" }).txt(xmlText(text)).up().up();

function itemHead(section: XMLBuilder, ident: string, title: string, profile: string) {
  const item = section.ele("item", { ident, title: xmlText(title) });
  const meta = item.ele("itemmetadata").ele("qtimetadata");
  field(meta, "cc_profile", profile);
  field(meta, "cc_weighting", "1");
  return item;
}

function feedback(item: XMLBuilder, text: string) {
  material(item.ele("itemfeedback", { ident: "general_fb" }).ele("flow_mat"), text);
}

function mcqItem(section: XMLBuilder, ident: string, q: McqQuestion) {
  const item = itemHead(section, ident, q.prompt.slice(0, 80), "cc.multiple_choice.v0p1");
  const presentation = item.ele("presentation");
  material(presentation, q.prompt);
  const choices = presentation.ele("response_lid", { ident: "response1", rcardinality: "Single" }).ele("render_choice");
  q.choices.forEach((c, j) => {
    material(choices.ele("response_label", { ident: `${ident}_${j}` }), c);
  });
  const processing = item.ele("resprocessing");
  processing.ele("outcomes").ele("decvar", { varname: "SCORE", vartype: "Decimal", minvalue: "0", maxvalue: "100" });
  const right = processing.ele("respcondition", { continue: "Yes" });
  right
    .ele("conditionvar")
    .ele("varequal", { respident: "response1" })
    .txt(xmlText(`${ident}_${q.answer}`));
  right.ele("setvar", { varname: "SCORE", action: "Set" }).txt(xmlText("100"));
  const always = processing.ele("respcondition", { continue: "No" });
  always.ele("conditionvar").ele("other");
  always.ele("displayfeedback", { feedbacktype: "Response", linkrefid: "general_fb" });
  feedback(item, q.explanation);
}

function essayItem(section: XMLBuilder, ident: string, prompt: string, modelAnswer: string) {
  const item = itemHead(section, ident, prompt.slice(0, 80), "cc.essay.v0p1");
  const presentation = item.ele("presentation");
  material(presentation, prompt);
  presentation
    .ele("response_str", { ident: "response1", rcardinality: "Single" })
    .ele("render_fib")
    .ele("response_label", { ident: `${ident}_answer`, rshuffle: "No" });
  const processing = item.ele("resprocessing");
  processing.ele("outcomes").ele("decvar", { varname: "SCORE", vartype: "Decimal", minvalue: "0", maxvalue: "100" });
  const always = processing.ele("respcondition", { continue: "No" });
  always.ele("conditionvar").ele("other");
  always.ele("displayfeedback", { feedbacktype: "Response", linkrefid: "general_fb" });
  feedback(item, modelAnswer);
}

function modelAnswer(q: Exclude<ExamQuestion, McqQuestion>): string {
  if (q.type === "short_answer")
    return `Model answer: ${q.answer}\nRubric:\n${q.rubric.map((r) => `- ${r}`).join("\n")}`;
  return `Answer: ${q.answer}\nSteps:\n${q.steps.map((s, i) => `${i + 1}. ${s}`).join("\n")}`;
}

/** One assessment document; `kind` says whether LMSs should treat it as a quiz or an examination. */
export function qtiAssessment(opts: {
  ident: string;
  title: string;
  kind: "quiz" | "exam";
  questions: ExamQuestion[];
}): string {
  const doc = xmlDocument().ele("questestinterop", {
    xmlns: "http://www.imsglobal.org/xsd/ims_qtiasiv1p2",
    "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
    "xsi:schemaLocation":
      "http://www.imsglobal.org/xsd/ims_qtiasiv1p2 http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_qtiasiv1p2p1_v1p0.xsd",
  });
  const assessment = doc.ele("assessment", { ident: opts.ident, title: xmlText(opts.title) });
  const meta = assessment.ele("qtimetadata");
  field(meta, "cc_profile", "cc.exam.v0p1");
  field(meta, "qmd_assessmenttype", opts.kind === "exam" ? "Examination" : "Quiz");
  field(meta, "cc_maxattempts", "unlimited");
  const section = assessment.ele("section", { ident: `${opts.ident}_section` });
  opts.questions.forEach((q, i) => {
    const ident = `${opts.ident}_q${i + 1}`;
    if (q.type === "mcq") mcqItem(section, ident, q);
    else essayItem(section, ident, q.prompt, modelAnswer(q));
  });
  return doc.end({ prettyPrint: true });
}
