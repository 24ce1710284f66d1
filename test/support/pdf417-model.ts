/**
 * PDF417 as a Zebra printer draws it, for the real-label proof of issue 23.
 *
 * The offline renderer (zpl-renderer-js 3.4, zebrash compiled to
 * WebAssembly) draws every `^B7` symbol at 2-dot modules whatever `^BY`
 * says: its PDF417 encoder takes no module width (zebrash
 * `internal/barcodes/pdf417` `Encode(data, securityLevel, rowHeight,
 * columns)` scales the symbol by a fixed 2 across) and the package has no
 * option for it (its API takes the ZPL, the label size and the dots per mm
 * only). A printer honours `^BY`. So on a label scaled to a 300 or 600 dpi
 * head, where the station sends `^BY3` or `^BY6` for the carrier's `^BY2`,
 * the renderer's PDF417 is a third or two thirds too narrow although the
 * printer would draw it right.
 *
 * This model draws each `^B7` field instead: bwip-js (BWIPP) encodes the
 * field data with the field's own parameters — security level `s` (0 when
 * absent: error detection only), columns `c`, rows `r`, truncated `t` — and
 * the symbol is laid out at the `^BY` module width in force and rows `h`
 * dots high (`^BY` height ÷ rows when `h` is absent), then placed
 * as an ASCII-hex `^GF` at the field's `^FO` on a label that holds that
 * field alone with the format's own commands (`^LH`, `^PW`, …), rendered by
 * the same engine at the head's dots and decoded by ZXing like every other
 * symbol. The same model is applied to the carrier's original at 203 dpi and
 * to what the station sends at the target, so the sizes compare like with
 * like; the renderer's own PDF417s are not counted.
 *
 * Rows `h` dots high is how the station scales `^B7` (zpl-scale.ts: `h` is a
 * size) and how the renderer and the carriers' layouts read it: FedEx leaves
 * 269 dots between the rules around its ~16-row symbol at `^BY2`,
 * `^B7N,10`. The ZPL II guide says instead "this number multiplied by the
 * module equals the height of the individual rows in dots", which would make
 * the rows twice as tall at 203 dpi and the symbol overlap the rule under
 * it; only a printer can settle it (build/MANUAL-CHECKS.md, step 5).
 *
 * Orientations other than N and fields placed by `^FT` are refused, naming
 * the field (no corpus label has one).
 */
import bwipjs from 'bwip-js/node';
import { renderZplStream } from '../../electron/core/printing/zpl/preview';
import { lexZpl, type ZplToken } from '../../electron/core/printing/zpl/zpl-lexer';
import { measurePng, type MeasuredBarcode } from './label-barcodes';

const num = (s: string | undefined): number | null => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(s ?? '');
  return m ? Number(m[1]) : null;
};

/** `^FH` escapes decoded: the indicator and two hex digits are that byte. */
function unescape(data: string, indicator: string | null): string {
  if (indicator === null) return data;
  let out = '';
  for (let i = 0; i < data.length; i++) {
    const hex = data.slice(i + 1, i + 3);
    if (data[i] === indicator && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else out += data[i];
  }
  return out;
}

/** The `^GF` parameters (ASCII hex) of a PDF417 drawn at `module` dots across and `rowH` dots a row (`rowH` null: `byHeight` ÷ rows). */
function pdf417Graphic(data: string, params: string[], module: number, rowH: number | null, byHeight: number): string {
  const opts = ['rowmult=1', `eclevel=${num(params[2]) ?? 0}`];
  const c = num(params[3]);
  const r = num(params[4]);
  if (c) opts.push(`columns=${c}`);
  if (r) opts.push(`rows=${r}`);
  const truncated = (params[5]?.trim() ?? '').toUpperCase() === 'Y';
  const [sym] = bwipjs.raw(truncated ? 'pdf417compact' : 'pdf417', data, opts.join(' '));
  if (!sym || !('pixs' in sym)) throw new Error('bwip-js drew no PDF417');
  const h = rowH ?? Math.max(1, Math.round(byHeight / sym.pixy));
  const width = sym.pixx * module;
  const bytesPerRow = Math.ceil(width / 8);
  const rows: string[] = [];
  for (let r0 = 0; r0 < sym.pixy; r0++) {
    const bytes = new Uint8Array(bytesPerRow);
    for (let c0 = 0; c0 < sym.pixx; c0++) {
      if (!sym.pixs[r0 * sym.pixx + c0]) continue;
      for (let x = c0 * module; x < (c0 + 1) * module; x++) bytes[x >> 3]! |= 0x80 >> (x & 7);
    }
    const hex = Buffer.from(bytes).toString('hex').toUpperCase();
    for (let k = 0; k < h; k++) rows.push(hex);
  }
  const total = bytesPerRow * rows.length;
  return `A,${total},${total},${bytesPerRow},${rows.join('')}`;
}

/** Each `^B7` field of a stream as a label of its own: the format's commands, then the field drawn as `^GF` (see the file's comment). */
function pdf417Alone(zpl: string): string[] {
  const labels: string[] = [];
  let format: string[] = [];
  let field: ZplToken[] = [];
  let by = { module: 2, height: 10 };
  let fw = 'N';
  for (const t of lexZpl(zpl)) {
    const n = t.kind === 'command' ? t.name : '';
    if (n === 'XA') {
      format = [t.raw];
      field = [];
      by = { module: 2, height: 10 };
      continue;
    }
    field.push(t);
    if (n === 'BY' && !t.control) {
      const p = t.params.split(t.delimiter);
      by = { module: num(p[0]) ?? by.module, height: num(p[2]) ?? by.height };
    }
    const b7 = field.find((f) => f.kind === 'command' && f.name === 'B7');
    if (n !== 'FS' && n !== 'XZ') {
      if (n === 'FW' && !t.control && !b7) fw = (t.params.trim()[0] ?? 'N').toUpperCase();
      continue;
    }
    const isField = field.some((f) => f.kind === 'command' && /^(FO|FT|FD|FV)$/.test(f.name));
    if (!isField) format.push(...field.map((f) => f.raw));
    else if (b7) {
      const params = b7.params.split(b7.delimiter);
      const o = (params[0]?.trim()[0] ?? fw).toUpperCase();
      const fo = field.find((f) => f.kind === 'command' && (f.name === 'FO' || f.name === 'FT'));
      if (o !== 'N' || fo?.name !== 'FO') throw new Error(`PDF417 model: ^B7 turned ${o} or placed by ^${fo?.name ?? 'nothing'} is not drawn`);
      const fh = [...field].reverse().find((f) => f.kind === 'command' && f.name === 'FH');
      const fd = field.find((f) => f.kind === 'command' && f.name === 'FD');
      const data = unescape((fd?.params ?? '').replace(/[\r\n]/g, ''), fh ? fh.params.trim()[0] ?? '_' : null);
      const h = num(params[1]);
      const gf = pdf417Graphic(data, params, by.module, h, by.height);
      labels.push(`${format.join('')}${fo.raw}${fo.prefix}GF${gf}${fo.prefix}FS${fo.prefix}XZ`);
    }
    for (const f of field) if (f.kind === 'command' && f.name === 'FW' && !f.control) fw = (f.params.trim()[0] ?? 'N').toUpperCase();
    field = [];
  }
  return labels;
}

/** The PDF417 symbols of `zpl` as a printer draws them (see the file's comment), each rendered alone at `dpmm` and measured. */
export async function measurePdf417s(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<MeasuredBarcode[]> {
  const out: MeasuredBarcode[] = [];
  const dpi = dpmm === 24 ? 600 : dpmm === 12 ? 300 : 203;
  for (const one of pdf417Alone(zpl)) {
    for (const png of await renderZplStream(one, dpi, widthMm, heightMm)) out.push(...(await measurePng(png, dpmm)).filter((b) => b.format === 'PDF417'));
  }
  return out;
}
