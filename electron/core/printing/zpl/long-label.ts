/**
 * A carrier label longer (or wider) than the stock loaded at the bench
 * (issue 36, item 2): what is past the stock's edge decides how it prints.
 *
 * - only text, lines and graphics past the edge: it prints at 100 %, those
 *   are left off, and the job's note says so;
 * - a barcode past the edge: the label shrinks only as far as every barcode
 *   fits and keeps at least 90 % of its module (MaxiCode, `^BD`, is drawn at
 *   its fixed size whatever the scale: zpl-scale.ts);
 * - more than that: the job is held with a sentence naming the label's size
 *   and the stock it needs.
 *
 * Barcodes are found by their commands (Zebra ZPL II Programming Guide: every
 * barcode field command is `^B` + a symbology letter or digit; `^BY` only sets
 * defaults): the label is rendered once with its barcode fields alone.
 */
import { MIN_KEPT, roundToDots } from './module-round';
import { lexZpl } from './zpl-lexer';

/** A box in dots at the dpi the label was made for: x0, y0 inclusive, x1, y1 exclusive. */
export interface DotBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** How a label longer than its stock prints. */
export type LongLabelPlan =
  | { kind: 'fits'; shrink: 1 }
  | { kind: 'cut'; shrink: 1; leftOffMm: number }
  | { kind: 'shrunk'; shrink: number }
  | { kind: 'held'; shrink: number; sentence: string; inches: HeldSize };

/** A held label's size and the stock it needs, inches (one decimal; the stock in whole inches). */
interface HeldSize {
  width: number;
  height: number;
  loadWidth: number;
  loadHeight: number;
}

/**
 * The stream with its barcode fields only: every field (from `^FO`/`^FT` to `^FS`) that holds no barcode
 * command is dropped; format commands (`^XA`, `^LH`, `^BY`, `^FW`, `^PW`, `~DG`, …) are kept.
 * @param zpl the stream as a latin1 string
 * @returns the stream, or null when it has no barcode field at all (nothing to render)
 */
export function barcodeFieldsOnly(zpl: string): string | null {
  const out: string[] = [];
  let field: string[] | null = null;
  let barcode = false;
  let any = false;
  for (const t of lexZpl(zpl)) {
    const n = t.kind === 'command' && !t.control ? t.name : '';
    if (n === 'FO' || n === 'FT') {
      if (field && barcode) out.push(...field);
      field = [];
      barcode = false;
    }
    if (!field) {
      out.push(t.raw);
      continue;
    }
    field.push(t.raw);
    if (/^B[0-9A-Z]$/.test(n) && n !== 'BY') barcode = any = true;
    if (n === 'FS' || n === 'XZ') {
      if (barcode) out.push(...field);
      else if (n === 'XZ') out.push(t.raw);
      field = null;
    }
  }
  if (field && barcode) out.push(...field);
  return any ? out.join('') : null;
}

/** Widths label stock is sold in, inches (2, 3 and 4 in for 4 in print heads; 6 and 8 in for wide ones). */
const STOCK_WIDTHS_IN = [2, 3, 4, 6, 8] as const;

/** Inches, one decimal (4, 7.1). */
const inches = (dots: number, dpi: number): number => Math.round((dots / dpi) * 10) / 10;

/**
 * The packer's sentence for a held label (issue 36): "This label is 4 × 7.1 in: load 4 × 8 in labels, or
 * choose a printer profile for them"; the core text `jobHeldTooLong` says the same with these values.
 */
function heldSentence(s: HeldSize): string {
  return `This label is ${s.width} × ${s.height} in: load ${s.loadWidth} × ${s.loadHeight} in labels, or choose a printer profile for them`;
}

/**
 * The plan for a label on its stock.
 * @param ink the whole label's ink, dots at the target (already scaled by dpi / made-for dpi)
 * @param bars the ink of its barcode fields alone, same units; null when it has none
 * @param stock the stock, dots at the target (W × H)
 * @param dpi the head's dpi (for the sentence, in inches)
 * @param labelWidth the label's width as it says (`^PW`, else 4 in), dots at the target; default the ink's right edge
 * @param modules the label's barcode modules ({@link barcodeModules}) × the unshrunk scale, dots at the target: a
 *   shrink is allowed when each, rounded by module-round.ts, keeps ≥ 90 %; default none (the shrink itself must be ≥ 90 %)
 */
export function planLongLabel(
  ink: DotBox,
  bars: DotBox | null,
  stock: { width: number; height: number },
  dpi: number,
  labelWidth = ink.x1,
  modules: readonly number[] = [],
): LongLabelPlan {
  const fitsAll = ink.x1 - ink.x0 <= stock.width && ink.y1 - ink.y0 <= stock.height;
  if (fitsAll) return { kind: 'fits', shrink: 1 };
  // Moved left/up by the blank margin, the barcodes must end inside the stock.
  const barW = bars ? bars.x1 - ink.x0 : 0;
  const barH = bars ? bars.y1 - ink.y0 : 0;
  const need = Math.min(1, barW > 0 ? stock.width / barW : 1, barH > 0 ? stock.height / barH : 1);
  if (need >= 1) {
    const past = Math.max(ink.y1 - ink.y0 - stock.height, 0);
    return { kind: 'cut', shrink: 1, leftOffMm: Math.round((past / dpi) * 25.4 * 10) / 10 };
  }
  const shrink = Math.floor(need * 1000) / 1000;
  return keepsModules(modules, shrink) ? { kind: 'shrunk', shrink } : heldPlan(ink, labelWidth, dpi, shrink);
}

/**
 * Whether a label may print shrunk by `shrink` (< 1): at ≥ 90 % itself, or with each of its barcode `modules`
 * (dots at the unshrunk scale), rounded by module-round.ts, keeping ≥ 90 %.
 */
export function keepsModules(modules: readonly number[], shrink: number): boolean {
  return shrink >= MIN_KEPT || (modules.length > 0 && modules.every((m) => roundToDots(m * shrink).dots >= MIN_KEPT * m - 1e-9));
}

/** The held plan of a label whose `ink` (dots at the target) needs `shrink`, with the sentence naming its size and the stock to load. */
export function heldPlan(ink: DotBox, labelWidth: number, dpi: number, shrink: number): LongLabelPlan {
  const size: HeldSize = { width: inches(Math.max(ink.x1, labelWidth), dpi), height: inches(ink.y1, dpi), loadWidth: 0, loadHeight: 0 };
  // Thermal label stock comes 2, 3, 4 or 6 in wide (4 in and 6 in heads); its length in whole inches.
  size.loadWidth = STOCK_WIDTHS_IN.find((w) => w >= size.width - 1e-9) ?? Math.ceil(size.width - 1e-9);
  size.loadHeight = Math.ceil(size.height - 1e-9);
  return { kind: 'held', shrink, sentence: heldSentence(size), inches: size };
}

/**
 * Every barcode module a stream asks for, dots at the dpi it was made for: `^BY` module width (and ZPL's
 * default 2 when a barcode comes before any `^BY`), `^BX` module size, `^BQ` and `^BO` magnification
 * (Zebra ZPL II Programming Guide). MaxiCode (`^BD`) has none: the printer draws it at its fixed size.
 */
export function barcodeModules(zpl: string): number[] {
  const out = new Set<number>();
  let by = 2;
  const nth = (params: string, delimiter: string, i: number): number | null => {
    const v = Number(/^\s*(\d+)/.exec(params.split(delimiter)[i] ?? '')?.[1] ?? NaN);
    return Number.isFinite(v) && v > 0 ? v : null;
  };
  for (const t of lexZpl(zpl)) {
    if (t.kind !== 'command' || t.control) continue;
    const n = t.name;
    if (n === 'XA') by = 2;
    else if (n === 'BY') by = nth(t.params, t.delimiter, 0) ?? by;
    else if (n === 'BX' || n === 'BO') out.add(nth(t.params, t.delimiter, 1) ?? by);
    else if (n === 'BQ') out.add(nth(t.params, t.delimiter, 2) ?? by);
    else if (/^B[0-9A-Z]$/.test(n) && n !== 'BD') out.add(by);
  }
  return [...out];
}
