/**
 * A barcode field drawn as a `^GF` graphic when scaling would need a module
 * wider than ZPL allows (issue 23, 600 dpi heads): `^BY` module width and
 * the `^BQ` (QR) and `^BO` (Aztec) magnification stop at 10 dots (Zebra ZPL
 * II Programming Guide, `^BY`, `^BQ`, `^BO`), so a 4-dot Code 128 made for
 * 203 dpi (0.5 mm) would print at 10 dots = 0.42 mm on a 600 dpi head. The
 * symbol is encoded by bwip-js (BWIPP) from the field data and drawn here
 * at its true module in whole target dots, then written as `^GFA…:Z64:`
 * in place of the barcode command; `^FD` data is read, never changed, and
 * the field's `^FO`, `^FR` and `^FS` stay as they were; a `^FT` (the bars'
 * base, turned with the field) becomes the `^FO` of the graphic's box
 * (zpl-scale.ts `typesetToOrigin`). The human-readable line a 1D symbol
 * asked for is printed under its bars as a text field (font 0, turned with
 * the field), centred on them.
 *
 * Symbologies drawn: Code 128 (`^BC`, modes N, A and D), Code 39 (`^B3`),
 * Interleaved 2 of 5 (`^B2`), EAN-13 (`^BE`), PDF417 (`^B7`), QR (`^BQ`,
 * model 2, automatic data) and Aztec (`^BO`, at the symbol size the printer
 * chooses: zpl-aztec.ts); orientations N, R, I, B.
 * Anything else is refused with a reason, and the caller keeps the barcode
 * command at the largest module ZPL allows.
 */
import bwipjs from 'bwip-js/node';
import { roundToDots } from './module-round';
import { aztecSymbol } from './zpl-aztec';
import { z64, type ZplBitmap } from './zpl-graphics';

/** The largest `^BY` module width and `^BQ`/`^BO` magnification ZPL accepts, dots. */
export const ZPL_MAX_MODULE = 10;

/** The `^BY` defaults in force for a field, at the carrier's resolution (dots; ratio 2.0–3.0). */
export interface ZplBarDefaults {
  moduleDots: number;
  ratio: number;
  heightDots: number;
}

/** A barcode field as the carrier wrote it, and the scale to the head. */
export interface ZplBarcodeField {
  /** The barcode command's name: `BC`, `B3`, `B2`, `BE`, `B7`, `BQ`, `BO`. */
  name: string;
  /** Its parameters, split on the delimiter, as written. */
  params: string[];
  /** `^BY` in force (carrier's dots). */
  by: ZplBarDefaults;
  /** Field data with `^FH` escapes decoded (one character a byte). */
  data: string;
  /** `^FW` orientation in force (N unless the label set another). */
  defaultOrientation: string;
  /** Target dots per carrier dot. */
  factor: number;
}

/** The replacement: `^GF` parameters for the barcode command, and the text field to add after `^FS` (may be ''). */
export interface ZplBarcodeGraphic {
  gf: string;
  width: number;
  height: number;
  /** The human-readable line, when the symbol asked for one: text, font height in dots and the field's orientation (N, R, I, B). */
  text: { value: string; heightDots: number; orientation: string } | null;
}

/** A module width at the target, dots: {@link roundToDots} of the carrier's `v` dots × `f` (as zpl-scale's moduleDots, without the cap). */
function targetModule(v: number, f: number): number {
  return roundToDots(v * f).dots;
}

const num = (s: string | undefined): number | null => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(s ?? '');
  return m ? Number(m[1]) : null;
};

const LINEAR = new Set(['BC', 'B3', 'B2', 'BE', 'B7']);

/**
 * Whether a barcode command needs a module wider than ZPL allows once scaled by `factor`:
 * `^BY` width for 1D and PDF417, the written magnification for `^BQ` (3rd parameter) and `^BO` (2nd).
 * A `^BY` already over the limit (which the printer refuses) is not counted.
 */
export function barcodeModuleOverflows(name: string, params: string[], by: ZplBarDefaults, factor: number): boolean {
  if (LINEAR.has(name)) return by.moduleDots <= ZPL_MAX_MODULE && targetModule(by.moduleDots, factor) > ZPL_MAX_MODULE;
  const mag = name === 'BQ' ? num(params[2]) : name === 'BO' ? num(params[1]) : null;
  return mag !== null && mag <= ZPL_MAX_MODULE && targetModule(mag, factor) > ZPL_MAX_MODULE;
}

/**
 * Field data with `^FH` escapes decoded: the indicator followed by two hex digits is that byte.
 * @param indicator the `^FH` character (`_` when `^FH` names none)
 */
export function decodeFieldHex(data: string, indicator: string): string {
  let out = '';
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    const hex = data.slice(i + 1, i + 3);
    if (c === indicator && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else out += c;
  }
  return out;
}

/** Code 128 in automatic (A) or UCC/EAN (D) mode: bwip-js text, code sets chosen by BWIPP; mode D starts with FNC1, parentheses and spaces dropped. */
function code128Text(data: string, mode: 'A' | 'D'): string {
  if (data.includes('^')) throw new Error('a caret in Code 128 data');
  return mode === 'D' ? `^FNC1${data.replace(/[() ]/g, '')}` : data;
}

/**
 * Code 128 in ZPL's normal mode (N) as codewords, start included: subset B
 * unless the data starts with `>9` (A), `>:` (B) or `>;` (C); `>5`/`>6`/`>7`
 * switch to C/B/A, `>8` is FNC1, `><` a `>` (ZPL II guide, `^BC`, "Code 128
 * Invocation Characters"). The printer does not pick subsets itself in this
 * mode, so neither does this (digits in subset B stay one a codeword).
 */
function code128Codewords(data: string): number[] {
  let set: 'A' | 'B' | 'C' = 'B';
  let i = 0;
  const start = /^>[9:;]/.exec(data)?.[0];
  if (start) {
    set = start === '>9' ? 'A' : start === '>:' ? 'B' : 'C';
    i = 2;
  }
  const cws = [set === 'A' ? 103 : set === 'B' ? 104 : 105];
  while (i < data.length) {
    const c = data[i]!;
    if (c === '>') {
      const code = data[i + 1] ?? '';
      i += 2;
      if (code === '5') {
        if (set !== 'C') cws.push(99);
        set = 'C';
      } else if (code === '6') {
        if (set !== 'B') cws.push(100);
        set = 'B';
      } else if (code === '7') {
        if (set !== 'A') cws.push(101);
        set = 'A';
      } else if (code === '8') cws.push(102);
      else if (code === '<' && set !== 'C') cws.push(30);
      else throw new Error(`Code 128 invocation >${code} in subset ${set} is not drawn`);
      continue;
    }
    if (set === 'C') {
      const pair = data.slice(i, i + 2);
      if (!/^\d\d$/.test(pair)) throw new Error('Code 128 subset C data that is not digit pairs');
      cws.push(Number(pair));
      i += 2;
      continue;
    }
    const code = c.charCodeAt(0);
    if (set === 'B' && code >= 32 && code <= 127) cws.push(code - 32);
    else if (set === 'A' && code >= 32 && code <= 95) cws.push(code - 32);
    else if (set === 'A' && code < 32) cws.push(code + 64);
    else throw new Error(`a character ${code} Code 128 subset ${set} cannot carry`);
    i++;
  }
  return cws;
}

/** What a human reads under a Code 128: the data without its invocation codes. */
function code128Readable(data: string): string {
  return data.replace(/>[0-9:;=]/g, '').replace(/></g, '>');
}

type Sym = { sbs: number[] } | { pixs: number[]; pixx: number; pixy: number };

type Encoded = { kind: 'bars'; runs: number[]; wideFromRatio: boolean } | { kind: 'matrix'; cols: number; rows: number; pixs: number[] };

function encode(field: ZplBarcodeField): { enc: Encoded; readable: string | null } {
  const p = field.params;
  const data = field.data;
  // BWIPP options as its option string ("eclevel=M columns=5"): the symbology's own options are not in bwip-js's types.
  const raw = (bcid: string, text: string, opts: string[] = []): Sym => {
    const [sym] = bwipjs.raw(bcid, text, opts.join(' '));
    if (!sym) throw new Error(`bwip-js drew nothing for ${bcid}`);
    return sym;
  };
  const bars = (sym: Sym, wideFromRatio: boolean): Encoded => {
    if (!('sbs' in sym)) throw new Error('bwip-js gave no bars');
    return { kind: 'bars', runs: sym.sbs, wideFromRatio };
  };
  const matrix = (sym: Sym): Encoded => {
    if (!('pixs' in sym)) throw new Error('bwip-js gave no modules');
    return { kind: 'matrix', cols: sym.pixx, rows: sym.pixy, pixs: sym.pixs };
  };
  const yes = (v: string | undefined, dflt: boolean): boolean => (v?.trim() ? v.trim().toUpperCase() === 'Y' : dflt);
  switch (field.name) {
    case 'BC': {
      // ^BCo,h,f,g,e,m: f interpretation line (Y), e UCC check digit, m mode (N, U, A, D).
      const mode = (p[5]?.trim() || 'N').toUpperCase();
      if (!['N', 'A', 'D'].includes(mode)) throw new Error(`Code 128 mode ${mode} is not drawn`);
      if (yes(p[4], false)) throw new Error('Code 128 with a UCC check digit is not drawn');
      const sym =
        mode === 'N'
          ? raw('code128', code128Codewords(data).map((cw) => `^${String(cw).padStart(3, '0')}`).join(''), ['raw'])
          : raw('code128', code128Text(data, mode === 'A' ? 'A' : 'D'), ['parsefnc']);
      return { enc: bars(sym, false), readable: yes(p[2], true) ? code128Readable(data) : null };
    }
    case 'B3': {
      // ^B3o,e,h,f,g: e Mod-43 check digit.
      const sym = raw('code39', data, yes(p[1], false) ? ['includecheck'] : []);
      return { enc: bars(sym, true), readable: yes(p[3], true) ? `*${data}*` : null };
    }
    case 'B2': {
      // ^B2o,h,f,g,e: e Mod-10 check digit; ITF carries digits only.
      const digits = data.replace(/>[0-9:;]/g, '');
      if (!/^\d+$/.test(digits)) throw new Error('ITF data that is not digits');
      const sym = raw('interleaved2of5', digits, yes(p[4], false) ? ['includecheck'] : []);
      return { enc: bars(sym, true), readable: yes(p[2], true) ? digits : null };
    }
    case 'BE': {
      const sym = raw('ean13', data.trim());
      return { enc: bars(sym, false), readable: yes(p[2], true) ? data.trim() : null };
    }
    case 'B7': {
      // ^B7o,h,s,c,r,t: s security level (0 = auto), c columns, r rows, t truncated.
      const opts = ['rowmult=1'];
      const s = num(p[2]);
      const c = num(p[3]);
      const r = num(p[4]);
      if (s) opts.push(`eclevel=${s}`);
      if (c) opts.push(`columns=${c}`);
      if (r) opts.push(`rows=${r}`);
      return { enc: matrix(raw(yes(p[5], false) ? 'pdf417compact' : 'pdf417', data, opts)), readable: null };
    }
    case 'BQ': {
      // ^BQo,b,c,d,e: b model (2), c magnification; the data starts "<EC level><input mode>,".
      if ((num(p[1]) ?? 2) !== 2) throw new Error('QR model 1 is not drawn');
      const m = /^([HQML])A,([\s\S]*)$/.exec(data);
      if (!m) throw new Error('QR data not in automatic mode ("<H|Q|M|L>A,…")');
      return { enc: matrix(raw('qrcode', m[2]!, [`eclevel=${m[1]!}`])), readable: null };
    }
    case 'BO': {
      // ^BOa,b,c,d,e,f,g: c extended channel, d error control and size, e menu, f structured append.
      if (yes(p[2], false) || yes(p[4], false) || (num(p[5]) ?? 1) > 1) throw new Error('Aztec with ECI, menu or structured append is not drawn');
      // The symbol the printer takes for d (zpl-aztec.ts); bwip-js is given its format and layers, and the
      // lowest error-control margin it accepts (5 %) so it never refuses that size: every word the data
      // leaves is a check word either way.
      const s = aztecSymbol(data, num(p[3]) ?? 0);
      const sym = s.format === 'rune' ? raw('aztecrune', data) : raw('azteccode', data, [`format=${s.format}`, `layers=${s.layers}`, 'eclevel=5']);
      return { enc: matrix(sym), readable: null };
    }
    default:
      throw new Error(`^${field.name} is not drawn as a graphic`);
  }
}

/**
 * The width of a Code 128 or EAN-13 field in modules, as the printer encodes it (quiet zones not counted).
 * @throws Error as {@link barcodeGraphic} for what cannot be encoded
 */
export function linearModules(field: ZplBarcodeField): number {
  if (field.name !== 'BC' && field.name !== 'BE') throw new Error(`^${field.name} has no fixed module count`);
  const { enc } = encode(field);
  if (enc.kind !== 'bars') throw new Error('not a linear symbol');
  return enc.runs.reduce((a, b) => a + b, 0);
}

function blank(width: number, height: number): ZplBitmap {
  const bytesPerRow = Math.ceil(width / 8);
  return { bytesPerRow, height, bits: new Uint8Array(bytesPerRow * height) };
}

function set(bm: ZplBitmap, x: number, y: number): void {
  bm.bits[y * bm.bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
}

function get(bm: ZplBitmap, x: number, y: number): boolean {
  return (bm.bits[y * bm.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;
}

/** Turns an upright bitmap to a ZPL orientation: R 90° clockwise, I 180°, B 270°. */
function orient(bm: ZplBitmap, width: number, o: string): { bm: ZplBitmap; width: number } {
  if (o === 'N') return { bm, width };
  const h = bm.height;
  const out = o === 'I' ? blank(width, h) : blank(h, width);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < width; x++) {
      if (!get(bm, x, y)) continue;
      if (o === 'R') set(out, h - 1 - y, x);
      else if (o === 'I') set(out, width - 1 - x, h - 1 - y);
      else set(out, y, width - 1 - x);
    }
  return { bm: out, width: o === 'I' ? width : h };
}

/**
 * Draws a barcode field at its true size on the target head.
 * @returns the `^GF` parameters (after `^GF`: `A,n,n,bytesPerRow,:Z64:…`), the graphic's size in dots and the human-readable line
 * @throws Error naming what cannot be drawn (symbology, mode, data bwip-js refuses); the caller keeps the barcode command
 */
export function barcodeGraphic(field: ZplBarcodeField, delimiter = ','): ZplBarcodeGraphic {
  const f = field.factor;
  const p = field.params;
  const o = (p[0]?.trim() || field.defaultOrientation || 'N').toUpperCase();
  if (!'NRIB'.includes(o) || o.length !== 1) throw new Error(`orientation ${o}`);
  const { enc, readable } = encode(field);
  let bm: ZplBitmap;
  let width: number;
  if (enc.kind === 'bars') {
    const narrow = targetModule(field.by.moduleDots, f);
    // Code 39 and ITF: wide elements at the ^BY ratio of the carrier's narrow bar, in whole dots.
    const wide = Math.max(narrow * 2, Math.round(field.by.moduleDots * field.by.ratio * f));
    const hIndex = field.name === 'B3' ? 2 : 1;
    const height = Math.max(1, Math.round((num(p[hIndex]) ?? field.by.heightDots) * f));
    const widths = enc.runs.map((r) => (enc.wideFromRatio ? (r > 1 ? wide : narrow) : r * narrow));
    width = widths.reduce((a, b) => a + b, 0);
    bm = blank(width, height);
    let x = 0;
    widths.forEach((w, i) => {
      if (i % 2 === 0) for (let k = x; k < x + w; k++) for (let y = 0; y < height; y++) set(bm, k, y);
      x += w;
    });
  } else {
    const module = targetModule(field.name === 'BQ' ? num(p[2])! : field.name === 'BO' ? num(p[1])! : field.by.moduleDots, f);
    // PDF417 rows are ^B7's h dots high (the carrier's); QR and Aztec modules are square.
    const rowH = field.name === 'B7' ? Math.max(1, Math.round((num(p[1]) ?? field.by.moduleDots * 3) * f)) : module;
    width = enc.cols * module;
    bm = blank(width, enc.rows * rowH);
    for (let r = 0; r < enc.rows; r++)
      for (let c = 0; c < enc.cols; c++) {
        if (!enc.pixs[r * enc.cols + c]) continue;
        for (let y = r * rowH; y < (r + 1) * rowH; y++) for (let x = c * module; x < (c + 1) * module; x++) set(bm, x, y);
      }
  }
  const turned = orient(bm, width, o);
  const n = turned.bm.bits.length;
  const d = delimiter;
  return {
    gf: `A${d}${n}${d}${n}${d}${turned.bm.bytesPerRow}${d}${z64(turned.bm)}`,
    width: turned.width,
    height: turned.bm.height,
    text: readable !== null && !/[\^~]/.test(readable) ? { value: readable, heightDots: Math.max(8, Math.round(18 * f)), orientation: o } : null,
  };
}
