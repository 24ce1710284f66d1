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
import { ready as zplReady } from 'zpl-renderer-js';

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
export async function renderLabels(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<Buffer[]> {
  const { api } = await zplReady;
  const pngs = await api.zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm);
  return pngs.map((b) => Buffer.from(b, 'base64'));
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

/** Renders `zpl` and measures the barcodes of each label. */
export async function measureZpl(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<MeasuredLabel[]> {
  const pngs = await renderLabels(zpl, widthMm, heightMm, dpmm);
  const out: MeasuredLabel[] = [];
  for (const png of pngs) out.push({ widthMm, heightMm, dpmm, barcodes: await measurePng(png, dpmm) });
  return out;
}
