/**
 * Carrier ZPL fitted to the print head and the stock loaded at the bench
 * (issue 23): the dpi the label was made for, the exact scale to the head,
 * and the ink kept on the stock — the label's home moved by its blank margin
 * first, shrunk only when the ink itself is larger than the stock.
 *
 * The ink box is measured on the label as the carrier made it, rendered by
 * the preview engine (zpl-renderer-js) at the dpi it was made for, so fields,
 * barcodes, text and graphics all count, whatever commands drew them.
 */
import { PNG } from 'pngjs';
import { adaptZpl, detectZplDpi, type ZplDpi } from './adapt';
import { renderZplStream } from './preview';
import { barcodeFieldsOnly, barcodeModules, heldPlan, keepsModules, planLongLabel, type LongLabelPlan } from './long-label';
import { lexZpl, withParams } from './zpl-lexer';
import { MAXICODE_IN } from './zpl-scale';

/** A box in mm from the label's top-left corner. */
interface BoxMm {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How a label was adapted, for the preview and the print log. */
export interface LabelAdaptation {
  /** The dpi the label was made for, and what said so. */
  madeForDpi: ZplDpi;
  madeForFrom: '^PW' | '^LL' | 'profile' | 'default';
  /** The print head's dpi. */
  dpi: ZplDpi;
  /** Target dots per carrier dot (dpi / madeForDpi × shrink). */
  factor: number;
  /** 1 unless the ink was larger than the stock. */
  shrink: number;
  /** How far the label was moved left and up, mm. */
  shiftMm: { x: number; y: number };
  /** The ink as printed (after scale, shift, shrink), mm; null when nothing prints. */
  inkMm: BoxMm | null;
  /** The stock the label prints on, mm. */
  stockMm: { width: number; height: number };
  /** The label's size as printed when it fits the stock as it says (nothing measured), mm; else null. */
  labelMm: { width: number; height: number } | null;
  /** False when the preview engine could not read the label to measure its ink. */
  inkMeasured: boolean;
  /** One sentence for the packer: "made for 203 dpi, printing at 300 dpi, scaled ×1.48; ink 96.5 × 140.2 mm on 100 × 150 mm stock". */
  note: string;
  /**
   * Set when the label is too long for the stock even with every barcode at 90 % of its module (issue 36):
   * the sentence for the packer ("This label is 4 × 7.1 in: load 4 × 8 in labels, or choose a printer
   * profile for them"); the print queue holds such a job (jobs/long-labels.ts), and the ZPL returned beside it,
   * the label shrunk to the stock, is what prints when the packer says to print it anyway.
   */
  heldTooLong?: string;
  /** How a label larger than the stock prints (long-label.ts); absent when it fits. */
  longLabel?: LongLabelPlan;
}

/** Finds the ink of a stream: union of the dark pixels of every label, in dots; null when blank. */
export type InkFinder = (zpl: string, dpi: ZplDpi, canvasMm: { width: number; height: number }) => Promise<{ x0: number; y0: number; x1: number; y1: number } | null>;

/** Canvas the ink is looked for on: larger than any carrier label (4 × 8 in and more). */
const CANVAS_MM = { width: 160, height: 320 };

/** The default {@link InkFinder}: renders with the preview engine and scans the pixels (grey < 128 is ink). */
const renderedInk: InkFinder = async (zpl, dpi, canvasMm) => {
  // Measured upright: ^POI turns the label within its own size on the head, which the larger canvas would not.
  const upright = lexZpl(zpl)
    .filter((t) => !(t.kind === 'command' && !t.control && t.name === 'PO'))
    .map((t) => t.raw)
    .join('');
  const pngs = await renderZplStream(upright, dpi, canvasMm.width, canvasMm.height);
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (const buf of pngs) {
    const img = PNG.sync.read(buf);
    const { width, height, data } = img;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    for (let y = 0; y < height; y++) {
      let row = y * width * 4;
      for (let x = 0; x < width; x++, row += 4) {
        if (data[row]! < 128 && data[row + 3]! > 0) {
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          y1 = y;
        }
      }
    }
    if (x1 < 0) continue;
    box = box ? { x0: Math.min(box.x0, x0), y0: Math.min(box.y0, y0), x1: Math.max(box.x1, x1 + 1), y1: Math.max(box.y1, y1 + 1) } : { x0, y0, x1: x1 + 1, y1: y1 + 1 };
  }
  return box;
};

const mm = (dots: number, dpi: number): number => Math.round((dots / dpi) * 25.4 * 10) / 10;

/** The dpi a label was made for and what said so: `^PW`/`^LL`, else the profile's (carrier's) setting, else 203. */
function madeForDpi(zpl: string, configured?: ZplDpi): { dpi: ZplDpi; from: LabelAdaptation['madeForFrom'] } {
  const detected = detectZplDpi(zpl);
  if (detected !== null) return { dpi: detected, from: /\^PW\s*\d/i.test(zpl) ? '^PW' : '^LL' };
  if (configured) return { dpi: configured, from: 'profile' };
  return { dpi: 203, from: 'default' };
}

function madeForSentence(made: { dpi: ZplDpi; from: LabelAdaptation['madeForFrom'] }, dpi: ZplDpi, factor: number): string {
  return `made for ${made.dpi} dpi${made.from === 'default' ? ' (assumed: nothing in the label says)' : ''}, printing at ${dpi} dpi, scaled ×${factor.toFixed(2)}`;
}

/**
 * The size a label takes, in dots at the dpi it was made for, read from its
 * commands without rendering it: `^PW` (else 4 in) by `^LL` (else 6 in),
 * enlarged to hold every field origin (`^FO`/`^FT` from its `^LH` home) and
 * the boxes and graphics drawn there (`^GB`, `^GF`), so a 4 × 8 in label
 * that says nothing is not taken for a 4 × 6 in one. Text and barcodes
 * count by their origin only: a field starting inside but running past
 * `^LL` is the carrier's mistake, cut on any printer.
 * `null` when it cannot be read this way (units other than dots after `^MU`).
 */
function declaredSize(zpl: string, dpi: ZplDpi): { width: number; height: number } | null {
  let width = 0;
  let height = 0;
  let right = 0;
  let bottom = 0;
  let home = { x: 0, y: 0 };
  let at: { x: number; y: number } | null = null;
  const nums = (params: string, delimiter: string): number[] => params.split(delimiter).map((p) => Number(/^\s*(-?\d+)/.exec(p)?.[1] ?? NaN));
  for (const t of lexZpl(zpl)) {
    if (t.kind !== 'command' || t.control) continue;
    const p = nums(t.params, t.delimiter);
    const n = t.name;
    if (n === 'MU' && !/^\s*D/i.test(t.params)) return null;
    if (n === 'XA') home = { x: 0, y: 0 };
    else if (n === 'PW' && p[0]! > 0) width = Math.max(width, p[0]!);
    else if (n === 'LL' && p[0]! > 0) height = Math.max(height, p[0]!);
    else if (n === 'LH') home = { x: Math.max(0, p[0] || 0), y: Math.max(0, p[1] || 0) };
    else if (n === 'FO' || n === 'FT') {
      at = { x: home.x + Math.max(0, p[0] || 0), y: home.y + Math.max(0, p[1] || 0) };
      right = Math.max(right, at.x);
      bottom = Math.max(bottom, at.y);
    } else if (n === 'GB' && at) {
      right = Math.max(right, at.x + (p[0] || 1));
      bottom = Math.max(bottom, at.y + (p[1] || 1));
    } else if (n === 'GF' && at && p[1]! > 0 && p[3]! > 0) {
      right = Math.max(right, at.x + p[3]! * 8);
      bottom = Math.max(bottom, at.y + Math.ceil(p[1]! / p[3]!));
    } else if (n === 'FS') at = null;
  }
  return { width: Math.max(width || Math.round(4 * dpi), right), height: Math.max(height || Math.round(6 * dpi), bottom) };
}

/** Whether a stream has a MaxiCode field (`^BD`). */
const hasMaxiCode = (zpl: string): boolean => lexZpl(zpl).some((t) => t.kind === 'command' && !t.control && t.name === 'BD');

/**
 * `^PW`/`^LL` of a label shrunk to fit its stock, given back their size up to
 * the stock's (dots): its barcodes keep at least their shrunk size and may be
 * wider than the shrunk print width (a 4 × 8 in UPS label's GS1-128 at 3
 * dots would be cut by a `^PW` shrunk to 85 %).
 */
function unshrinkPrintArea(zpl: string, shrink: number, stock: { width: number; height: number }): string {
  return lexZpl(zpl)
    .map((t) => {
      if (t.kind !== 'command' || t.control || (t.name !== 'PW' && t.name !== 'LL')) return t.raw;
      const m = /^(\s*)(\d+)/.exec(t.params);
      if (!m) return t.raw;
      const v = Number(m[2]);
      const limit = t.name === 'PW' ? stock.width : stock.height;
      const grown = Math.max(v, Math.min(limit, Math.round(v / shrink)));
      return withParams(t, `${m[1] ?? ''}${grown}${t.params.slice(m[0].length)}`);
    })
    .join('');
}

/**
 * Adapts carrier ZPL to the head and the stock:
 * 1. the dpi it was made for ({@link madeForDpi}) gives the scale `dpi / madeFor`;
 * 2. when its size ({@link declaredSize}: `^PW` × `^LL`, else 4 × 6 in,
 *    and its fields) fits the stock once scaled, it is only scaled: nothing
 *    is rendered, the label prints at once; else its ink box is measured
 *    (rendered by `opts.ink`, default the preview engine) at the dpi it was
 *    made for, then scaled;
 * 3. when the scaled ink passes the stock's right or bottom edge, the label
 *    moves left/up by at most its blank margin; when the ink is larger than
 *    the stock, the scale is multiplied by the largest factor < 1 that fits
 *    (and the ink moved into the stock);
 * 4. {@link adaptZpl} does the rest (printer settings stripped, scaled, shifted).
 *
 * @param zpl carrier ZPL as a latin1 string
 * @param opts.dpi the head's dpi; `opts.stockMm` the label stock; `opts.madeForDpi` the carrier's label resolution when the ZPL does not say
 * @throws Error when the preview engine cannot read the ZPL to measure its ink
 */
export async function fitZplToStock(
  zpl: string,
  opts: { dpi: ZplDpi; stockMm: { width: number; height: number }; madeForDpi?: ZplDpi; ink?: InkFinder },
): Promise<{ zpl: string; adaptation: LabelAdaptation }> {
  const made = madeForDpi(zpl, opts.madeForDpi);
  const base = opts.dpi / made.dpi;
  // Whole dots of the stock (the epsilon keeps 152.4 mm at 300 dpi at 1800 dots, not 1799).
  const W = Math.floor((opts.stockMm.width / 25.4) * opts.dpi + 1e-6);
  const H = Math.floor((opts.stockMm.height / 25.4) * opts.dpi + 1e-6);
  // A label whose size (said or assumed) fits the stock once scaled prints at once: no render to measure its ink.
  const declared = declaredSize(zpl, made.dpi);
  if (declared && declared.width * base <= W + 0.5 && declared.height * base <= H + 0.5) {
    const out = adaptZpl(zpl, { dpi: opts.dpi, sourceDpi: made.dpi, factor: base });
    const sizeMm = { width: mm(declared.width * base, opts.dpi), height: mm(declared.height * base, opts.dpi) };
    const note = `${madeForSentence(made, opts.dpi, base)}; label ${sizeMm.width} × ${sizeMm.height} mm fits the ${opts.stockMm.width} × ${opts.stockMm.height} mm stock`;
    return {
      zpl: out,
      adaptation: { madeForDpi: made.dpi, madeForFrom: made.from, dpi: opts.dpi, factor: base, shrink: 1, shiftMm: { x: 0, y: 0 }, inkMm: null, stockMm: { ...opts.stockMm }, labelMm: sizeMm, inkMeasured: true, note },
    };
  }
  // A stream the preview engine cannot read still prints, scaled, unmoved: the note says the ink was not measured.
  let measured = true;
  // A label with ^PW is drawn centred on a wider canvas: measure it on its own width (the head prints nothing past it).
  const pw = /\^PW\s*(\d+)/i.exec(zpl)?.[1];
  const canvas = pw && Number(pw) > 0 ? { width: (Number(pw) / made.dpi) * 25.4, height: CANVAS_MM.height } : CANVAS_MM;
  const inkSrc = await (opts.ink ?? renderedInk)(zpl, made.dpi, canvas).catch(() => {
    measured = false;
    return null;
  });
  let shrink = 1;
  let shift = { x: 0, y: 0 };
  let ink: { x0: number; y0: number; x1: number; y1: number } | null = null;
  let plan: LongLabelPlan | null = null;
  let maxiGrow = { x: 0, y: 0 };
  if (inkSrc) {
    const s0 = { x0: inkSrc.x0 * base, y0: inkSrc.y0 * base, x1: inkSrc.x1 * base, y1: inkSrc.y1 * base };
    shrink = Math.min(1, W / (s0.x1 - s0.x0), H / (s0.y1 - s0.y0));
    if (shrink < 1) {
      // Larger than the stock: what lies past its edge decides (long-label.ts): cut text, shrink ≥ 90 %, or hold.
      const barsOnly = barcodeFieldsOnly(zpl);
      // A barcode render the engine refuses counts as barcodes down to the ink's end (shrink or hold, never cut).
      const barSrc = barsOnly === null ? null : await (opts.ink ?? renderedInk)(barsOnly, made.dpi, canvas).catch(() => inkSrc);
      const bars = barSrc ? { x0: barSrc.x0 * base, y0: barSrc.y0 * base, x1: barSrc.x1 * base, y1: barSrc.y1 * base } : null;
      const modules = barcodeModules(zpl).map((m) => m * base);
      plan = planLongLabel(s0, bars, { width: W, height: H }, opts.dpi, declared ? declared.width * base : undefined, modules);
      shrink = plan.kind === 'held' ? Math.floor(shrink * 1000) / 1000 : plan.shrink;
      // A MaxiCode keeps its size while the rest shrinks; what lies past it moves out by what it did not shrink
      // (zpl-scale.ts): the label then takes shrink × ink + (1 − shrink) × symbol on each side, which must fit.
      if (hasMaxiCode(zpl)) {
        const m = { x: MAXICODE_IN.width * opts.dpi, y: MAXICODE_IN.height * opts.dpi };
        const room = (stock: number, ink: number, sym: number): number => (ink > sym ? (stock - sym) / (ink - sym) : 1);
        // The extent the shrink above fitted (all the ink, or only down to the last barcode when text is left off).
        const fitted = { x: Math.min(s0.x1 - s0.x0, W / shrink), y: Math.min(s0.y1 - s0.y0, H / shrink) };
        const kept = Math.min(room(W, fitted.x, m.x), room(H, fitted.y, m.y));
        if (kept < shrink) {
          shrink = Math.floor(kept * 1000) / 1000;
          // The room may take the label under what its barcodes allow: then it is held like any other.
          if (plan.kind === 'shrunk') plan = keepsModules(modules, shrink) ? { kind: 'shrunk', shrink } : heldPlan(s0, declared ? declared.width * base : s0.x1, opts.dpi, shrink);
        }
        maxiGrow = { x: Math.ceil(m.x * (1 - shrink)), y: Math.ceil(m.y * (1 - shrink)) };
      }
    }
    const s = { x0: s0.x0 * shrink, y0: s0.y0 * shrink, x1: s0.x1 * shrink + maxiGrow.x, y1: s0.y1 * shrink + maxiGrow.y };
    // Move by the overflow, never more than the blank margin (ceil: whole dots, the last one inside).
    shift = { x: Math.min(Math.floor(s.x0), Math.max(0, Math.ceil(s.x1 - W))), y: Math.min(Math.floor(s.y0), Math.max(0, Math.ceil(s.y1 - H))) };
    ink = { x0: s.x0 - shift.x, y0: s.y0 - shift.y, x1: s.x1 - shift.x, y1: s.y1 - shift.y };
  }
  const factor = base * shrink;
  const scaled = adaptZpl(zpl, { dpi: opts.dpi, sourceDpi: made.dpi, factor, ...(shift.x || shift.y ? { shift } : {}), ...(shrink < 1 ? { unshrunkFactor: base } : {}) });
  const out = shrink < 1 ? unshrinkPrintArea(scaled, shrink, { width: W, height: H }) : scaled;
  const inkMm = ink ? { x: mm(ink.x0, opts.dpi), y: mm(ink.y0, opts.dpi), width: mm(ink.x1 - ink.x0, opts.dpi), height: mm(ink.y1 - ink.y0, opts.dpi) } : null;
  const parts = [madeForSentence(made, opts.dpi, factor)];
  if (!measured) parts.push('ink not measured (the preview engine could not read the label)');
  if (inkMm) parts.push(`ink ${inkMm.width} × ${inkMm.height} mm on ${opts.stockMm.width} × ${opts.stockMm.height} mm stock`);
  if (shift.x || shift.y) parts.push(`moved ${mm(shift.x, opts.dpi)} mm left and ${mm(shift.y, opts.dpi)} mm up into its blank margin`);
  if (plan?.kind === 'cut') parts.push(`printed at 100 %: only text and lines pass the stock's end, ${plan.leftOffMm} mm of them left off`);
  else if (plan?.kind === 'shrunk') parts.push(`shrunk to ${Math.round(shrink * 100)} % so every barcode fits the stock, each keeping at least 90 % of its module`);
  // The print queue holds such a job for the packer (jobs/long-labels.ts); these bytes print only at the packer's word.
  else if (plan?.kind === 'held') parts.push(`too long for the stock: ${plan.sentence}; held (printed anyway, it is shrunk to ${Math.round(shrink * 100)} %, some barcodes below 90 % of their module)`);
  else if (shrink < 1) parts.push(`shrunk to ${Math.round(shrink * 100)} % because the ink is larger than the stock`);
  if (maxiGrow.x || maxiGrow.y) parts.push(`MaxiCode kept at its size, the fields past it moved ${mm(maxiGrow.x, opts.dpi)} mm right and ${mm(maxiGrow.y, opts.dpi)} mm down to keep its place clear`);
  return {
    zpl: out,
    adaptation: {
      madeForDpi: made.dpi,
      madeForFrom: made.from,
      dpi: opts.dpi,
      factor,
      shrink,
      shiftMm: { x: mm(shift.x, opts.dpi), y: mm(shift.y, opts.dpi) },
      inkMm,
      stockMm: { ...opts.stockMm },
      labelMm: null,
      inkMeasured: measured,
      note: parts.join('; '),
      ...(plan?.kind === 'held' ? { heldTooLong: plan.sentence } : {}),
      ...(plan && plan.kind !== 'fits' ? { longLabel: plan } : {}),
    },
  };
}

/** {@link fitZplToStock} on bytes: every byte outside the changed commands kept (latin1 round trip, like adaptZplBytes). */
export async function fitZplBytesToStock(
  zpl: Uint8Array,
  opts: { dpi: ZplDpi; stockMm: { width: number; height: number }; madeForDpi?: ZplDpi; ink?: InkFinder },
): Promise<{ bytes: Uint8Array; adaptation: LabelAdaptation }> {
  const text = Buffer.from(zpl.buffer, zpl.byteOffset, zpl.byteLength).toString('latin1');
  const { zpl: out, adaptation } = await fitZplToStock(text, opts);
  return { bytes: Buffer.from(out, 'latin1'), adaptation };
}
