/**
 * Files the ingestion tests build themselves: PDFs (pdf-lib), office archives and zip bombs
 * (fflate), each the smallest file that shows one behaviour.
 */
import { strToU8, type Zippable, zipSync } from "fflate";
import { PDFDocument, PDFHexString, PDFName, StandardFonts } from "pdf-lib";

export interface PdfPageSpec {
  heading?: string;
  body: string[];
}

/** A text PDF: a 24 pt bold heading and 11 pt body lines per page. */
export async function textPdf(pages: PdfPageSpec[], title?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (title) doc.setTitle(title);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const spec of pages) {
    const page = doc.addPage([595, 842]);
    let y = 780;
    if (spec.heading) {
      page.drawText(spec.heading, { x: 50, y, size: 24, font: bold });
      y -= 40;
    }
    for (const line of spec.body) {
      page.drawText(line, { x: 50, y, size: 11, font: regular });
      y -= 14;
    }
  }
  return doc.save();
}

export interface ManualLine {
  text: string;
  /** Set in Courier and indented, as a manual sets its examples. */
  code?: boolean;
  /** A section heading: 16 pt bold. */
  heading?: boolean;
}

/** A manual's pages: Helvetica prose, Courier code, bold headings, and a running header on every page when given. */
export async function manualPdf(pages: ManualLine[][], header?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const prose = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  pages.forEach((lines, i) => {
    const page = doc.addPage([595, 842]);
    if (header) page.drawText(`${header}  ${i + 1}`, { x: 50, y: 810, size: 9, font: prose });
    let y = 760;
    for (const l of lines) {
      if (l.heading) {
        page.drawText(l.text, { x: 50, y, size: 16, font: bold });
        y -= 28;
        continue;
      }
      page.drawText(l.text, { x: l.code ? 80 : 50, y, size: 11, font: l.code ? mono : prose });
      y -= 14;
    }
  });
  return doc.save();
}

/** `count` pages, one short line each: for the page limit. */
export async function manyPagePdf(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= count; i++) doc.addPage([300, 300]).drawText(`Page ${i}`, { x: 20, y: 250, size: 12, font });
  return doc.save();
}

/**
 * A PDF under the standard security handler with a user password: pdf.js cannot open it without
 * the password (the O/U entries match no empty password).
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 300]).drawText("Secret", { x: 20, y: 250, size: 12, font });
  const hex = (n: number) => PDFHexString.of("a5".repeat(n));
  const encrypt = doc.context.obj({ Filter: PDFName.of("Standard"), V: 1, R: 2, Length: 40, P: -44 });
  encrypt.set(PDFName.of("O"), hex(32));
  encrypt.set(PDFName.of("U"), hex(32));
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([hex(16), hex(16)]);
  return doc.save({ useObjectStreams: false });
}

/** The PDF header followed by bytes that are no PDF structure at all. */
export function corruptPdf(): Uint8Array {
  const junk = new Uint8Array(4096);
  for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919) % 251;
  return new Uint8Array([...strToU8("%PDF-1.7\n%\u00e2\u00e3\n"), ...junk]);
}

const CONTENT_TYPES_DOCX = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;

const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

/** A DOCX whose document part is `inflatedMb` MB of spaces: deflate squeezes it ~1000:1. */
export function zipBombDocx(inflatedMb: number): Uint8Array {
  const body = new Uint8Array(inflatedMb * 1024 * 1024).fill(0x20);
  const files: Zippable = {
    "[Content_Types].xml": strToU8(CONTENT_TYPES_DOCX),
    "_rels/.rels": strToU8(RELS),
    "word/document.xml": [body, { level: 9 }],
  };
  return zipSync(files);
}

const CONTENT_TYPES_STYLED_DOCX = CONTENT_TYPES_DOCX.replace(
  "</Types>",
  `<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`,
);

/** The smallest DOCX package around a document part and its style sheet (both whole XML documents). */
export function docxWithStyles(document: string, styles: string): Uint8Array {
  return zipSync({
    "[Content_Types].xml": strToU8(CONTENT_TYPES_STYLED_DOCX),
    "_rels/.rels": strToU8(RELS),
    "word/_rels/document.xml.rels": strToU8(`<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`),
    "word/document.xml": strToU8(document),
    "word/styles.xml": strToU8(styles),
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

function odf(mimetype: string, body: string): Uint8Array {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} office:version="1.2"><office:body>${body}</office:body></office:document-content>`;
  // The mimetype entry must come first and be stored uncompressed.
  return zipSync({
    mimetype: [strToU8(mimetype), { level: 0 }],
    "META-INF/manifest.xml": strToU8(manifest),
    "content.xml": strToU8(content),
  });
}

export function odt(heading: string, paragraphs: string[]): Uint8Array {
  const body = `<text:h text:outline-level="1">${heading}</text:h>${paragraphs.map((p) => `<text:p>${p}</text:p>`).join("")}`;
  return odf("application/vnd.oasis.opendocument.text", `<office:text>${body}</office:text>`);
}

export function odp(slides: string[][]): Uint8Array {
  const pages = slides
    .map(
      (lines, i) =>
        `<draw:page draw:name="page${i + 1}"><draw:frame><draw:text-box>${lines.map((l) => `<text:p>${l}</text:p>`).join("")}</draw:text-box></draw:frame></draw:page>`,
    )
    .join("");
  return odf("application/vnd.oasis.opendocument.presentation", `<office:presentation>${pages}</office:presentation>`);
}
