/**
 * PDF-only labels to ZPL (DESIGN.md "Devices": a PDF-only label is
 * rasterised at the profile's dpi with a pdfium binding, thresholded without
 * dithering, and sent as `^GFA` with `:Z64:`).
 *
 * - Renderer: `@hyzyla/pdfium` (PDFium compiled to WebAssembly, the wasm
 *   shipped inside the npm package; no native addon). Measured against
 *   pdfjs-dist in `npm run bench` (`pdf-to-zpl`).
 * - Each page becomes one label (`^XA…^XZ`): a carrier's second page (the
 *   automatic return label) prints as a second label.
 * - Fit: the page is scaled uniformly (same factor on both axes, so bar
 *   widths keep their ratios) to fit the label, and centred. A 4x6 in page on
 *   a 4x6 in label renders 1:1 at the printer's dpi.
 * - 1 bit: a pixel is black when its grey level is below {@link THRESHOLD}
 *   (a fixed threshold: no dithering, so bar edges stay straight).
 * - `^GFA,<total>,<total>,<bytes per row>,:Z64:<base64 of zlib deflate>:<CRC>`
 *   (ZPL II Programming Guide, `^GF` and "Z64 encoding"): the CRC is
 *   CRC-16/CCITT (XMODEM: poly 0x1021, init 0) over the base64 text, 4 hex digits.
 */
import { deflateSync } from 'node:zlib';

/** Grey level (0-255) under which a pixel prints black. */
export const THRESHOLD = 128;

/** Label geometry of the printer profile the PDF is fitted to. */
export interface RasterTarget {
  /** Printer resolution, dots per inch. */
  dpi: 203 | 300 | 600;
  /** Printable label width and height, mm. */
  widthMm: number;
  heightMm: number;
}

/** One rasterised page: 1-bit rows, MSB first, 1 = black. */
export interface MonoBitmap {
  widthDots: number;
  heightDots: number;
  bytesPerRow: number;
  bits: Uint8Array;
}

/** A page rendered to 8-bit grey (0 black .. 255 white). */
export interface GreyPage {
  width: number;
  height: number;
  grey: Uint8Array;
}

/** Rasterises the pages of a PDF to grey at a given scale (pixels per PDF point); the engine is pluggable for the bench baseline. */
export interface PdfRasteriser {
  /** Page sizes in PDF points (1/72 in). */
  pageSizes(pdf: Uint8Array): Promise<Array<{ width: number; height: number }>>;
  /** Renders every page at `scale(page)` pixels per point. */
  render(pdf: Uint8Array, scale: (page: { width: number; height: number }, index: number) => number): Promise<GreyPage[]>;
}

const dotsOf = (mm: number, dpi: number): number => Math.round((mm / 25.4) * dpi);

/**
 * Pixels per PDF point that fit a `w`x`h` pt page on the label: one factor
 * for both axes (the smaller of width and height fit). A 100x150 mm page on a
 * 4x6 in label is enlarged 1.6 %, so a page laid out for 812 dots across
 * (the common 203 dpi design) lands on whole printer dots again.
 */
export function fitScale(page: { width: number; height: number }, t: RasterTarget): number {
  return Math.min(dotsOf(t.widthMm, t.dpi) / page.width, dotsOf(t.heightMm, t.dpi) / page.height);
}

/** Thresholds a grey page into a label-sized 1-bit bitmap, the page centred. */
export function toMonoBitmap(page: GreyPage, t: RasterTarget): MonoBitmap {
  const widthDots = dotsOf(t.widthMm, t.dpi);
  const heightDots = dotsOf(t.heightMm, t.dpi);
  const bytesPerRow = Math.ceil(widthDots / 8);
  const bits = new Uint8Array(bytesPerRow * heightDots);
  const ox = Math.max(0, Math.floor((widthDots - page.width) / 2));
  const oy = Math.max(0, Math.floor((heightDots - page.height) / 2));
  const w = Math.min(page.width, widthDots);
  const h = Math.min(page.height, heightDots);
  for (let y = 0; y < h; y++) {
    const src = y * page.width;
    const row = (y + oy) * bytesPerRow;
    for (let x = 0; x < w; x++) {
      if ((page.grey[src + x] ?? 255) < THRESHOLD) {
        const X = x + ox;
        bits[row + (X >> 3)]! |= 0x80 >> (X & 7);
      }
    }
  }
  return { widthDots, heightDots, bytesPerRow, bits };
}

/** CRC-16/XMODEM (poly 0x1021, init 0) of ASCII text, as Z64 wants it. */
export function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    crc ^= (text.charCodeAt(i) & 0xff) << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** `^GFA` field with Z64 data for a bitmap. */
export function gfaZ64(bm: MonoBitmap): string {
  const b64 = deflateSync(bm.bits, { level: 6 }).toString('base64');
  const total = bm.bits.length;
  return `^GFA,${total},${total},${bm.bytesPerRow},:Z64:${b64}:${crc16(b64).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One label (`^XA … ^XZ`) showing the bitmap at the label's top-left. */
export function bitmapLabel(bm: MonoBitmap): string {
  return `^XA^PW${bm.widthDots}^LL${bm.heightDots}^LH0,0^FO0,0${gfaZ64(bm)}^FS^XZ\n`;
}

let pdfium: Promise<import('@hyzyla/pdfium').PDFiumLibrary> | undefined;

/** The default rasteriser: PDFium (WebAssembly) via `@hyzyla/pdfium`, grey colour space. */
export const pdfiumRasteriser: PdfRasteriser = {
  async pageSizes(pdf) {
    const lib = await (pdfium ??= import('@hyzyla/pdfium').then((m) => m.PDFiumLibrary.init()));
    const doc = await lib.loadDocument(pdf);
    try {
      return [...doc.pages()].map((p) => {
        const s = p.getOriginalSize();
        return { width: s.originalWidth, height: s.originalHeight };
      });
    } finally {
      doc.destroy();
    }
  },
  async render(pdf, scale) {
    const lib = await (pdfium ??= import('@hyzyla/pdfium').then((m) => m.PDFiumLibrary.init()));
    const doc = await lib.loadDocument(pdf);
    try {
      const out: GreyPage[] = [];
      let i = 0;
      for (const page of doc.pages()) {
        const s = page.getOriginalSize();
        const r = await page.render({ scale: scale({ width: s.originalWidth, height: s.originalHeight }, i++), render: 'bitmap', colorSpace: 'Gray' });
        out.push({ width: r.width, height: r.height, grey: r.data });
      }
      return out;
    } finally {
      doc.destroy();
    }
  },
};

/**
 * Turns a PDF label into ZPL for the printer profile: one `^GFA` label per page.
 * @throws Error naming the problem when the bytes are not a PDF the renderer can open, or it has no page
 */
export async function pdfToZpl(pdf: Uint8Array, target: RasterTarget, rasteriser: PdfRasteriser = pdfiumRasteriser): Promise<{ zpl: Uint8Array; pages: number }> {
  if (!(pdf.length > 4 && pdf[0] === 0x25 && pdf[1] === 0x50 && pdf[2] === 0x44 && pdf[3] === 0x46)) throw new Error('The label is not a PDF (no %PDF header)');
  const pages = await rasteriser.render(pdf, (p) => fitScale(p, target));
  if (!pages.length) throw new Error('The PDF label has no page');
  const text = pages.map((p) => bitmapLabel(toMonoBitmap(p, target))).join('');
  return { zpl: new TextEncoder().encode(text), pages: pages.length };
}
