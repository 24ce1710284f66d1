/**
 * Carrier labels as PDF: one 100 x 150 mm page per parcel (283.46 x 425.2 pt),
 * the same layout as the ZPL ({@link layoutLabel}), drawn with pdf-lib; the
 * Code 128 is drawn as vector bars from bwip-js's encoding.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { code128Bars, embedFonts, type Fonts } from '../../../shared/pdf/drawing';
import { pdfText, printableText } from '../../../shared/print/text';
import { LABEL_W, layoutLabel, type LabelElement } from './layout';
import { validateLabels, type LabelData } from './types';

/** Page size in PDF points: 100 x 150 mm. */
export const LABEL_PAGE_PT = { width: (100 / 25.4) * 72, height: (150 / 25.4) * 72 } as const;

/** PDF points per layout dot (203 dpi dots mapped onto 100 mm width). */
const K = LABEL_PAGE_PT.width / LABEL_W;

// Font 0's cap height is about 0.64 of the ^A0 height and its baseline about
// 0.79 below the field origin; Helvetica's cap height is 0.718 of its size.
const SIZE_RATIO = 0.64 / 0.718;
const BASELINE_RATIO = 0.79;

/** A PDF number to 6 decimals (1e-6 pt: pixel-identical to pdf-lib's full precision), never in exponent form. */
function num(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return r === 0 ? '0' : String(r);
}

/**
 * The page's content stream as PDF operators (ISO 32000-1 8.5, 9.4): filled
 * rectangles (`re f`) and text (`BT Tf Tm Tj ET`), in the layout's order so
 * white boxes and white text land on top of black ones. Written as one string
 * rather than one pdf-lib operator object per number, which was most of the
 * render time.
 */
function pageContent(fontKeys: { bold: string; regular: string }, fonts: Fonts, elements: LabelElement[]): string {
  const H = LABEL_PAGE_PT.height;
  const ops: string[] = [];
  let color = '';
  const fillColor = (white: boolean | undefined): void => {
    const c = white ? '1 1 1 rg' : '0 0 0 rg';
    if (c !== color) ops.push(c);
    color = c;
  };
  // Filled rectangle in layout dots (top-left origin) to PDF points (bottom-left
  // origin). One path per rectangle: renderers snap a lone rectangle's edges
  // to the pixel grid (stroke adjustment) but not a path of several.
  const re = (x: number, y: number, w: number, h: number): string => `${num(x * K)} ${num(H - (y + h) * K)} ${num(w * K)} ${num(h * K)} re f`;
  for (const e of elements) {
    if (e.kind === 'box') {
      fillColor(e.white);
      if (e.t >= Math.min(e.w, e.h)) ops.push(re(e.x, e.y, e.w, e.h));
      else {
        // Border inside the box, as ^GB draws it.
        ops.push(re(e.x, e.y, e.w, e.t), re(e.x, e.y + e.h - e.t, e.w, e.t), re(e.x, e.y, e.t, e.h), re(e.x + e.w - e.t, e.y, e.t, e.h));
      }
    } else if (e.kind === 'text') {
      const font = e.bold ? fonts.bold : fonts.regular;
      const text = pdfText(e.text, fonts.charset);
      let size = e.size * K * SIZE_RATIO;
      const maxW = e.maxWidth * K;
      // Helvetica is wider than the condensed font 0: shrink to the same box.
      const width0 = font.widthOfTextAtSize(text, size);
      if (width0 > maxW) size *= maxW / width0;
      const width = font.widthOfTextAtSize(text, size);
      const x = e.x * K + (e.align === 'C' ? (maxW - width) / 2 : e.align === 'R' ? maxW - width : 0);
      const y = H - (e.y + e.size * BASELINE_RATIO) * K;
      fillColor(e.inverse);
      ops.push(`BT ${e.bold ? fontKeys.bold : fontKeys.regular} ${num(size)} Tf 1 0 0 1 ${num(x)} ${num(y)} Tm ${font.encodeText(text).toString()} Tj ET`);
    } else {
      // Vector bars: sharp at any printer resolution, and no PNG to encode,
      // decode and re-compress. The symbol spans the layout's `modules` x
      // `module` dots even if the encoder's module count differed.
      const bars = code128Bars(e.data);
      const last = bars[bars.length - 1];
      const m = (e.modules * e.module) / (last ? last.x + last.w : 1);
      fillColor(false);
      for (const b of bars) ops.push(re(e.x + b.x * m, e.y, b.w * m, e.height));
    }
  }
  return ops.join('\n');
}

/**
 * Renders labels as one PDF with one 100 x 150 mm page per parcel, same
 * content and layout as {@link renderLabelsZpl} (sender, recipient, Code 128
 * of the parcel's tracking number with the number below, carrier, service,
 * parcel n/N, weight in kg, reference, COD, date). Text uses Helvetica
 * (WinAnsi: Italian accents and € print; other characters print as `?`),
 * every string through {@link pdfText}.
 *
 * @throws LabelDataError naming the first bad field (`labels.<i>.<field>`)
 */
export async function renderLabelsPdf(labels: LabelData[]): Promise<Uint8Array> {
  validateLabels(labels);
  const doc = await PDFDocument.create();
  doc.setTitle(`Labels ${printableText(labels[0]?.shipmentTrackingNumber ?? '')}`);
  doc.setProducer('Shipping Station sandbox');
  doc.setCreator('Shipping Station sandbox');
  const fonts = await embedFonts(doc);
  for (const l of labels) {
    const page = doc.addPage([LABEL_PAGE_PT.width, LABEL_PAGE_PT.height]);
    const fontKeys = { bold: page.node.newFontDictionary(fonts.bold.name, fonts.bold.ref).asString(), regular: page.node.newFontDictionary(fonts.regular.name, fonts.regular.ref).asString() };
    // Node's zlib deflates far faster than pdf-lib's bundled pako.
    const content = deflateSync(Buffer.from(pageContent(fontKeys, fonts, layoutLabel(l)), 'latin1'));
    page.node.addContentStream(doc.context.register(doc.context.stream(content, { Filter: 'FlateDecode' })));
  }
  return doc.save();
}
