/**
 * Packing slips on A4 (issue 11), drawn with pdf-lib: shop name, order
 * number with its Code 128 (vector bars from bwip-js, as the labels), date,
 * recipient, a table of the lines (quantity, SKU, title), notes, tracking
 * number. Standard Helvetica (WinAnsi): every text goes through
 * {@link pdfText}, so a control character prints as `?` (issue 21) and so
 * does a character the font lacks; any order text can be drawn.
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { code128Bars, embedFonts, fitToWidth } from '../../../shared/pdf/drawing';
import { pdfText, printableText } from '../../../shared/print/text';
import { slipTexts } from '../../../shared/print/slip-texts';
import type { SlipContent } from './content';

/** A4 in PDF points (210 × 297 mm). */
const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 50;

/**
 * The slip as PDF bytes: one A4 page, more when the lines do not fit (the
 * header repeats the order number on each). The order number is drawn as
 * Code 128 when it is printable ASCII (as on the receipt printer), else as
 * text alone; any order text can be drawn, nothing throws on it.
 */
export async function pdfSlip(content: SlipContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const words = slipTexts(content.language);
  doc.setTitle(words.title(printableText(content.orderNumber)));
  doc.setCreator('Shipping Station');
  const fonts = await embedFonts(doc);
  const safe = (s: string) => pdfText(s, fonts.charset);
  const bars = /^[\x20-\x7e]{1,40}$/.test(content.orderNumber) ? code128Bars(content.orderNumber) : [];
  const modules = bars.length ? bars[bars.length - 1]!.x + bars[bars.length - 1]!.w : 1;

  let page: PDFPage = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const text = (s: string, x: number, size: number, bold = false, maxWidth = A4.width - MARGIN - x) => {
    const font = bold ? fonts.bold : fonts.regular;
    page.drawText(fitToWidth(safe(s), font, size, maxWidth), { x, y, size, font, color: rgb(0, 0, 0) });
  };
  const header = () => {
    // Code 128 at the top right, 40 pt tall, at most 1.2 pt a module.
    const m = Math.min(1.2, 200 / modules);
    const x0 = A4.width - MARGIN - modules * m;
    for (const b of bars) page.drawRectangle({ x: x0 + b.x * m, y: y - 30, width: b.w * m, height: 40, color: rgb(0, 0, 0) });
    text(content.shopName, MARGIN, 20, true, 300);
    y -= 22;
    text(words.order(content.orderNumber), MARGIN, 14, true, 300);
    y -= 16;
    text(words.slipOf(content.date), MARGIN, 11, false, 300);
    y -= 30;
  };
  header();
  text(words.shipTo, MARGIN, 11, true);
  y -= 15;
  for (const l of content.recipient) {
    text(l, MARGIN, 11);
    y -= 14;
  }
  y -= 12;
  const row = (qty: string, sku: string, title: string, bold: boolean) => {
    text(qty, MARGIN, 11, bold, 40);
    text(sku, MARGIN + 50, 11, bold, 110);
    text(title, MARGIN + 170, 11, bold);
    y -= 16;
  };
  row(words.quantity, words.sku, words.item, true);
  page.drawLine({ start: { x: MARGIN, y: y + 12 }, end: { x: A4.width - MARGIN, y: y + 12 }, thickness: 0.7 });
  for (const l of content.lines) {
    if (y < MARGIN + 60) {
      page = doc.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
      header();
      row(words.quantity, words.sku, words.item, true);
    }
    row(String(l.quantity), l.sku, l.title, false);
  }
  y -= 8;
  const pieces = content.lines.reduce((n, l) => n + l.quantity, 0);
  text(words.count(content.lines.length, pieces), MARGIN, 11, true);
  y -= 22;
  if (content.notes) {
    text(words.notes(content.notes), MARGIN, 11);
    y -= 18;
  }
  if (content.deliveryPoint) {
    text(words.deliveryPoint(content.deliveryPoint), MARGIN, 11, true);
    y -= 18;
  }
  if (content.trackingNumber) text(words.trackingNumber(content.trackingNumber), MARGIN, 11, true);
  return doc.save();
}
