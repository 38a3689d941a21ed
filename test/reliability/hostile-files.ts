/**
 * Hostile uploads, built on the spot (never committed): a DOCX with 120 MB of honest XML, one whose
 * zip directory lies about its sizes, PNGs whose header declares 25000 x 25000 pixels, PDFs whose
 * form XObjects draw each other over and over, and a large plain-text file. Shared by
 * test/reliability/parsers.test.ts and bench/load/hostile.ts.
 */
import { constants, deflateRawSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";

const MB = 1024 * 1024;

/** Bytes to send as a Blob (fflate types its output over any buffer; these are plain ArrayBuffers). */
type Bytes = Uint8Array<ArrayBuffer>;

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** A vocabulary of 150 made-up words. */
const VOCABULARY = Array.from({ length: 150 }, (_, i) => ((i * 2654435761) >>> 0).toString(36).slice(0, 4 + (i % 5)));

/** Words drawn from the vocabulary by a fixed LCG, so the XML compresses about as well as real prose does (~6:1). */
function prose(seed: number, words: number): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < words; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(VOCABULARY[(x >>> 16) % VOCABULARY.length]!);
  }
  return out.join(" ");
}

/** A DOCX whose word/document.xml is `xmlMb` MB of ordinary paragraphs. */
export function docxWithXml(xmlMb: number): Bytes {
  const paras: string[] = [];
  let size = 0;
  for (let i = 0; size < xmlMb * MB; i++) {
    const p = `<w:p><w:r><w:t>${prose(i + 1, 40)}</w:t></w:r></w:p>`;
    paras.push(p);
    size += p.length;
  }
  const doc = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paras.join("")}</w:body></w:document>`;
  return zipSync(
    { "[Content_Types].xml": strToU8(CONTENT_TYPES), "_rels/.rels": strToU8(RELS), "word/document.xml": strToU8(doc) },
    // Level 1: the zip is within 3% of level 6's size, in half the CPU (120 MB of XML took ~6 s).
    { level: 1 },
  ) as Bytes;
}

/**
 * The same DOCX with every declared uncompressed size rewritten to 1 KB, in the local headers and
 * the central directory: a check of declared sizes alone lets it through.
 */
export function docxLyingAboutSizes(xmlMb: number): Bytes {
  const zip = docxWithXml(xmlMb);
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) view.setUint32(i + 22, 1024, true);
    else if (sig === 0x02014b50) view.setUint32(i + 24, 1024, true);
  }
  return zip;
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(strToU8(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A valid 8-bit gray PNG of `side` x `side` white pixels: ~1 KB per 1000 rows compressed, side² bytes decoded. */
export function hugePng(side: number): Bytes {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  ihdr.set([8, 0, 0, 0, 0], 8);
  // The rows are all alike: a band of them is deflated once and its blocks repeated (each band ends
  // on a byte boundary and refers to nothing before it), then a final empty block. Deflating all
  // side² bytes took seconds of CPU for a file the server refuses from its header.
  const band = Math.min(side, 1000);
  const row = new Uint8Array(side + 1).fill(255, 1);
  const rows = new Uint8Array(row.length * band);
  for (let y = 0; y < band; y++) rows.set(row, y * row.length);
  const deflated = (n: number) =>
    deflateRawSync(rows.subarray(0, n * row.length), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const whole = deflated(band);
  const parts: Uint8Array[] = Array.from({ length: Math.floor(side / band) }, () => whole);
  if (side % band) parts.push(deflated(side % band));
  parts.push(new Uint8Array([0x03, 0x00]));
  const idat = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    idat.set(p, at);
    at += p.length;
  }
  const chunks = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  at = 0;
  for (const c of chunks) {
    png.set(c, at);
    at += c.length;
  }
  return png;
}

/**
 * A one-page PDF whose form XObjects are nested `depth` deep, each drawing the next `fan` times, the
 * innermost a line of text: fan^depth lines from a file of a few KB. `padKb` adds a comment of that
 * size (the red team's files were 600 KB).
 */
export function nestedPdf(depth: number, fan: number, padKb = 0): Bytes {
  const objs: string[] = [];
  const add = (s: string) => objs.push(s);
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let prev = 0;
  for (let d = 0; d < depth; d++) {
    const body =
      prev === 0
        ? "BT /F1 12 Tf 72 720 Td (Tides follow the Moon.) Tj ET"
        : Array.from({ length: fan }, () => "q /X Do Q").join("\n");
    const res = prev === 0 ? `<< /Font << /F1 ${font} 0 R >> >>` : `<< /XObject << /X ${prev} 0 R >> >>`;
    prev = add(
      `<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources ${res} /Length ${body.length} >>\nstream\n${body}\nendstream`,
    );
  }
  const content = "BT /F1 12 Tf 72 750 Td (A page about tides and the Moon.) Tj ET\nq /X Do Q";
  const contents = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  const pagesId = objs.length + 2;
  const page = add(
    `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> /XObject << /X ${prev} 0 R >> >> >>`,
  );
  add(`<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  let pdf = `%PDF-1.7\n${padKb > 0 ? `%${"x".repeat(padKb * 1024)}\n` : ""}`;
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return strToU8(pdf) as Bytes;
}

/** Just under `mb` MB of plain prose in paragraphs, as a .txt upload (50 is the largest file allowed). */
export function bigText(mb: number): Bytes {
  const paras: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const p = `Paragraph ${i}: ${prose(i + 7, 120)}.\n\n`;
    if (size + p.length > mb * MB - 64 * 1024) break;
    paras.push(p);
    size += p.length;
  }
  return strToU8(paras.join("")) as Bytes;
}
