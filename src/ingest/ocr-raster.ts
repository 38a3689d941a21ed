/**
 * Grayscale pictures for OCR. Whatever a PDF stores (1-bit CCITT or JBIG2, indexed, CMYK, 16-bit,
 * JPEG), pdf.js hands its pixels over in one of three layouts; they are brought to 8-bit gray and
 * written as PGM, which Leptonica reads natively. Hand-written because PGM is a 15-byte header over
 * the gray bytes; an image library would add a native dependency for nothing.
 */

export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** pdf.js's ImageKind: packed 1-bit rows (a set bit is white), RGB or RGBA bytes. */
const IMAGE_KIND = { GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 3 } as const;

export interface PdfjsImage {
  width: number;
  height: number;
  kind?: number;
  data: Uint8Array | Uint8ClampedArray;
}

const luma = (r: number, g: number, b: number) => (r * 77 + g * 150 + b * 29) >> 8;

/**
 * A decoded pdf.js image as gray; null for a layout it cannot be (data shorter than its size says).
 * An image mask is 1-bit too, its set bits unpainted: both read as white there.
 */
export function pdfjsImageToGray(img: PdfjsImage): Gray | null {
  const { width, height, data } = img;
  const n = width * height;
  const out = new Uint8Array(n);
  const rowBytes = Math.ceil(width / 8);
  const kind = img.kind ?? (data.length === rowBytes * height ? IMAGE_KIND.GRAYSCALE_1BPP : undefined);
  if (kind === IMAGE_KIND.GRAYSCALE_1BPP) {
    if (data.length < rowBytes * height) return null;
    for (let y = 0; y < height; y++) {
      const row = y * rowBytes;
      for (let x = 0; x < width; x++) out[y * width + x] = data[row + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
    }
    return { width, height, data: out };
  }
  const channels = kind === IMAGE_KIND.RGB_24BPP ? 3 : kind === IMAGE_KIND.RGBA_32BPP ? 4 : data.length / n;
  if ((channels !== 3 && channels !== 4 && channels !== 1) || data.length < n * channels) return null;
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    if (channels === 1) {
      out[i] = data[j]!;
      continue;
    }
    const v = luma(data[j]!, data[j + 1]!, data[j + 2]!);
    // Transparent pixels show the white page beneath.
    out[i] = channels === 4 ? 255 - ((255 - v) * data[j + 3]!) / 255 : v;
  }
  return { width, height, data: out };
}

/** A white page of the given size. */
export function blankPage(width: number, height: number): Gray {
  return { width, height, data: new Uint8Array(width * height).fill(255) };
}

/** 2-D affine matrix [a, b, c, d, e, f] as PDF and pdf.js write them. */
export type Matrix = [number, number, number, number, number, number];

export const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

function invert(m: Matrix): Matrix | null {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return null;
  return [
    m[3] / det,
    -m[1] / det,
    -m[2] / det,
    m[0] / det,
    (m[2] * m[5] - m[4] * m[3]) / det,
    (m[4] * m[1] - m[5] * m[0]) / det,
  ];
}

/**
 * Paints `img` onto `page` where `toPage` maps the image's unit square (PDF image space: v = 1 is
 * the first row) to page pixels. Each page pixel averages up to 4 x 4 bilinear samples, so an
 * image drawn smaller than its resolution is not aliased and one drawn larger is smoothed, and a
 * rotated or mirrored placement comes out as the reader sees the page. Images paint over each other
 * darkest-wins, as ink on paper.
 */
export function paint(page: Gray, img: Gray, toPage: Matrix): void {
  const inv = invert(toPage);
  if (!inv) return;
  const corners = [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ].map(
    ([u, v]) => [toPage[0] * u! + toPage[2] * v! + toPage[4], toPage[1] * u! + toPage[3] * v! + toPage[5]] as const,
  );
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0]))));
  const x1 = Math.min(page.width, Math.ceil(Math.max(...corners.map((c) => c[0]))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1]))));
  const y1 = Math.min(page.height, Math.ceil(Math.max(...corners.map((c) => c[1]))));
  const { width: w, height: h, data } = img;
  // Image pixels per page pixel, along each page axis: how many samples a page pixel needs.
  const ratio = Math.max(Math.hypot(inv[0] * w, inv[1] * h), Math.hypot(inv[2] * w, inv[3] * h));
  const k = Math.min(4, Math.max(1, Math.ceil(ratio)));
  const sample = (px: number, py: number): number => {
    const u = inv[0] * px + inv[2] * py + inv[4];
    const v = inv[1] * px + inv[3] * py + inv[5];
    if (u < 0 || u > 1 || v < 0 || v > 1) return 255;
    const fx = Math.min(Math.max(u * w - 0.5, 0), w - 1);
    const fy = Math.min(Math.max((1 - v) * h - 0.5, 0), h - 1);
    const ix = fx | 0;
    const iy = fy | 0;
    const row = iy * w;
    const next = Math.min(iy + 1, h - 1) * w;
    const ix1 = Math.min(ix + 1, w - 1);
    const dx = fx - ix;
    const top = data[row + ix]! + (data[row + ix1]! - data[row + ix]!) * dx;
    const bottom = data[next + ix]! + (data[next + ix1]! - data[next + ix]!) * dx;
    return top + (bottom - top) * (fy - iy);
  };
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      let sum = 0;
      for (let sy = 0; sy < k; sy++)
        for (let sx = 0; sx < k; sx++) sum += sample(x + (sx + 0.5) / k, y + (sy + 0.5) / k);
      const v = Math.round(sum / (k * k));
      const o = y * page.width + x;
      if (v < page.data[o]!) page.data[o] = v;
    }
  }
}

/** The picture as binary PGM (P5). */
export function toPgm(img: Gray): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(header.length + img.data.length);
  out.set(header);
  out.set(img.data, header.length);
  return out;
}
