/** An opened PDF as unpdf (pdf.js) gives it: the type the PDF reader and its helpers share. */
import type { getDocumentProxy } from "unpdf";

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
