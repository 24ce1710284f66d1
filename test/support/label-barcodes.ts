/**
 * What a printed label carries, measured the way a scanner sees it: ZPL is
 * rendered by an engine written by others (zpl-renderer-js, zebrash compiled
 * to WebAssembly) at the head's dots per mm, and every barcode on the image
 * is decoded by ZXing-C++ (zxing-wasm). For each symbol: its value, its box
 * in mm on the label, and its narrowest bar (or module) in mm, measured on
 * the image along the symbol's middle line.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { renderZplStream } from '../../electron/core/printing/zpl/preview';
import { lexZpl } from '../../electron/core/printing/zpl/zpl-lexer';

/** One decoded symbol: value, ZXing format name, box on the label (mm from the top-left) and narrowest bar/module (mm). */
export interface MeasuredBarcode {
  format: string;
  text: string;
  box: { x: number; y: number; width: number; height: number };
  /** Narrowest dark run across the symbol's middle line, mm (1D: the narrow bar; 2D: about one module). */
  narrowMm: number;
}

/** A rendered label: its size in dots and mm and what was decoded on it. */
export interface MeasuredLabel {
  widthMm: number;
  heightMm: number;
  dpmm: number;
  barcodes: MeasuredBarcode[];
}

let zxing: Promise<unknown> | undefined;

function zxingReady(): Promise<unknown> {
  zxing ??= (async () => {
    const wasm = fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    return prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
  })();
  return zxing;
}

/** Renders every `^XA…^XZ` of `zpl` at `dpmm` on a `widthMm`×`heightMm` label (one PNG each). */
async function renderLabels(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<Buffer[]> {
  // The preview engine's worker (zpl-renderer-js), restarted when the engine dies after many renders.
  return renderZplStream(zpl, dpmm === 24 ? 600 : dpmm === 12 ? 300 : 203, widthMm, heightMm);
}

/** Narrowest dark run (pixels) along the horizontal and vertical middle lines of a box, ignoring the image edge. */
function narrowestRun(png: PNG, box: { x: number; y: number; width: number; height: number }): number {
  const dark = (x: number, y: number): boolean => {
    const i = (y * png.width + x) * 4;
    return (png.data[i] ?? 255) < 128;
  };
  const runs: number[] = [];
  const scan = (len: number, at: (k: number) => boolean): void => {
    // Only runs with light on both sides: a run cut by the box edge is not a whole bar.
    let run = 0;
    let lightBefore = false;
    for (let k = 0; k < len; k++) {
      if (at(k)) run++;
      else {
        if (run > 0 && lightBefore) runs.push(run);
        run = 0;
        lightBefore = true;
      }
    }
  };
  const x0 = Math.max(0, Math.floor(box.x));
  const x1 = Math.min(png.width - 1, Math.ceil(box.x + box.width));
  const y0 = Math.max(0, Math.floor(box.y));
  const y1 = Math.min(png.height - 1, Math.ceil(box.y + box.height));
  for (const f of [0.35, 0.5, 0.65]) {
    const y = Math.round(y0 + (y1 - y0) * f);
    scan(x1 - x0 + 1, (k) => dark(x0 + k, y));
    const x = Math.round(x0 + (x1 - x0) * f);
    scan(y1 - y0 + 1, (k) => dark(x, y0 + k));
  }
  if (!runs.length) return 0;
  // The narrowest run seen at least twice: a lone 1-pixel speck from anti-aliasing is not a bar.
  runs.sort((a, b) => a - b);
  for (let i = 1; i < runs.length; i++) if (runs[i] === runs[i - 1]) return runs[i]!;
  return runs[0]!;
}

/** Decodes and measures every barcode on one rendered label image. */
export async function measurePng(png: Buffer, dpmm: number): Promise<MeasuredBarcode[]> {
  await zxingReady();
  const img = PNG.sync.read(png);
  const found = await readBarcodes(new Uint8Array(png), { formats: [], tryHarder: true, tryRotate: true, tryInvert: false, maxNumberOfSymbols: 32 });
  return found
    .filter((b) => b.isValid)
    .map((b) => {
      const p = b.position;
      const xs = [p.topLeft.x, p.topRight.x, p.bottomLeft.x, p.bottomRight.x];
      const ys = [p.topLeft.y, p.topRight.y, p.bottomLeft.y, p.bottomRight.y];
      const box = { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
      const narrow = narrowestRun(img, box);
      return {
        format: b.format,
        text: b.text,
        box: { x: box.x / dpmm, y: box.y / dpmm, width: box.width / dpmm, height: box.height / dpmm },
        narrowMm: narrow / dpmm,
      };
    });
}

/**
 * Each MaxiCode field (`^BD`) of a stream alone: the format's own commands
 * (`^XA`, `^LH`, `^PO`, `^PW`, `^LL`, `^CI`, `^FW`, `^XZ`, …) kept, every
 * other field dropped. ZXing (zxing-wasm 3) decodes MaxiCode only on an
 * image that holds the symbol and nothing else: on a whole label the rules
 * and text around it hide it (checked on the UPS labels of the corpus).
 */
function maxiCodeAlone(zpl: string): string[] {
  const tokens = lexZpl(zpl);
  const fields: string[] = [];
  let field: string[] = [];
  let format: string[] = [];
  const indices: number[] = [];
  for (const t of tokens) {
    const n = t.kind === 'command' ? t.name : '';
    if (n === 'XA') {
      format = [t.raw];
      continue;
    }
    field.push(t.raw);
    if (n === 'BD') indices.push(fields.length);
    if (n === 'FS' || n === 'XZ') {
      const isField = field.some((r) => /^.(FO|FT|FD|FV)/i.test(r));
      if (!isField) format.push(...field);
      else if (indices.includes(fields.length)) fields.push(`${format.join('')}${field.join('')}^XZ`);
      else fields.push('');
      field = [];
    }
  }
  return fields.filter((f) => f !== '');
}

/** The MaxiCodes of `zpl`, each rendered alone (see maxiCodeAlone) and measured; other symbols are not looked for. */
export async function measureMaxiCodes(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<MeasuredBarcode[]> {
  const out: MeasuredBarcode[] = [];
  for (const one of maxiCodeAlone(zpl)) {
    for (const png of await renderLabels(one, widthMm, heightMm, dpmm)) out.push(...(await measurePng(png, dpmm)).filter((b) => b.format === 'MaxiCode'));
  }
  return out;
}

/** Renders `zpl` and measures the barcodes of each label. */
export async function measureZpl(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<MeasuredLabel[]> {
  const pngs = await renderLabels(zpl, widthMm, heightMm, dpmm);
  const out: MeasuredLabel[] = [];
  for (const png of pngs) out.push({ widthMm, heightMm, dpmm, barcodes: await measurePng(png, dpmm) });
  return out;
}

/** One target the station prints on: a profile (dpi and stock) or none (the station's dpi, 4 × 6 in). */
export interface PrintTarget {
  name: string;
  dpi: 203 | 300 | 600;
  stockMm: { width: number; height: number };
  profile: boolean;
}

/** The matrix of issue 23: 203/300/600 dpi × 4 × 6 in and 100 × 150 mm profiles, and no profile at each dpi. */
export const PRINT_TARGETS: PrintTarget[] = ([203, 300, 600] as const).flatMap((dpi) => [
  { name: `${dpi} dpi, 4×6 in`, dpi, stockMm: { width: 101.6, height: 152.4 }, profile: true },
  { name: `${dpi} dpi, 100×150 mm`, dpi, stockMm: { width: 100, height: 150 }, profile: true },
  { name: `${dpi} dpi, no profile`, dpi, stockMm: { width: 101.6, height: 152.4 }, profile: false },
]);

/** Dots per mm of a head as ZPL counts them (8, 12, 24). */
export function dpmmOf(dpi: 203 | 300 | 600): number {
  return dpi === 600 ? 24 : dpi === 300 ? 12 : 8;
}

/** Why one barcode of the original is not right on the printed label; null when it is. */
export function barcodeProblem(
  original: MeasuredBarcode,
  printed: MeasuredBarcode[],
  opts: { stockMm: { width: number; height: number }; dotMm: number; shrink: number },
): string | null {
  return checkBarcode(original, printed, opts).problem;
}

/**
 * One barcode of the original checked on the printed label: `problem` (null
 * when right) and `note`, which says why a size other than the plain one was
 * accepted. A label shrunk on purpose to fit its stock (a 4 × 8 in label on
 * 6 in stock) may keep its barcodes at the carrier's size rather than shrink
 * them: scanners read them as the carrier made them, so any size from the
 * shrunk one to the original (±12 %) is right, and the note names it.
 * `atOriginalSize` is issue 36's stricter measure: decoded, inside the stock
 * and at 88–112 % of the carrier's own size (sizes in mm on the label).
 */
export function checkBarcode(
  original: MeasuredBarcode,
  printed: MeasuredBarcode[],
  opts: { stockMm: { width: number; height: number }; dotMm: number; shrink: number },
): { problem: string | null; note: string | null; atOriginalSize: boolean } {
  const same = printed.filter((b) => b.format === original.format && b.text === original.text);
  if (!same.length) return { problem: `${original.format} ${JSON.stringify(original.text.slice(0, 24))} not decoded`, note: null, atOriginalSize: false };
  const linear = !/QR|DataMatrix|Aztec|MaxiCode|PDF417/.test(original.format);
  // The symbol's length across its bars (1D: the longer side ZXing reports; 2D: both sides).
  const sizeOf = (b: MeasuredBarcode): number[] => (linear ? [Math.max(b.box.width, b.box.height)] : [b.box.width, b.box.height].sort((x, y) => x - y));
  const orig = sizeOf(original);
  const want = orig.map((v) => v * opts.shrink);
  const problems: string[] = [];
  // Issue 36's measure: decoded inside the stock at 88–112 % of the carrier's own size, whatever the label was shrunk to.
  const atOriginalSize = same.some((b) => {
    const got = sizeOf(b);
    const inside = b.box.x >= -0.01 && b.box.y >= -0.01 && b.box.x + b.box.width <= opts.stockMm.width + 0.01 && b.box.y + b.box.height <= opts.stockMm.height + 0.01;
    return inside && got.every((g, i) => g >= 0.88 * orig[i]! && g <= 1.12 * orig[i]!);
  });
  for (const b of same) {
    const got = sizeOf(b);
    const inside = b.box.x >= -0.01 && b.box.y >= -0.01 && b.box.x + b.box.width <= opts.stockMm.width + 0.01 && b.box.y + b.box.height <= opts.stockMm.height + 0.01;
    const plainOk = got.every((g, i) => Math.abs(g - want[i]!) <= 0.12 * want[i]!);
    const keptOk = opts.shrink < 1 && got.every((g, i) => g >= 0.88 * want[i]! && g <= 1.12 * orig[i]!);
    // MaxiCode has no bars: its hexagons are drawn by the printer at the symbol's fixed size (^BD has no module
    // parameter), and the narrowest run across a hexagon depends on how the head's grid cuts it; its size is checked.
    const narrowOk = original.format === 'MaxiCode' || b.narrowMm >= original.narrowMm * opts.shrink - opts.dotMm - 1e-6;
    if (inside && (plainOk || keptOk) && narrowOk) {
      const note = plainOk
        ? null
        : `kept at ${got.map((g) => g.toFixed(1)).join('×')} mm (carrier's ${orig.map((v) => v.toFixed(1)).join('×')}): the label was shrunk to ${Math.round(opts.shrink * 100)} % to fit the stock, its barcodes not`;
      return { problem: null, note, atOriginalSize };
    }
    problems.push(
      [
        !inside ? `outside the stock at ${b.box.x.toFixed(1)},${b.box.y.toFixed(1)}` : '',
        !(plainOk || keptOk) ? `size ${got.map((g) => g.toFixed(1)).join('×')} mm, want ${want.map((w) => w.toFixed(1)).join('×')}${opts.shrink < 1 ? ` to ${orig.map((v) => v.toFixed(1)).join('×')}` : ''}` : '',
        !narrowOk ? `narrow bar ${b.narrowMm.toFixed(3)} mm, was ${original.narrowMm.toFixed(3)}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    );
  }
  return { problem: `${original.format} ${JSON.stringify(original.text.slice(0, 24))}: ${problems.join(' | ')}`, note: null, atOriginalSize };
}
