/**
 * Carrier labels as PDF: one 100 x 150 mm page per parcel (283.46 x 425.2 pt),
 * the same layout as the ZPL ({@link layoutLabel}), drawn with pdf-lib; the
 * Code 128 is a bwip-js PNG embedded at its exact width.
 */
import bwipjs from 'bwip-js/node';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
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

const BLACK = rgb(0, 0, 0);
const WHITE = rgb(1, 1, 1);

/**
 * Keeps only characters the standard font can encode (WinAnsi); pdf-lib throws
 * on anything else, so the rest print as `?`.
 */
export function pdfSafeText(text: string, charset: Set<number>): string {
  let out = '';
  for (const ch of text) out += charset.has(ch.codePointAt(0) ?? 0) ? ch : '?';
  return out;
}

/** Standard fonts of a document and the code points they can encode. */
export interface Fonts {
  bold: PDFFont;
  regular: PDFFont;
  charset: Set<number>;
}

/** Embeds the standard fonts used by labels and the manifest. */
export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [bold, regular] = await Promise.all([doc.embedFont(StandardFonts.HelveticaBold), doc.embedFont(StandardFonts.Helvetica)]);
  return { bold, regular, charset: new Set(regular.getCharacterSet()) };
}

/** Code 128 of `data` as PNG bytes, `module` pixels per module. */
export function code128Png(data: string, module: number): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text: data, scale: module, height: 4, includetext: false, paddingwidth: 0, paddingheight: 0 });
}

async function drawElements(doc: PDFDocument, page: PDFPage, fonts: Fonts, elements: LabelElement[], barcodes: Map<LabelElement, Buffer>): Promise<void> {
  const H = page.getHeight();
  const rect = (x: number, y: number, w: number, h: number, white = false): void => {
    page.drawRectangle({ x: x * K, y: H - (y + h) * K, width: w * K, height: h * K, color: white ? WHITE : BLACK });
  };
  for (const e of elements) {
    if (e.kind === 'box') {
      if (e.t >= Math.min(e.w, e.h)) rect(e.x, e.y, e.w, e.h, e.white);
      else {
        // Border inside the box, as ^GB draws it.
        rect(e.x, e.y, e.w, e.t, e.white);
        rect(e.x, e.y + e.h - e.t, e.w, e.t, e.white);
        rect(e.x, e.y, e.t, e.h, e.white);
        rect(e.x + e.w - e.t, e.y, e.t, e.h, e.white);
      }
    } else if (e.kind === 'text') {
      const font = e.bold ? fonts.bold : fonts.regular;
      const text = pdfSafeText(e.text, fonts.charset);
      let size = e.size * K * SIZE_RATIO;
      const maxW = e.maxWidth * K;
      // Helvetica is wider than the condensed font 0: shrink to the same box.
      const width0 = font.widthOfTextAtSize(text, size);
      if (width0 > maxW) size *= maxW / width0;
      const width = font.widthOfTextAtSize(text, size);
      const x = e.x * K + (e.align === 'C' ? (maxW - width) / 2 : e.align === 'R' ? maxW - width : 0);
      page.drawText(text, { x, y: H - (e.y + e.size * BASELINE_RATIO) * K, size, font, color: e.inverse ? WHITE : BLACK });
    } else {
      const png = barcodes.get(e);
      if (!png) continue;
      const img = await doc.embedPng(png);
      page.drawImage(img, { x: e.x * K, y: H - (e.y + e.height) * K, width: e.modules * e.module * K, height: e.height * K });
    }
  }
}

/**
 * Renders labels as one PDF with one 100 x 150 mm page per parcel, same
 * content and layout as {@link renderLabelsZpl} (sender, recipient, Code 128
 * of the parcel's tracking number with the number below, carrier, service,
 * parcel n/N, weight in kg, reference, COD, date). Text uses Helvetica
 * (WinAnsi: Italian accents and € print; other characters print as `?`).
 *
 * @throws LabelDataError naming the first bad field (`labels.<i>.<field>`)
 */
export async function renderLabelsPdf(labels: LabelData[]): Promise<Uint8Array> {
  validateLabels(labels);
  const doc = await PDFDocument.create();
  doc.setTitle(`Labels ${labels[0]?.shipmentTrackingNumber ?? ''}`);
  doc.setProducer('Shipping Station sandbox');
  doc.setCreator('Shipping Station sandbox');
  const fonts = await embedFonts(doc);
  const layouts = labels.map((l) => layoutLabel(l));
  // Barcode PNGs are independent: make them all at once.
  const barcodes = new Map<LabelElement, Buffer>();
  await Promise.all(
    layouts.flat().map(async (e) => {
      if (e.kind === 'barcode') barcodes.set(e, await code128Png(e.data, e.module));
    }),
  );
  for (const elements of layouts) {
    const page = doc.addPage([LABEL_PAGE_PT.width, LABEL_PAGE_PT.height]);
    await drawElements(doc, page, fonts, elements, barcodes);
  }
  return doc.save();
}
