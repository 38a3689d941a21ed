/**
 * Scans the OCR tests build themselves: text rendered into gray pixels (DejaVu Sans outlines from
 * fontkit, filled with anti-aliasing), written as PNG, or as image-only PDFs of several encodings,
 * CCITT Group 4 among them (encoded here: no npm package writes G4).
 */
import { createRequire } from "node:module";
import { zlibSync } from "fflate";
import * as fontkit from "fontkit";
import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";
import type { Gray } from "../../src/ingest/ocr-raster.ts";

const require = createRequire(import.meta.url);
const font = fontkit.openSync(
  require.resolve("@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff"),
) as fontkit.Font;

export interface TextLine {
  text: string;
  x: number;
  /** Baseline, pixels from the top. */
  y: number;
  /** Em size in pixels. */
  size: number;
}

/** Vertical sub-scanlines per pixel row (horizontal coverage is exact). */
const SUBROWS = 4;

/** Black text on a white page. */
export function renderText(width: number, height: number, lines: TextLine[]): Gray {
  const cover = new Float32Array(width * height);
  for (const line of lines) {
    const scale = line.size / font.unitsPerEm;
    const run = font.layout(line.text);
    let penX = line.x;
    run.glyphs.forEach((glyph, i) => {
      const edges: [number, number, number, number][] = [];
      let start: [number, number] = [0, 0];
      let cur: [number, number] = [0, 0];
      const pt = (x: number, y: number): [number, number] => [penX + x * scale, line.y - y * scale];
      const to = (p: [number, number]) => {
        edges.push([cur[0], cur[1], p[0], p[1]]);
        cur = p;
      };
      for (const { command, args } of glyph.path.commands) {
        if (command === "moveTo") start = cur = pt(args[0]!, args[1]!);
        else if (command === "lineTo") to(pt(args[0]!, args[1]!));
        else if (command === "closePath") to(start);
        else {
          const [x0, y0] = cur;
          const ctrl = [];
          for (let k = 0; k < args.length; k += 2) ctrl.push(pt(args[k]!, args[k + 1]!));
          for (let s = 1; s <= 12; s++) {
            const t = s / 12;
            const u = 1 - t;
            const p: [number, number] =
              ctrl.length === 2
                ? [
                    u * u * x0 + 2 * u * t * ctrl[0]![0] + t * t * ctrl[1]![0],
                    u * u * y0 + 2 * u * t * ctrl[0]![1] + t * t * ctrl[1]![1],
                  ]
                : [
                    u * u * u * x0 +
                      3 * u * u * t * ctrl[0]![0] +
                      3 * u * t * t * ctrl[1]![0] +
                      t * t * t * ctrl[2]![0],
                    u * u * u * y0 +
                      3 * u * u * t * ctrl[0]![1] +
                      3 * u * t * t * ctrl[1]![1] +
                      t * t * t * ctrl[2]![1],
                  ];
            to(p);
          }
        }
      }
      fill(cover, width, height, edges);
      penX += run.positions[i]!.xAdvance * scale;
    });
  }
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = 255 - Math.round(Math.min(1, cover[i]!) * 255);
  return { width, height, data };
}

/** Nonzero-winding fill of closed edges, adding each pixel's covered fraction. */
function fill(cover: Float32Array, width: number, height: number, edges: [number, number, number, number][]): void {
  if (edges.length === 0) return;
  const ys = edges.flatMap((e) => [e[1], e[3]]);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height, Math.ceil(Math.max(...ys)));
  for (let row = top; row < bottom; row++) {
    for (let sub = 0; sub < SUBROWS; sub++) {
      const y = row + (sub + 0.5) / SUBROWS;
      const xs: [number, number][] = [];
      for (const [x0, y0, x1, y1] of edges) {
        if ((y0 <= y && y1 > y) || (y1 <= y && y0 > y))
          xs.push([x0 + ((y - y0) / (y1 - y0)) * (x1 - x0), y1 > y0 ? 1 : -1]);
      }
      xs.sort((a, b) => a[0] - b[0]);
      let winding = 0;
      for (let k = 0; k < xs.length - 1; k++) {
        winding += xs[k]![1];
        if (winding === 0) continue;
        const a = Math.max(0, xs[k]![0]);
        const b = Math.min(width, xs[k + 1]![0]);
        for (let x = Math.floor(a); x < b; x++)
          cover[row * width + x]! += (Math.min(b, x + 1) - Math.max(a, x)) / SUBROWS;
      }
    }
  }
}

export type PngLayout = "gray8" | "gray16" | "palette";

/** The picture as a PNG: 8-bit gray, 16-bit gray, or 8-bit indexed with a gray palette. */
export function grayPng(img: Gray, layout: PngLayout = "gray8"): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(12 + body.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, body.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(body, 8);
    view.setUint32(8 + body.length, crc(out.subarray(4, 8 + body.length)));
    return out;
  };
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, img.width);
  new DataView(header.buffer).setUint32(4, img.height);
  header.set([layout === "gray16" ? 16 : 8, layout === "palette" ? 3 : 0, 0, 0, 0], 8);
  const bytesPerPixel = layout === "gray16" ? 2 : 1;
  const stride = img.width * bytesPerPixel + 1;
  const raw = new Uint8Array(stride * img.height);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++)
      raw.fill(
        img.data[y * img.width + x]!,
        y * stride + 1 + x * bytesPerPixel,
        y * stride + 1 + (x + 1) * bytesPerPixel,
      );
  }
  const palette =
    layout === "palette"
      ? [
          chunk(
            "PLTE",
            Uint8Array.from({ length: 768 }, (_, i) => Math.floor(i / 3)),
          ),
        ]
      : [];
  const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", header),
    ...palette,
    chunk("IDAT", zlibSync(raw)),
    chunk("IEND", new Uint8Array()),
  ]);
}

// ---------------------------------------------------------------------------------------------
// CCITT Group 4 (ITU-T T.6): each row coded against the row above by where its colour changes.

/** T.4 run-length codes as bit strings: terminating codes 0-63, then make-up codes 64-1728. */
const WHITE_TERMINATING =
  "00110101 000111 0111 1000 1011 1100 1110 1111 10011 10100 00111 01000 001000 000011 110100 110101 101010 101011 0100111 0001100 0001000 0010111 0000011 0000100 0101000 0101011 0010011 0100100 0011000 00000010 00000011 00011010 00011011 00010010 00010011 00010100 00010101 00010110 00010111 00101000 00101001 00101010 00101011 00101100 00101101 00000100 00000101 00001010 00001011 01010010 01010011 01010100 01010101 00100100 00100101 01011000 01011001 01011010 01011011 01001010 01001011 00110010 00110011 00110100".split(
    " ",
  );
const BLACK_TERMINATING =
  "0000110111 010 11 10 011 0011 0010 00011 000101 000100 0000100 0000101 0000111 00000100 00000111 000011000 0000010111 0000011000 0000001000 00001100111 00001101000 00001101100 00000110111 00000101000 00000010111 00000011000 000011001010 000011001011 000011001100 000011001101 000001101000 000001101001 000001101010 000001101011 000011010010 000011010011 000011010100 000011010101 000011010110 000011010111 000001101100 000001101101 000011011010 000011011011 000001010100 000001010101 000001010110 000001010111 000001100100 000001100101 000001010010 000001010011 000000100100 000000110111 000000111000 000000100111 000000101000 000001011000 000001011001 000000101011 000000101100 000001011010 000001100110 000001100111".split(
    " ",
  );
const WHITE_MAKEUP =
  "11011 10010 010111 0110111 00110110 00110111 01100100 01100101 01101000 01100111 011001100 011001101 011010010 011010011 011010100 011010101 011010110 011010111 011011000 011011001 011011010 011011011 010011000 010011001 010011010 011000 010011011".split(
    " ",
  );
const BLACK_MAKEUP =
  "0000001111 000011001000 000011001001 000001011011 000000110011 000000110100 000000110101 0000001101100 0000001101101 0000001001010 0000001001011 0000001001100 0000001001101 0000001110010 0000001110011 0000001110100 0000001110101 0000001110110 0000001110111 0000001010010 0000001010011 0000001010100 0000001010101 0000001011010 0000001011011 0000001100100 0000001100101".split(
    " ",
  );
const VERTICAL: Record<number, string> = {
  0: "1",
  1: "011",
  2: "000011",
  3: "0000011",
  [-1]: "010",
  [-2]: "000010",
  [-3]: "0000010",
};

/** A 1-bit picture (true = black) as a CCITT G4 stream (K -1, BlackIs1 false), at most 1728 wide. */
export function encodeG4(black: boolean[][], width: number): Uint8Array {
  if (width > 1728) throw new Error("the G4 fixture encoder has no extended make-up codes");
  const bits: string[] = [];
  const run = (length: number, isBlack: boolean) => {
    if (length >= 64) bits.push((isBlack ? BLACK_MAKEUP : WHITE_MAKEUP)[Math.floor(length / 64) - 1]!);
    bits.push((isBlack ? BLACK_TERMINATING : WHITE_TERMINATING)[length % 64]!);
  };
  let ref = new Array<boolean>(width).fill(false);
  const colour = (line: boolean[], i: number) => (i < 0 ? false : line[i]!);
  /** The first changing element after `from` whose colour is `isBlack` (width when none). */
  const next = (line: boolean[], from: number, isBlack?: boolean) => {
    for (let i = from + 1; i < width; i++)
      if (line[i] !== colour(line, i - 1) && (isBlack === undefined || line[i] === isBlack)) return i;
    return width;
  };
  for (const line of black) {
    let a0 = -1;
    let isBlack = false;
    while (a0 < width) {
      const a1 = next(line, a0);
      const b1 = next(ref, a0, !isBlack);
      const b2 = next(ref, b1);
      if (b2 < a1) {
        bits.push("0001");
        a0 = b2;
      } else if (Math.abs(a1 - b1) <= 3) {
        bits.push(VERTICAL[a1 - b1]!);
        a0 = a1;
        isBlack = !isBlack;
      } else {
        const a2 = next(line, a1);
        bits.push("001");
        run(a1 - Math.max(a0, 0), isBlack);
        run(a2 - a1, !isBlack);
        a0 = a2;
      }
    }
    ref = line;
  }
  bits.push("000000000001000000000001");
  const all = bits.join("");
  const out = new Uint8Array(Math.ceil(all.length / 8));
  for (let i = 0; i < all.length; i++) if (all[i] === "1") out[i >> 3]! |= 0x80 >> (i & 7);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Image-only PDFs

export type ScanEncoding = "ccitt-g4" | "flate-1bit" | "flate-gray";

/** A one-page PDF whose only content is the picture, at `dpi`, in the given encoding. */
export async function scanPdf(img: Gray, encoding: ScanEncoding, dpi = 300): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const w = (img.width * 72) / dpi;
  const h = (img.height * 72) / dpi;
  const page = doc.addPage([w, h]);
  const isBlack = (x: number, y: number) => img.data[y * img.width + x]! < 128;
  const dict: Record<string, unknown> = {
    Type: "XObject",
    Subtype: "Image",
    Width: img.width,
    Height: img.height,
    ColorSpace: "DeviceGray",
  };
  let data: Uint8Array;
  if (encoding === "flate-gray") {
    data = zlibSync(img.data);
    Object.assign(dict, { BitsPerComponent: 8, Filter: "FlateDecode" });
  } else if (encoding === "flate-1bit") {
    const rowBytes = Math.ceil(img.width / 8);
    const packed = new Uint8Array(rowBytes * img.height);
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) if (!isBlack(x, y)) packed[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    data = zlibSync(packed);
    Object.assign(dict, { BitsPerComponent: 1, Filter: "FlateDecode" });
  } else {
    const rows = Array.from({ length: img.height }, (_, y) =>
      Array.from({ length: img.width }, (_, x) => isBlack(x, y)),
    );
    data = encodeG4(rows, img.width);
    const parms = doc.context.obj({ K: -1, Columns: img.width, Rows: img.height });
    Object.assign(dict, { BitsPerComponent: 1, Filter: "CCITTFaxDecode", DecodeParms: parms });
  }
  page.node.setXObject(PDFName.of("Scan"), doc.context.register(doc.context.stream(data, dict as never)));
  page.node.set(PDFName.of("Contents"), doc.context.register(doc.context.stream(`q ${w} 0 0 ${h} 0 0 cm /Scan Do Q`)));
  return doc.save();
}

/**
 * A scan with an OCR text layer, as OCR software writes it: the page image, and over it the
 * recognised text in render mode 3 (invisible), so it can be selected and searched.
 */
export async function scanWithTextLayerPdf(img: Gray, layerLines: string[], dpi = 300): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await scanPdf(img, "flate-gray", dpi));
  const page = doc.getPage(0);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.node.setFontDictionary(PDFName.of("F1"), font.ref);
  const { height } = page.getSize();
  const text = layerLines.map((l, i) => `1 0 0 1 40 ${height - 40 - i * 14} Tm (${l}) Tj`).join(" ");
  const layer = doc.context.register(doc.context.stream(`BT /F1 11 Tf 3 Tr ${text} ET`));
  page.node.set(PDFName.of("Contents"), doc.context.obj([page.node.get(PDFName.of("Contents"))!, layer]));
  return doc.save();
}
