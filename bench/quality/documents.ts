/** The corpus documents both quality benches read: a paper, a two-column paper, a 113-page manual, a DOCX, slides and a web page. */
import { resolve } from "node:path";

export const CORPUS = resolve(import.meta.dir, "../../../shared/corpus");

const ALL = [
  "pdf/tracemonkey.pdf",
  "pdf/dpr-paper-multi-column.pdf",
  "pdf/R-intro.pdf",
  "docx/markitdown-autogen-paper.docx",
  "pptx/markitdown-autogen-slides.pptx",
  "html/readability-wikipedia/source.html",
];

/** The documents whose path contains `only`, or all of them. */
export const documents = (only?: string) => ALL.filter((d) => !only || d.includes(only));
