/**
 * Carrier labels as ZPL II (Zebra ZPL II Programming Guide), one format
 * (`^XA`...`^XZ`) per parcel, 4 x 6 in at 203 or 300 dpi, UTF-8 (`^CI28`).
 */
import { zplFieldData } from '../../../shared/print/text';
import { LABEL_H, LABEL_W, layoutLabel, type LabelElement } from './layout';
import { LabelDataError, validateLabels, type LabelData } from './types';

function elementZpl(e: LabelElement, f: number, pw: number): string {
  const s = (n: number): number => Math.round(n * f);
  switch (e.kind) {
    case 'box': {
      const w = Math.max(1, s(e.w));
      const h = Math.max(1, s(e.h));
      const t = Math.max(1, Math.min(s(e.t), w, h));
      return `^FO${s(e.x)},${s(e.y)}^GB${w},${h},${t}${e.white ? ',W' : ''}^FS\n`;
    }
    case 'text': {
      const { fh, data } = zplFieldData(e.text);
      const size = s(e.size);
      const block = e.align === 'L' ? '' : `^FB${s(e.maxWidth)},1,0,${e.align}`;
      return `^FO${s(e.x)},${s(e.y)}^A0N,${size},${size}${block}${e.inverse ? '^FR' : ''}${fh}^FD${data}^FS\n`;
    }
    case 'barcode': {
      // Bars in whole dots: scale the module, then shrink it if the symbol plus
      // a quiet zone of 10 modules each side would not fit the width.
      const module = Math.max(1, Math.min(Math.round(e.module * f), Math.floor(pw / (e.modules + 20))));
      const x = Math.round((pw - e.modules * module) / 2);
      const h = s(e.height);
      const { fh, data } = zplFieldData(e.data);
      return `^BY${module},3,${h}^FO${x},${s(e.y)}^BCN,${h},N,N,N,A${fh}^FD${data}^FS\n`;
    }
  }
}

/**
 * Renders labels as ZPL II: one `^XA`...`^XZ` format per parcel with `^CI28`
 * (UTF-8, so Italian accents print as is), `^PW`/`^LL` for 4 x 6 in at `dpi`
 * (812 x 1218 dots at 203 dpi, 1200 x 1800 at 300 dpi), `^LH0,0` `^LRN` `^PON`
 * to reset settings a previous format may have left, text in font 0, and the
 * parcel's tracking number as Code 128 (`^BC`, automatic subsets) with the
 * number printed below. Every `^FD` is written by {@link zplFieldData}
 * (shared/print/text.ts): no text of the shipment can start a ZPL command
 * (issue 21). No print-mode or media commands (`^MM`, `^MN`, `~SD`):
 * those stay as set on the printer. Send the result UTF-8 encoded.
 *
 * @param labels one entry per parcel, in print order
 * @param dpi printer resolution, 203 (8 dots/mm, default) or 300 (12 dots/mm)
 * @throws LabelDataError naming the first bad field (`labels.<i>.<field>`) or `dpi`
 */
export function renderLabelsZpl(labels: LabelData[], dpi: 203 | 300 = 203): string {
  if (dpi !== 203 && dpi !== 300) throw new LabelDataError('dpi', 'must be 203 or 300');
  validateLabels(labels);
  const f = dpi / 203;
  const pw = Math.round(LABEL_W * f);
  const ll = Math.round(LABEL_H * f);
  let out = '';
  for (const label of labels) {
    out += `^XA\n^CI28\n^PW${pw}\n^LL${ll}\n^LH0,0\n^LRN\n^PON\n`;
    for (const e of layoutLabel(label)) out += elementZpl(e, f, pw);
    out += '^XZ\n';
  }
  return out;
}
