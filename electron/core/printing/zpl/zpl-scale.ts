/**
 * Scales carrier ZPL from the resolution it was made for to the print head's
 * (203, 300, 600 dpi), command by command, on the tokens of {@link lexZpl}
 * (Zebra ZPL II Programming Guide for every command's parameters):
 *
 * - positions and sizes in dots (`^FO`, `^FT`, `^LH`, `^LS`, `^PW`, `^LL`,
 *   `^FB`, `^TB`, `^GB`, `^GC`, `^GD`, `^GE`, `^GS`, `^A` and `^CF` fonts,
 *   barcode heights) are multiplied and rounded to whole dots;
 * - barcode module widths (`^BY` w, `^BX` module size, `^BQ`/`^BO`
 *   magnification) and bar heights follow one rule (module-round.ts): the
 *   nearest whole dot, rounded up rather than keep under 90 % of the ideal;
 *   the `^BY` wide-to-narrow ratio is adjusted (2.0–3.0) so wide bars keep
 *   their width too; `^BD` (MaxiCode, ISO/IEC 16023: the printer draws it at
 *   its fixed size, about 1.11 × 1.05 in, at any dpi) is kept as it is, only
 *   its field origin moves; a field whose
 *   module would pass ZPL's 10 dots (a 600 dpi head) is drawn as a `^GF`
 *   graphic at its true module instead (zpl-barcode-graphic.ts), or kept at
 *   10 dots with a warning when it cannot be drawn;
 * - `^GF` and `~DG` graphics are decoded (every encoding) and resampled, then
 *   written as `:Z64:`;
 * - field data (`^FD`, `^FV`, `^SN`), comments (`^FX`) and every other byte
 *   are kept exactly; after `^MUM`/`^MUI` (units in mm or inches) the printer
 *   converts by itself, so nothing is scaled until `^MUD`.
 *
 * An optional shift (dots at the target resolution) moves the whole label up
 * and left: taken from `^LH` first, the rest from each `^FO`/`^FT`.
 */
import { barcodeGraphic, barcodeModuleOverflows, decodeFieldHex, linearModules, ZPL_MAX_MODULE, type ZplBarcodeGraphic, type ZplBarDefaults } from './zpl-barcode-graphic';
import { roundToDots, wideRatio } from './module-round';
import { decodeGraphic, resampleGraphic, z64 } from './zpl-graphics';
import { lexZpl, withParams, type ZplToken } from './zpl-lexer';

/** What {@link scaleZpl} does: multiply by `factor`, then move everything `shift` dots left/up. */
export interface ZplScaleOptions {
  /** Target dots per source dot (300/203 ≈ 1.478); 0.1–10. */
  factor: number;
  /** Dots (target) to move the label left (`x`) and up (`y`); default none. */
  shift?: { x: number; y: number };
  /**
   * The factor before the label was shrunk to fit its stock (head dpi / the
   * dpi it was made for); default `factor`. Barcode modules then round up
   * rather than lose more than 12 % (see moduleDots).
   */
  unshrunkFactor?: number;
  /**
   * The head's resolution, dpi: with `unshrunkFactor`, a MaxiCode (`^BD`, drawn at its fixed size whatever the
   * scale) placed by `^FO` keeps its place clear: every field past its right or bottom edge moves out by what
   * the symbol did not shrink (see scaleZpl; label-fit.ts leaves that room on the stock).
   */
  headDpi?: number;
}

/** A MaxiCode's size as a printer draws `^BD` at any dpi (ISO/IEC 16023: about 1.11 × 1.054 in), inches. */
export const MAXICODE_IN = { width: 1.11, height: 1.054 };

/** A MaxiCode's quiet zone, inches: 1X on every side, X ≈ 0.88 mm (ISO/IEC 16023:2000 §4.11.5, as zint's output.c cites it). */
const MAXICODE_QUIET_IN = 0.88 / 25.4;

/**
 * The first MaxiCode placed by `^FO` in each `^XA…^XZ` format, at its top-left corner in the carrier's dots
 * (its `^LH` home added); null for a format without one (or one placed by `^FT`, or after `^MU` units other than dots).
 */
function maxiCodeOrigins(tokens: ZplToken[]): Array<{ x: number; y: number } | null> {
  const out: Array<{ x: number; y: number } | null> = [];
  let home = { x: 0, y: 0 };
  let at: { x: number; y: number } | null = null;
  let dots = true;
  const num = (p: string | undefined): number => Number(NUM.exec(p ?? '')?.[2] ?? 0);
  for (const t of tokens) {
    if (t.kind !== 'command' || t.control) continue;
    const p = t.params.split(t.delimiter);
    if (t.name === 'XA') {
      out.push(null);
      home = { x: 0, y: 0 };
    } else if (t.name === 'MU') dots = !/^\s*[MI]/i.test(t.params);
    else if (t.name === 'LH') home = { x: num(p[0]), y: num(p[1]) };
    else if (t.name === 'FO') at = { x: home.x + num(p[0]), y: home.y + num(p[1]) };
    else if (t.name === 'FT' || t.name === 'FS') at = null;
    else if (t.name === 'BD' && at && dots && out.length && out[out.length - 1] === null) out[out.length - 1] = at;
  }
  return out;
}

/** The scaled stream and what could not be scaled (e.g. a `^GFC` graphic left as it was). */
export interface ZplScaleResult {
  zpl: string;
  /** Graphics resampled. */
  graphics: number;
  /** One line per command left unscaled, naming it. */
  warnings: string[];
}

type Rule = 'pos' | 'size' | 'signed';

/** Dot-valued parameters by command: index → how it scales. */
const DOTS: Record<string, Record<number, Rule>> = {
  LS: { 0: 'signed' },
  PW: { 0: 'size' },
  LL: { 0: 'size' },
  FB: { 0: 'size', 2: 'signed', 4: 'size' },
  TB: { 1: 'size', 2: 'size' },
  GB: { 0: 'size', 1: 'size', 2: 'size' },
  GE: { 0: 'size', 1: 'size', 2: 'size' },
  GD: { 0: 'size', 1: 'size', 2: 'size' },
  GC: { 0: 'size', 1: 'size' },
  GS: { 1: 'size', 2: 'size' },
  CF: { 1: 'size', 2: 'size' },
  // Barcode heights (the ZPL guide's h of each symbology).
  BC: { 1: 'size' },
  B2: { 1: 'size' },
  B3: { 2: 'size' },
  B1: { 2: 'size' },
  B4: { 1: 'size' },
  B7: { 1: 'size' },
  B8: { 1: 'size' },
  B9: { 1: 'size' },
  BA: { 1: 'size' },
  BB: { 1: 'size' },
  BE: { 1: 'size' },
  BI: { 1: 'size' },
  BJ: { 1: 'size' },
  BK: { 2: 'size' },
  BL: { 1: 'size' },
  BM: { 2: 'size' },
  BP: { 2: 'size' },
  BS: { 1: 'size' },
  BU: { 1: 'size' },
  BZ: { 1: 'size' },
};

const NUM = /^(\s*)(-?\d+(?:\.\d+)?)(\s*)$/;

function scaleValue(v: number, f: number, rule: Rule): number {
  const s = Math.round(v * f);
  if (rule === 'size' && v > 0) return Math.max(1, s);
  return s;
}

/** A bar height at the target, dots: {@link roundToDots} of the carrier's `v` dots × `f` (0 stays 0: the command's default). */
function barHeight(v: number, f: number): number {
  return v > 0 ? roundToDots(v * f).dots : Math.round(v * f);
}

/**
 * Module width at the target, dots: {@link roundToDots} of the carrier's `v` × `f`, ≤ `max`.
 * On a label shrunk to fit its stock (`unshrunk` > `f`), a module that would
 * lose more than 12 % of its width rounds up instead, never past its width
 * unshrunk: the barcode keeps at least its shrunk size, at most the carrier's.
 */
function moduleDots(v: number, f: number, max: number, unshrunk = f): number {
  const ideal = v * f;
  let m = roundToDots(ideal).dots;
  if (unshrunk > f && m < 0.88 * ideal) m = Math.min(Math.ceil(ideal), Math.max(1, Math.round(v * unshrunk)));
  return Math.min(max, m);
}

function mapParams(t: ZplToken, fn: (value: number, index: number) => number | null): string {
  const parts = t.params.split(t.delimiter);
  for (let i = 0; i < parts.length; i++) {
    const m = NUM.exec(parts[i]!);
    if (!m) continue;
    const out = fn(Number(m[2]), i);
    if (out !== null) parts[i] = `${m[1] ?? ''}${out}${m[3] ?? ''}`;
  }
  return parts.join(t.delimiter);
}

/** `^BY w,r,h`: module width rounded, ratio kept so wide bars keep their width, height scaled. */
function scaleBy(t: ZplToken, f: number, unshrunk: number): string {
  const parts = t.params.split(t.delimiter);
  const w = NUM.exec(parts[0] ?? '');
  if (w) {
    const src = Number(w[2]);
    const m = moduleDots(src, f, 10, unshrunk);
    parts[0] = `${w[1] ?? ''}${m}${w[3] ?? ''}`;
    const r = NUM.exec(parts[1] ?? '');
    const ratio = r ? Number(r[2]) : 3;
    const wanted = wideRatio(src * ratio * f, m).ratio;
    if (r || (wanted !== 3 && src > 1)) parts[1] = `${r?.[1] ?? ''}${String(wanted)}${r?.[3] ?? ''}`;
  }
  const h = NUM.exec(parts[2] ?? '');
  if (h) parts[2] = `${h[1] ?? ''}${barHeight(Number(h[2]), f)}${h[3] ?? ''}`;
  return parts.join(t.delimiter);
}

/** ZPL's `^BY` at the start of every format: 2 dots, ratio 3.0, 10 dots high. */
const BY_DEFAULT: ZplBarDefaults = { moduleDots: 2, ratio: 3, heightDots: 10 };

/** The carrier's `^BY w,r,h` read over the values in force (a parameter left out keeps its value). */
function readBy(t: ZplToken, prev: ZplBarDefaults): ZplBarDefaults {
  const parts = t.params.split(t.delimiter).map((p) => NUM.exec(p)?.[2]);
  return {
    moduleDots: parts[0] !== undefined ? Number(parts[0]) : prev.moduleDots,
    ratio: parts[1] !== undefined ? Number(parts[1]) : prev.ratio,
    heightDots: parts[2] !== undefined ? Number(parts[2]) : prev.heightDots,
  };
}

/** `^GFa,b,c,d,data` resampled; `null` when the graphic cannot be read (left as it was). */
function scaleGf(t: ZplToken, f: number): string | null {
  const parts = t.params.split(t.delimiter);
  if (parts.length < 5) return null;
  const kind = (parts[0] ?? 'A').trim().toUpperCase() || 'A';
  const total = Number(parts[1]);
  const perRow = Number(parts[3]);
  const data = parts.slice(4).join(t.delimiter);
  const bm = resampleGraphic(decodeGraphic(kind, total, perRow, data), f);
  const n = bm.bits.length;
  return `A${t.delimiter}${n}${t.delimiter}${n}${t.delimiter}${bm.bytesPerRow}${t.delimiter}${z64(bm)}`;
}

/** `~DGd:o.x,t,w,data` resampled; `null` when it cannot be read. */
function scaleDg(t: ZplToken, f: number): string | null {
  const parts = t.params.split(t.delimiter);
  if (parts.length < 4) return null;
  const bm = resampleGraphic(decodeGraphic('A', Number(parts[1]), Number(parts[2]), parts.slice(3).join(t.delimiter)), f);
  return `${parts[0]}${t.delimiter}${bm.bits.length}${t.delimiter}${bm.bytesPerRow}${t.delimiter}${z64(bm)}\n`;
}

/**
 * A barcode field placed by `^FT` and drawn as a graphic: its `^FT` (already written to `out` at `at.index`,
 * scaled) becomes the `^FO` of the graphic's top-left corner, so the graphic lands where the barcode was on
 * any printer (a `^GF` placed by `^FT` hangs from its bottom-left corner on a Zebra, from its top-left on some
 * renderers). `^FT` is the field's typesetting origin, fixed to its content and turned with it (ZPL II
 * Programming Guide, `^FT`: a barcode's origin is the base of its bars, left end, even with an interpretation
 * line below): with the graphic `w` × `h` dots as printed, the box's top-left is (x, y − h) for N, (x, y) for
 * R (turned 90° clockwise, the base faces left), (x − w, y) for I and (x − w, y − h) for B.
 * @returns the field's new position (`FO`, the graphic's top-left)
 * @throws Error when the `^FT` has no explicit x and y (it continues after the previous field) or the
 *   graphic would start off the label; the caller keeps the barcode command
 */
function typesetToOrigin(out: string[], at: FieldAt, o: string, g: { width: number; height: number }): FieldAt {
  const m = /^(.)FT\s*\d+(\s*[^\d\s]\s*)\d+/.exec(out[at.index] ?? '');
  if (!m) throw new Error('a field placed by ^FT without x and y');
  const x = at.x - (o === 'I' || o === 'B' ? g.width : 0);
  const y = at.y - (o === 'N' || o === 'B' ? g.height : 0);
  if (x < 0 || y < 0) throw new Error(`a field placed by ^FT whose ${o} graphic would start off the label (${x}, ${y})`);
  out[at.index] = `${m[1]!}FO${x}${m[2]!}${y}${out[at.index]!.slice(m[0].length)}`;
  return { name: 'FO', x, y, index: at.index };
}

/** Where the field being read was placed, as sent: its command, x and y (dots at the head) and its index in the output. */
interface FieldAt {
  name: 'FO' | 'FT';
  x: number;
  y: number;
  index: number;
}

/**
 * Scales a ZPL stream (see the module comment for what changes).
 * @param zpl the stream as a latin1 string (one character per byte)
 * @throws RangeError when `factor` is outside 0.1–10
 */
export function scaleZpl(zpl: string, opts: ZplScaleOptions): ZplScaleResult {
  const f = opts.factor;
  const unshrunk = Math.max(f, opts.unshrunkFactor ?? f);
  if (!(f >= 0.1 && f <= 10)) throw new RangeError('scaleZpl: factor must be 0.1–10');
  const shift = { x: Math.max(0, Math.round(opts.shift?.x ?? 0)), y: Math.max(0, Math.round(opts.shift?.y ?? 0)) };
  const warnings: string[] = [];
  let graphics = 0;
  let dots = true; // ^MU: dots unless mm or inches
  // The part of the shift ^LH could not take, taken from every ^FO/^FT.
  let carry = { ...shift };
  const out: string[] = [];
  // The carrier's ^BY (dots at its resolution) and ^FW, for barcodes drawn as graphics; the field's position as sent.
  let by: ZplBarDefaults = { ...BY_DEFAULT };
  let fw = 'N';
  let at: FieldAt | null = null;
  let fh: string | null = null;
  // A barcode field whose module would pass ZPL's limit: its commands wait for ^FS.
  let pending: { barcode: ZplToken; rest: ZplToken[]; centre: boolean } | null = null;
  // A MaxiCode keeps its size (1.11 × 1.054 in at any dpi) on a label shrunk to fit its stock, so it cannot sit in
  // its shrunk place without covering the fields shrunk towards it (issue 36: keep its place clear). Its ^FO is
  // only scaled (its top-left anchored) and every field whose origin lies past its far edge, less its 1X quiet
  // zone (ISO/IEC 16023 §4.11.5; the carrier's own lines may touch it), moves right or down by what the symbol
  // did not shrink: (1 − factor / unshrunk) × its size. Moving whole columns and rows keeps the fields' own gaps.
  const tokens = lexZpl(zpl);
  const maxis = unshrunk > f && opts.headDpi ? maxiCodeOrigins(tokens) : [];
  const lost = 1 - f / unshrunk;
  // Rounded up: a line that touched the quiet zone's edge stays out of it.
  const maxiOut = { x: Math.ceil(MAXICODE_IN.width * (opts.headDpi ?? 0) * lost), y: Math.ceil(MAXICODE_IN.height * (opts.headDpi ?? 0) * lost) };
  const src = (inches: number): number => (inches * (opts.headDpi ?? 0)) / unshrunk;
  let format = -1;
  let homeSrc = { x: 0, y: 0 };
  /** How far a field whose origin is (x, y) from ^LH, carrier's dots, moves out of the MaxiCode's way, head dots. */
  const clearOfMaxi = (x: number, y: number): { x: number; y: number } => {
    const m = maxis[format];
    if (!m) return { x: 0, y: 0 };
    const [ax, ay] = [homeSrc.x + x, homeSrc.y + y];
    return { x: ax >= m.x + src(MAXICODE_IN.width - MAXICODE_QUIET_IN) ? maxiOut.x : 0, y: ay >= m.y + src(MAXICODE_IN.height - MAXICODE_QUIET_IN) ? maxiOut.y : 0 };
  };

  const scaleToken = (t: ZplToken): void => {
    if (t.kind === 'text') {
      out.push(t.raw);
      return;
    }
    const n = t.name;
    if (n === 'XA') {
      format++;
      homeSrc = { x: 0, y: 0 };
      carry = { ...shift };
      by = { ...BY_DEFAULT };
      at = null;
      fh = null;
      // A barcode with no ^BY before it in the format takes the default 2 dots, 3.0 ratio, 10 dots high,
      // whatever the head: set the scaled default so it keeps its size.
      if (f !== 1) {
        out.push(t.raw, `${t.prefix}BY${moduleDots(2, f, 10, unshrunk)},3,${barHeight(10, f)}`);
        return;
      }
    }
    if (n === 'MU') dots = !/^\s*[MI]/i.test(t.params);
    if (n === 'FW' && !t.control) fw = (t.params.trim()[0] ?? 'N').toUpperCase();
    if (n === 'FH' && !t.control) fh = t.params.trim()[0] ?? '_';
    if (n === 'FS' && !t.control) {
      at = null;
      fh = null;
    }
    if (n === 'BY' && !t.control) by = readBy(t, by);
    // Units other than dots: the printer converts positions itself; graphics are dots whatever ^MU says.
    if ((!dots && n !== 'GF' && n !== 'DG') || (t.control && n !== 'DG')) {
      out.push(t.raw);
      return;
    }
    if (n === 'FO' || n === 'FT') {
      const xy: number[] = [];
      const index = out.length;
      const p = t.params.split(t.delimiter).map((v) => NUM.exec(v)?.[2]);
      const away = p[0] !== undefined && p[1] !== undefined ? clearOfMaxi(Number(p[0]), Number(p[1])) : { x: 0, y: 0 };
      out.push(withParams(t, mapParams(t, (v, i) => (i === 0 || i === 1 ? (xy[i] = Math.max(0, scaleValue(v, f, 'pos') + (i === 0 ? away.x - carry.x : away.y - carry.y))) : null))));
      at = { name: n, x: xy[0] ?? 0, y: xy[1] ?? 0, index };
    } else if (n === 'LH') {
      const home = t.params.split(t.delimiter).map((p) => Number(NUM.exec(p)?.[2] ?? 0));
      homeSrc = { x: home[0] ?? 0, y: home[1] ?? 0 };
      const x = scaleValue(home[0] ?? 0, f, 'pos');
      const y = scaleValue(home[1] ?? 0, f, 'pos');
      carry = { x: Math.max(0, shift.x - x), y: Math.max(0, shift.y - y) };
      out.push(withParams(t, mapParams(t, (v, i) => (i === 0 ? Math.max(0, x - shift.x) : i === 1 ? Math.max(0, y - shift.y) : null))));
    } else if (n === 'BD') {
      // MaxiCode: no size to scale (the printer draws it at its fixed size); only its origin moves (scaled, shifted).
      out.push(t.raw);
    } else if (n === 'BY') {
      out.push(withParams(t, scaleBy(t, f, unshrunk)));
    } else if (n === 'BX') {
      out.push(withParams(t, mapParams(t, (v, i) => (i === 1 ? moduleDots(v, f, 9999, unshrunk) : null))));
    } else if (n === 'BQ') {
      out.push(withParams(t, mapParams(t, (v, i) => (i === 2 ? moduleDots(v, f, 10, unshrunk) : null))));
    } else if (n === 'BO' || n === 'B0') {
      out.push(withParams(t, mapParams(t, (v, i) => (i === 1 ? moduleDots(v, f, 10, unshrunk) : null))));
    } else if (n === 'GF' || n === 'DG') {
      let scaled: string | null = null;
      try {
        scaled = n === 'GF' ? scaleGf(t, f) : scaleDg(t, f);
      } catch (e) {
        warnings.push(`${t.prefix}${n}: left as it was (${e instanceof Error ? e.message : String(e)})`);
      }
      if (scaled === null) out.push(t.raw);
      else {
        graphics++;
        out.push(withParams(t, scaled));
      }
    } else if (n.startsWith('A')) {
      // ^Af o,h,w (and ^A@o,h,w,d:o.x): the font letter is the name's second character.
      out.push(withParams(t, mapParams(t, (v, i) => (i === 1 || i === 2 ? scaleValue(v, f, 'size') : null))));
    } else {
      const rules = DOTS[n];
      // A barcode's height (every B* rule is its h) follows the module rule; every other size the plain one.
      const scale = (v: number, rule: Rule): number => (n.startsWith('B') && rule === 'size' ? barHeight(v, f) : scaleValue(v, f, rule));
      out.push(rules ? withParams(t, mapParams(t, (v, i) => (rules[i] ? scale(v, rules[i]) : null))) : t.raw);
    }
  };

  /** The waiting barcode field at its ^FS: drawn as ^GF when it can be, else scaled as usual (module capped at 10). */
  const flush = (p: { barcode: ZplToken; rest: ZplToken[]; centre: boolean }, fs: ZplToken | null): void => {
    if (p.centre) return centre(p, fs);
    const dataToken = [...p.rest].reverse().find((t) => t.kind === 'command' && (t.name === 'FD' || t.name === 'FV'));
    const fhToken = p.rest.find((t) => t.kind === 'command' && t.name === 'FH');
    const indicator = fhToken ? (fhToken.params.trim()[0] ?? '_') : fh;
    let where = at;
    let drawn: ZplBarcodeGraphic | null = null;
    try {
      if (!dataToken) throw new Error('no field data');
      const raw = dataToken.params.replace(/[\r\n]/g, '');
      const g = barcodeGraphic(
        { name: p.barcode.name, params: p.barcode.params.split(p.barcode.delimiter), by, data: indicator ? decodeFieldHex(raw, indicator) : raw, defaultOrientation: fw, factor: f },
        p.barcode.delimiter,
      );
      if (where?.name === 'FT') {
        const o = (p.barcode.params.split(p.barcode.delimiter)[0]?.trim() || fw).toUpperCase();
        where = typesetToOrigin(out, where, o, g);
      }
      drawn = g;
    } catch (e) {
      warnings.push(`${p.barcode.prefix}${p.barcode.name}: module over ${ZPL_MAX_MODULE} dots kept at ${ZPL_MAX_MODULE} (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!drawn) {
      scaleToken(p.barcode);
      p.rest.forEach(scaleToken);
      if (fs) scaleToken(fs);
      return;
    }
    graphics++;
    out.push(`${p.barcode.prefix}GF${drawn.gf}`);
    for (const t of p.rest) if (!(t.kind === 'command' && (t.name === 'FD' || t.name === 'FV' || t.name === 'FH'))) scaleToken(t);
    if (fs) scaleToken(fs);
    if (drawn.text) {
      // Under the bars in the field's own frame: below them (N), left (R), above (I) or right (B) on the label.
      const { value, heightDots: th, orientation: o } = drawn.text;
      const gap = Math.round(4 * f);
      const [bx, by] = [where?.x ?? 0, where?.y ?? 0];
      const x = o === 'R' ? bx - gap - th : o === 'B' ? bx + drawn.width + gap : bx;
      const y = o === 'N' ? by + drawn.height + gap : o === 'I' ? by - gap - th : by;
      const d = p.barcode.delimiter;
      const c = p.barcode.prefix;
      if (x < 0 || y < 0) warnings.push(`${c}${p.barcode.name}: its readable line would start off the label (${x}, ${y}); not printed`);
      else out.push(`${c}FO${x}${d}${y}${c}A0${o}${d}${th}${d}${th}${c}FB${o === 'R' || o === 'B' ? drawn.height : drawn.width}${d}1${d}0${d}C${c}FD${value}${c}FS`);
    }
  };

  /**
   * An upright Code 128 placed by ^FO keeps its centre where the carrier put it: a module rounded up
   * (5.73 → 6 dots) widens the symbol to the right only, into the quiet zone before the next box
   * (Kmart's (420) barcode lost its right quiet zone at 300 dpi); the field moves left by half of it.
   */
  const centre = (p: { barcode: ZplToken; rest: ZplToken[] }, fs: ZplToken | null): void => {
    const where = at;
    const dataToken = [...p.rest].reverse().find((t) => t.kind === 'command' && (t.name === 'FD' || t.name === 'FV'));
    const hasFh = fh !== null || p.rest.some((t) => t.kind === 'command' && t.name === 'FH');
    if (where && dataToken && !hasFh) {
      try {
        const modules = linearModules({ name: 'BC', params: p.barcode.params.split(p.barcode.delimiter), by, data: dataToken.params.replace(/[\r\n]/g, ''), defaultOrientation: fw, factor: f });
        const ideal = by.moduleDots * f;
        const delta = Math.round((modules * (moduleDots(by.moduleDots, f, 10, unshrunk) - ideal)) / 2);
        const x = Math.max(0, where.x - delta);
        if (x !== where.x) out[where.index] = out[where.index]!.replace(/^(.{3}\s*)\d+/, `$1${x}`);
      } catch {
        // Data the encoder refuses: the field stays where it was scaled to.
      }
    }
    scaleToken(p.barcode);
    p.rest.forEach(scaleToken);
    if (fs) scaleToken(fs);
  };

  // Read through a function: `at` is set inside scaleToken, where the loop's narrowing cannot see it.
  const placedBy = (): 'FO' | 'FT' | null => at?.name ?? null;

  for (const t of tokens) {
    if (pending) {
      if (t.kind === 'command' && !t.control && (t.name === 'FS' || t.name === 'XZ')) {
        const p = pending;
        pending = null;
        flush(p, t.name === 'FS' ? t : null);
        if (t.name === 'XZ') scaleToken(t);
      } else pending.rest.push(t);
      continue;
    }
    if (t.kind === 'command' && !t.control && dots && f !== 1 && barcodeModuleOverflows(t.name, t.params.split(t.delimiter), by, f)) {
      pending = { barcode: t, rest: [], centre: false };
      continue;
    }
    if (t.kind === 'command' && !t.control && dots && f !== 1 && t.name === 'BC' && placedBy() === 'FO' && (t.params.split(t.delimiter)[0]?.trim() || fw).toUpperCase() === 'N') {
      pending = { barcode: t, rest: [], centre: true };
      continue;
    }
    scaleToken(t);
  }
  if (pending) flush(pending, null);
  return { zpl: out.join(''), graphics, warnings };
}
