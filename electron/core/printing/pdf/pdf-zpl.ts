/**
 * PDF-only labels to ZPL (DESIGN.md "Devices": a PDF-only label is
 * rasterised at the profile's dpi with a pdfium binding, thresholded without
 * dithering, and sent as `^GFA` with `:Z64:`).
 *
 * - Renderer: `@hyzyla/pdfium` (PDFium compiled to WebAssembly, the wasm
 *   shipped inside the npm package; no native addon). Measured against
 *   pdfjs-dist in `npm run bench` (`pdf-to-zpl`).
 * - Each page becomes one label (`^XA…^XZ`): a carrier's second page (the
 *   automatic return label) prints as a second label. A page that is not
 *   label-sized (A4 with the label and the sender's copy) has its label found,
 *   cropped, turned and printed at its size (pdf-region.ts), with a note.
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
import { mmToDots } from '../zpl/units';
import { crc16 } from '../zpl/zpl-graphics';
import { isLabelSized, planLabelCrop, PROBE_SCALE, type PageCropFacts, type PageView } from './pdf-region';

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
  /**
   * Renders every page as `view(page)` says (a number: that many pixels per point, whole page) and hands
   * it to `use`; answers what `use` returned, page by page. `page.grey` is valid only during `use` (it
   * may be the renderer's own memory, spared a 1 MB copy a label). `probe`, when the engine has it,
   * renders the whole page at a scale into a copy `view` may look at first (to find the label on it).
   */
  render<T>(
    pdf: Uint8Array,
    view: (page: { width: number; height: number }, index: number, probe?: (scale: number) => GreyPage) => number | PageView,
    use: (page: GreyPage) => T,
  ): Promise<T[]>;
}

/**
 * Pixels per PDF point that fit a `w`x`h` pt page on the label: one factor
 * for both axes (the smaller of width and height fit). A 100x150 mm page on a
 * 4x6 in label is enlarged 1.6 %, so a page laid out for 812 dots across
 * (the common 203 dpi design) lands on whole printer dots again.
 */
export function fitScale(page: { width: number; height: number }, t: RasterTarget): number {
  return Math.min(mmToDots(t.widthMm, t.dpi) / page.width, mmToDots(t.heightMm, t.dpi) / page.height);
}

/** Whether typed arrays are little-endian here (every platform the station ships for): the word path of {@link toMonoBitmap} reads pixel 0 in the low byte. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * Four grey pixels of a little-endian word as four bits, first pixel highest:
 * a pixel is black below 128 ({@link THRESHOLD} as it is), i.e. its top bit is 0; the
 * top bits moved to bits 0, 8, 16, 24, then one multiply gathers them into
 * bits 27..24 (no two partial products share a bit, so nothing carries).
 */
const blackNibble = (word: number): number => Math.imul((~word & 0x80808080) >>> 7, 0x08040201) >>> 24;

/** Thresholds a grey page into a label-sized 1-bit bitmap, the page centred. */
export function toMonoBitmap(page: GreyPage, t: RasterTarget): MonoBitmap {
  const widthDots = mmToDots(t.widthMm, t.dpi);
  const heightDots = mmToDots(t.heightMm, t.dpi);
  const bytesPerRow = Math.ceil(widthDots / 8);
  const bits = new Uint8Array(bytesPerRow * heightDots);
  const ox = Math.max(0, Math.floor((widthDots - page.width) / 2));
  const oy = Math.max(0, Math.floor((heightDots - page.height) / 2));
  const w = Math.min(page.width, widthDots);
  const h = Math.min(page.height, heightDots);
  const grey = page.grey;
  if (ox === 0) {
    // The usual case (the page fills the label's width): eight pixels make one byte, written once.
    const full = w >> 3;
    // Rows starting on a 4-byte boundary are read four pixels a word (a third of the time of byte by byte).
    const words = THRESHOLD === 128 && LITTLE_ENDIAN && grey.byteOffset % 4 === 0 && page.width % 4 === 0 ? new Uint32Array(grey.buffer, grey.byteOffset, grey.length >> 2) : null;
    for (let y = 0; y < h; y++) {
      let s = y * page.width;
      let o = (y + oy) * bytesPerRow;
      if (words) {
        for (let k = 0, i = s >> 2; k < full; k++, i += 2, o++) {
          const a = words[i]!;
          const b = words[i + 1]!;
          // Eight pixels at 128 or more (white, most of a label): the byte stays 0.
          if (((a & b) | 0x7f7f7f7f) !== -1) bits[o] = (blackNibble(a) << 4) | blackNibble(b);
        }
      } else {
        for (let k = 0; k < full; k++, s += 8) {
          bits[o++] =
            (grey[s]! < THRESHOLD ? 0x80 : 0) |
            (grey[s + 1]! < THRESHOLD ? 0x40 : 0) |
            (grey[s + 2]! < THRESHOLD ? 0x20 : 0) |
            (grey[s + 3]! < THRESHOLD ? 0x10 : 0) |
            (grey[s + 4]! < THRESHOLD ? 0x08 : 0) |
            (grey[s + 5]! < THRESHOLD ? 0x04 : 0) |
            (grey[s + 6]! < THRESHOLD ? 0x02 : 0) |
            (grey[s + 7]! < THRESHOLD ? 0x01 : 0);
        }
      }
      let last = 0;
      for (let x = full << 3; x < w; x++) if (grey[y * page.width + x]! < THRESHOLD) last |= 0x80 >> (x & 7);
      if (w & 7) bits[o] = last;
    }
    return { widthDots, heightDots, bytesPerRow, bits };
  }
  for (let y = 0; y < h; y++) {
    const src = y * page.width;
    const row = (y + oy) * bytesPerRow;
    for (let x = 0; x < w; x++) {
      if (grey[src + x]! < THRESHOLD) {
        const X = x + ox;
        bits[row + (X >> 3)]! |= 0x80 >> (X & 7);
      }
    }
  }
  return { widthDots, heightDots, bytesPerRow, bits };
}

/** `^GFA` field with Z64 data for a bitmap. */
export function gfaZ64(bm: MonoBitmap): string {
  // Level 1: half the time of the default level for ≈20 % more bytes (≈16 KB a 4x6 label at 203 dpi).
  const b64 = deflateSync(bm.bits, { level: 1 }).toString('base64');
  const total = bm.bits.length;
  return `^GFA,${total},${total},${bm.bytesPerRow},:Z64:${b64}:${crc16(b64).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One label (`^XA … ^XZ`) showing the bitmap at the label's top-left. */
export function bitmapLabel(bm: MonoBitmap): string {
  return `^XA^PW${bm.widthDots}^LL${bm.heightDots}^LH0,0^FO0,0${gfaZ64(bm)}^FS^XZ\n`;
}

let pdfium: Promise<import('@hyzyla/pdfium').PDFiumLibrary> | undefined;

/**
 * What this module needs of a `@hyzyla/pdfium` page to render it itself: the PDFium WebAssembly
 * module (PDFium's public C API, `FPDFBitmap_*` and `FPDF_RenderPageBitmap`) and the page handle.
 * The package keeps both private; its own `render()` spends ≈4 ms more a 4x6 page than the same
 * PDFium call (measured: 6.4 against 2.1 ms), which is most of a label's conversion time.
 */
interface PdfiumPageInternals {
  module: {
    wasmExports: { malloc(size: number): number; free(ptr: number): void };
    HEAPU8: Uint8Array;
    _FPDFBitmap_CreateEx(width: number, height: number, format: number, buffer: number, stride: number): number;
    _FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): void;
    _FPDF_RenderPageBitmap(bitmap: number, page: number, startX: number, startY: number, sizeX: number, sizeY: number, rotate: number, flags: number): void;
    _FPDFBitmap_Destroy(bitmap: number): void;
  };
  pageIdx: number;
}

/** The page's PDFium internals when this version of the package has them, else undefined (its own render is used). */
export function pdfiumInternals(page: unknown): PdfiumPageInternals | undefined {
  const p = page as Partial<PdfiumPageInternals> | null;
  const m = p?.module;
  if (!m || typeof p?.pageIdx !== 'number' || !(m.HEAPU8 instanceof Uint8Array)) return undefined;
  const fns = [m._FPDFBitmap_CreateEx, m._FPDFBitmap_FillRect, m._FPDF_RenderPageBitmap, m._FPDFBitmap_Destroy, m.wasmExports?.malloc, m.wasmExports?.free];
  return fns.every((f) => typeof f === 'function') ? (p as PdfiumPageInternals) : undefined;
}

/** FPDF_RenderPageBitmap flags (fpdfview.h): annotations drawn, grey output. */
const FPDF_ANNOT = 0x01;
const FPDF_GRAYSCALE = 0x08;
/** FPDFBitmap_Gray (fpdfview.h): one byte a pixel. */
const FPDFBITMAP_GRAY = 1;

/**
 * Renders a page to 8-bit grey in a `width` x `height` bitmap through PDFium's C API (white background)
 * and hands it to `use`; the page is drawn at `at` (bitmap pixels: a negative origin crops), turned by `rotate` quarter turns.
 */
function renderGreyDirect<T>(
  x: PdfiumPageInternals,
  width: number,
  height: number,
  use: (page: GreyPage) => T,
  at: { x: number; y: number; width: number; height: number; rotate: number } = { x: 0, y: 0, width, height, rotate: 0 },
): T {
  const m = x.module;
  const size = width * height;
  const ptr = m.wasmExports.malloc(size);
  if (ptr === 0) throw new Error('PDFium could not allocate the label bitmap');
  let bitmap = 0;
  try {
    bitmap = m._FPDFBitmap_CreateEx(width, height, FPDFBITMAP_GRAY, ptr, width);
    m._FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    m._FPDF_RenderPageBitmap(bitmap, x.pageIdx, at.x, at.y, at.width, at.height, at.rotate, FPDF_ANNOT | FPDF_GRAYSCALE);
    return use({ width, height, grey: m.HEAPU8.subarray(ptr, ptr + size) });
  } finally {
    if (bitmap) m._FPDFBitmap_Destroy(bitmap);
    m.wasmExports.free(ptr);
  }
}

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
  async render(pdf, view, use) {
    const lib = await (pdfium ??= import('@hyzyla/pdfium').then((m) => m.PDFiumLibrary.init()));
    const doc = await lib.loadDocument(pdf);
    try {
      const out: Array<ReturnType<typeof use>> = [];
      let i = 0;
      for (const page of doc.pages()) {
        const s = page.getOriginalSize();
        const direct = pdfiumInternals(page);
        const probe = direct
          ? (k: number): GreyPage =>
              renderGreyDirect(direct, Math.round(s.originalWidth * k), Math.round(s.originalHeight * k), (g) => ({ ...g, grey: g.grey.slice() }))
          : undefined;
        const v = view({ width: s.originalWidth, height: s.originalHeight }, i++, probe);
        const { scale: k, rotate = 0, crop } = typeof v === 'number' ? { scale: v } : v;
        if (direct) {
          // Whole dots: fitScale makes the page land on the label size exactly (up to float rounding).
          const width = Math.round((rotate ? s.originalHeight : s.originalWidth) * k);
          const height = Math.round((rotate ? s.originalWidth : s.originalHeight) * k);
          const c = crop ?? { x: 0, y: 0, width, height };
          out.push(renderGreyDirect(direct, c.width, c.height, use, { x: -c.x, y: -c.y, width, height, rotate }));
        } else {
          const r = await page.render({ scale: k, render: 'bitmap', colorSpace: 'Gray' });
          out.push(use({ width: r.width, height: r.height, grey: r.data }));
        }
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
export async function pdfToZpl(pdf: Uint8Array, target: RasterTarget, rasteriser: PdfRasteriser = pdfiumRasteriser): Promise<{ zpl: Uint8Array; pages: number; notes: string[]; crops: Array<PageCropFacts & { page: number }> }> {
  if (!(pdf.length > 4 && pdf[0] === 0x25 && pdf[1] === 0x50 && pdf[2] === 0x44 && pdf[3] === 0x46)) throw new Error('The label is not a PDF (no %PDF header)');
  const notes: string[] = [];
  const crops: Array<PageCropFacts & { page: number }> = [];
  const labels = await rasteriser.render(
    pdf,
    (p, i, probe) => {
      // A label-sized page fills the label; a larger one (A4 with the label and a copy) has its label cropped out.
      if (isLabelSized(p, target) || !probe) return fitScale(p, target);
      const plan = planLabelCrop(p, probe(PROBE_SCALE), target);
      if (!plan) return fitScale(p, target);
      notes.push(`Page ${i + 1}, ${plan.note}.`);
      crops.push({ page: i + 1, ...plan.facts });
      return plan.view;
    },
    (p) => bitmapLabel(toMonoBitmap(p, target)),
  );
  if (!labels.length) throw new Error('The PDF label has no page');
  return { zpl: new TextEncoder().encode(labels.join('')), pages: labels.length, notes, crops };
}
