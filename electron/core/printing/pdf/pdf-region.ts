/**
 * PDF pages that are not label-sized (issue 23: an A4 page with the label and
 * the sender's copy, a waybill with its label): the label is found on the
 * page, cropped, turned to the stock's orientation and rendered at the head's
 * dpi, 1:1 with the page (every barcode keeps its size) unless the label is
 * larger than the stock.
 *
 * How the label is found, on a 72 dpi grey probe of the page:
 * 1. cut lines: a row (column) dashed (no dash over 10 % of the page) across at least 80 % of the page, or
 *    solid from edge to edge, with blank rows (columns) on both sides, splits
 *    the page into parts (3 mm either side left out: the scissors);
 * 2. each part's ink box, and its bar score: dark pixels in a thin (≤ 1.5 mm)
 *    run across and a long (≥ 8 mm) run along — bars of a 1D barcode, either
 *    way round, and the finder and bars of 2D codes, but not text;
 * 3. the part with the highest bar score is the label; other inked parts are
 *    named in the note (a sender's copy, a waybill copy, a second label).
 */
/** A page rendered to 8-bit grey (pdf-zpl.ts GreyPage). */
interface GreyPage {
  width: number;
  height: number;
  grey: Uint8Array;
}

/** The head and stock (pdf-zpl.ts RasterTarget). */
interface RasterTarget {
  dpi: number;
  widthMm: number;
  heightMm: number;
}

/**
 * How to render one page: `scale` pixels per point, turned 90° clockwise when `rotate` is 1, and only
 * the `crop` rectangle (pixels of the scaled, turned page) when given.
 */
export interface PageView {
  scale: number;
  rotate?: 0 | 1;
  crop?: { x: number; y: number; width: number; height: number };
}

/** A part of the page: its ink box in probe pixels and its bar score. */
export interface PagePart {
  box: { x: number; y: number; width: number; height: number };
  barScore: number;
}

/** Probe resolution, pixels per PDF point (72 dpi). */
export const PROBE_SCALE = 1;
/** Grey level under which a probe pixel is ink. */
const INK = 160;
const mmPx = (mm: number): number => Math.round((mm / 25.4) * 72 * PROBE_SCALE);

/** Whether line `i` (a row when `rows`, else a column) is a cut line across the page. */
function cutLines(g: GreyPage, rows: boolean): number[] {
  const n = rows ? g.height : g.width;
  const len = rows ? g.width : g.height;
  const at = (line: number, k: number): boolean => g.grey[rows ? line * g.width + k : k * g.width + line]! < INK;
  const ink = new Float32Array(n);
  const span = new Float32Array(n);
  const runs = new Uint16Array(n);
  const longest = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let c = 0;
    let first = -1;
    let last = -1;
    let r = 0;
    let run = 0;
    let max = 0;
    for (let k = 0; k < len; k++) {
      if (at(i, k)) {
        c++;
        if (first < 0) first = k;
        if (last !== k - 1) {
          r++;
          run = 0;
        }
        max = Math.max(max, ++run);
        last = k;
      }
    }
    ink[i] = c / len;
    span[i] = first < 0 ? 0 : (last - first + 1) / len;
    runs[i] = r;
    longest[i] = max / len;
  }
  const gap = mmPx(2);
  const out: number[] = [];
  for (let i = gap; i < n - gap; i++) {
    // Dashed across most of the page, or solid from edge to edge: a rule inside a label is neither.
    const dashed = runs[i]! >= 8 && longest[i]! <= 0.1 && span[i]! >= 0.8 && ink[i]! >= 0.25;
    const solid = span[i]! >= 0.95 && ink[i]! >= 0.9;
    if (!dashed && !solid) continue;
    // A line, not a block: thin, with (nearly) blank lines 1–2 mm either side.
    let clear = true;
    for (let d = Math.ceil(gap / 2); d <= gap && clear; d++) clear = ink[i - d]! <= 0.05 && ink[i + d]! <= 0.05;
    if (clear && (out.length === 0 || i - out[out.length - 1]! > gap)) out.push(i);
  }
  return out;
}

/** Ink box and bar score of the rectangle [x0,x1)×[y0,y1) of the probe; null when blank. */
function part(g: GreyPage, x0: number, y0: number, x1: number, y1: number): PagePart | null {
  const w = g.width;
  const dark = (x: number, y: number): boolean => g.grey[y * w + x]! < INK;
  let bx0 = x1;
  let by0 = y1;
  let bx1 = -1;
  let by1 = -1;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (dark(x, y)) {
        if (x < bx0) bx0 = x;
        if (x > bx1) bx1 = x;
        if (y < by0) by0 = y;
        if (y > by1) by1 = y;
      }
  if (bx1 < 0) return null;
  // Run lengths along rows (h) and columns (v) through every dark pixel.
  const pw = x1 - x0;
  const ph = y1 - y0;
  const h = new Uint16Array(pw * ph);
  const v = new Uint16Array(pw * ph);
  for (let y = 0; y < ph; y++) {
    let x = 0;
    while (x < pw) {
      if (!dark(x0 + x, y0 + y)) {
        x++;
        continue;
      }
      let e = x;
      while (e < pw && dark(x0 + e, y0 + y)) e++;
      for (let k = x; k < e; k++) h[y * pw + k] = e - x;
      x = e;
    }
  }
  for (let x = 0; x < pw; x++) {
    let y = 0;
    while (y < ph) {
      if (!dark(x0 + x, y0 + y)) {
        y++;
        continue;
      }
      let e = y;
      while (e < ph && dark(x0 + x, y0 + e)) e++;
      for (let k = y; k < e; k++) v[k * pw + x] = e - y;
      y = e;
    }
  }
  const thin = mmPx(1.5);
  const long = mmPx(8);
  let barScore = 0;
  for (let i = 0; i < h.length; i++) {
    const a = h[i]!;
    const b = v[i]!;
    if (a && ((a <= thin && b >= long) || (b <= thin && a >= long))) barScore++;
  }
  return { box: { x: bx0, y: by0, width: bx1 - bx0 + 1, height: by1 - by0 + 1 }, barScore };
}

/**
 * The parts of a probed page, split at its cut lines, with ink; the label (highest bar score) first.
 * @param g the page rendered at {@link PROBE_SCALE} pixels per point
 */
export function findPageParts(g: GreyPage): PagePart[] {
  const edge = (cuts: number[], n: number): Array<[number, number]> => {
    const pad = mmPx(3);
    const bounds = [0, ...cuts.flatMap((c) => [c - pad, c + pad + 1]), n];
    const out: Array<[number, number]> = [];
    for (let i = 0; i < bounds.length; i += 2) if (bounds[i + 1]! > bounds[i]!) out.push([bounds[i]!, bounds[i + 1]!]);
    return out;
  };
  const parts: PagePart[] = [];
  for (const [y0, y1] of edge(cutLines(g, true), g.height)) {
    for (const [x0, x1] of edge(cutLines(g, false), g.width)) {
      const p = part(g, x0, y0, x1, y1);
      if (p && p.box.width > mmPx(10) && p.box.height > mmPx(10)) parts.push(p);
    }
  }
  return parts.sort((a, b) => b.barScore - a.barScore);
}

/** Whether a page is label-sized for the stock: at most 15 % larger than it either way round. */
export function isLabelSized(page: { width: number; height: number }, t: RasterTarget): boolean {
  const w = (t.widthMm / 25.4) * 72;
  const h = (t.heightMm / 25.4) * 72;
  const fits = (a: number, b: number): boolean => page.width <= a * 1.15 && page.height <= b * 1.15;
  return fits(w, h) || fits(h, w);
}

/** What {@link planLabelCrop} did, for the preview to say it in the bench's language: page and label size (mm), turned, shrunk to (%), parts left out. */
export interface PageCropFacts {
  pageMm: { width: number; height: number };
  labelMm: { width: number; height: number };
  turned: boolean;
  /** Percent the label was shrunk to, null when printed at its size. */
  shrinkPct: number | null;
  /** Other parts on the page (a second label, a copy), not printed on the label printer. */
  otherParts: number;
  /** Their ink boxes as they lie on the page, mm (width across the page, height down it), largest first. */
  otherPartsMm: Array<{ width: number; height: number }>;
}

/**
 * How to render a page that is not label-sized: the label part cropped (1 mm
 * margin), turned 90° clockwise when its orientation is not the stock's,
 * at the head's dpi, shrunk only when it is larger than the stock; and a
 * sentence for the preview. `null` when the page has no ink.
 * @param page page size in points; `probe` the page at {@link PROBE_SCALE}; `t` the head and stock
 */
export function planLabelCrop(page: { width: number; height: number }, probe: GreyPage, t: RasterTarget): { view: PageView; note: string; facts: PageCropFacts } | null {
  const parts = findPageParts(probe);
  const label = parts[0];
  if (!label) return null;
  const margin = mmPx(1);
  // The box in points (probe pixels / PROBE_SCALE), with the margin, kept on the page.
  const bx0 = Math.max(0, (label.box.x - margin) / PROBE_SCALE);
  const by0 = Math.max(0, (label.box.y - margin) / PROBE_SCALE);
  const bx1 = Math.min(page.width, (label.box.x + label.box.width + margin) / PROBE_SCALE);
  const by1 = Math.min(page.height, (label.box.y + label.box.height + margin) / PROBE_SCALE);
  const stockW = Math.round((t.widthMm / 25.4) * t.dpi);
  const stockH = Math.round((t.heightMm / 25.4) * t.dpi);
  const rotate = bx1 - bx0 > by1 - by0 !== stockW > stockH;
  // Width and height as printed (after the turn), points.
  const w = rotate ? by1 - by0 : bx1 - bx0;
  const h = rotate ? bx1 - bx0 : by1 - by0;
  const oneToOne = t.dpi / 72;
  const shrink = Math.min(1, stockW / (w * oneToOne), stockH / (h * oneToOne));
  const scale = oneToOne * (shrink < 1 ? Math.floor(shrink * 1000) / 1000 : 1);
  // The crop in the turned page's pixels: 90° clockwise maps (x, y) to (pageHeight − y, x).
  const crop = rotate
    ? { x: Math.floor((page.height - by1) * scale), y: Math.floor(bx0 * scale), width: Math.min(stockW, Math.ceil(w * scale)), height: Math.min(stockH, Math.ceil(h * scale)) }
    : { x: Math.floor(bx0 * scale), y: Math.floor(by0 * scale), width: Math.min(stockW, Math.ceil(w * scale)), height: Math.min(stockH, Math.ceil(h * scale)) };
  const mmOf = (pt: number): number => Math.round((pt / 72) * 25.4);
  const size = `${mmOf(page.width)} × ${mmOf(page.height)} mm`;
  const bits = [`a ${size} page: printed the label found on it (${mmOf(w)} × ${mmOf(h)} mm${rotate ? ', turned 90°' : ''}, ${shrink < 1 ? `shrunk to ${Math.round(shrink * 100)} % to fit the stock` : 'at its size'})`];
  const rest = parts.length - 1;
  if (rest > 0) bits.push(`the page holds ${rest === 1 ? 'another part' : `${rest} other parts`} (a second label, the sender's or a waybill copy), not printed on the label printer`);
  const otherPartsMm = parts
    .slice(1)
    .map((p) => ({ width: mmOf(p.box.width / PROBE_SCALE), height: mmOf(p.box.height / PROBE_SCALE) }))
    .sort((a, b) => b.width * b.height - a.width * a.height);
  const facts: PageCropFacts = {
    pageMm: { width: mmOf(page.width), height: mmOf(page.height) },
    labelMm: { width: mmOf(w), height: mmOf(h) },
    turned: rotate,
    shrinkPct: shrink < 1 ? Math.round(shrink * 100) : null,
    otherParts: rest,
    otherPartsMm,
  };
  return { view: { scale, rotate: rotate ? 1 : 0, crop }, note: bits.join('; '), facts };
}
