/**
 * The manifest PDF (spec: Manifests, "close the day"; in Italy the "distinta
 * di affidamento"): an A4 list of one contract's shipments handed to the
 * driver, with totals and signature boxes, spread over as many pages as needed
 * with the header and column titles repeated on each.
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { embedFonts, fitToWidth, type Fonts } from '../../../shared/pdf/drawing';
import { countedNoun } from '../../../shared/print/plural';
import { pdfText } from '../../../shared/print/text';
import { cityLine, cleanText, formatAmount, formatDateTime, formatMoney } from './text';
import { validateManifest, type ManifestPdfData } from './types';

/** A4 portrait in PDF points. */
const A4_PT = { width: 595.28, height: 841.89 } as const;

const MARGIN = 30;
const ROW_H = 15;
const FONT_SIZE = 7.5;
const GREY = rgb(0.92, 0.92, 0.92);
const BLACK = rgb(0, 0, 0);

interface Column {
  title: string;
  width: number;
  align: 'L' | 'R';
  value: (s: ManifestPdfData['shipments'][number], i: number) => string;
}

const COLUMNS: Column[] = [
  { title: '#', width: 20, align: 'R', value: (_s, i) => String(i + 1) },
  { title: 'LDV / Tracking', width: 76, align: 'L', value: (s) => s.trackingNumber },
  { title: 'Rif. / Ref.', width: 70, align: 'L', value: (s) => s.reference ?? '' },
  { title: 'Destinatario / Recipient', width: 108, align: 'L', value: (s) => s.recipientName },
  { title: 'Città / City', width: 82, align: 'L', value: (s) => s.city },
  { title: 'Naz.', width: 24, align: 'L', value: (s) => s.countryCode.toUpperCase() },
  { title: 'Colli', width: 26, align: 'R', value: (s) => String(s.parcels) },
  { title: 'Peso kg', width: 38, align: 'R', value: (s) => formatAmount(s.weightKg) },
  { title: 'Contrass.', width: 48, align: 'R', value: (s) => (s.codAmount ? formatAmount(s.codAmount) : '') },
  { title: 'Costo', width: 43, align: 'R', value: (s) => formatAmount(s.cost) },
];
const TABLE_W = COLUMNS.reduce((a, c) => a + c.width, 0);

class Writer {
  constructor(
    readonly page: PDFPage,
    readonly fonts: Fonts,
  ) {}
  /** Text with its top at `top` (points from the page top). */
  text(s: string, x: number, top: number, size: number, o: { bold?: boolean; maxWidth?: number; align?: 'L' | 'R' | 'C'; width?: number } = {}): void {
    const font = o.bold ? this.fonts.bold : this.fonts.regular;
    let t = pdfText(cleanText(s), this.fonts.charset);
    if (o.maxWidth) t = fitToWidth(t, font, size, o.maxWidth, '…');
    const w = font.widthOfTextAtSize(t, size);
    const box = o.width ?? 0;
    const dx = o.align === 'R' ? box - w : o.align === 'C' ? (box - w) / 2 : 0;
    this.page.drawText(t, { x: x + dx, y: this.page.getHeight() - top - size * 0.8, size, font, color: BLACK });
  }
  rect(x: number, top: number, w: number, h: number, o: { fill?: ReturnType<typeof rgb>; border?: number } = {}): void {
    this.page.drawRectangle({
      x,
      y: this.page.getHeight() - top - h,
      width: w,
      height: h,
      ...(o.fill ? { color: o.fill } : {}),
      ...(o.border ? { borderColor: BLACK, borderWidth: o.border } : {}),
    });
  }
  line(x1: number, top: number, x2: number, width = 0.5): void {
    const y = this.page.getHeight() - top;
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness: width, color: BLACK });
  }
}

/** Draws the page header and column titles; returns the top of the first row. */
function header(w: Writer, d: ManifestPdfData): number {
  let top = MARGIN;
  w.text('DISTINTA DI AFFIDAMENTO / MANIFEST', MARGIN, top, 15, { bold: true });
  w.text(`N. ${d.manifestId}`, MARGIN, top, 15, { bold: true, align: 'R', width: TABLE_W });
  top += 22;
  w.text(`Vettore / Carrier: ${d.carrierName}`, MARGIN, top, 9, { bold: true, maxWidth: 260 });
  w.text(`Data / Date: ${formatDateTime(d.createdAt)}`, MARGIN, top, 9, { align: 'R', width: TABLE_W });
  top += 13;
  // The contract code may be an encrypted reseller code: the paper names the contract only.
  w.text(`Contratto / Contract: ${d.contractName}`, MARGIN, top, 9, { maxWidth: TABLE_W });
  top += 13;
  const s = d.sender;
  const senderLine = [s.company, s.name, s.street, s.street2, `${cityLine(s)} ${s.countryCode.toUpperCase()}`, s.phone ? `Tel. ${s.phone}` : '']
    .map((x) => cleanText(x))
    .filter(Boolean)
    .join(' - ');
  w.text(`Mittente / Sender: ${senderLine}`, MARGIN, top, 9, { maxWidth: TABLE_W });
  top += 18;
  // Column titles.
  w.rect(MARGIN, top, TABLE_W, ROW_H + 2, { fill: GREY });
  let x = MARGIN;
  for (const c of COLUMNS) {
    w.text(c.title, x + 2, top + 4, FONT_SIZE, { bold: true, maxWidth: c.width - 4, align: c.align, width: c.width - 4 });
    x += c.width;
  }
  top += ROW_H + 2;
  w.line(MARGIN, top, MARGIN + TABLE_W, 1);
  return top;
}

function row(w: Writer, d: ManifestPdfData, i: number, top: number): void {
  const s = d.shipments[i];
  if (!s) return;
  if (i % 2 === 1) w.rect(MARGIN, top, TABLE_W, ROW_H, { fill: rgb(0.97, 0.97, 0.97) });
  let x = MARGIN;
  for (const c of COLUMNS) {
    w.text(c.value(s, i), x + 2, top + 4, FONT_SIZE, { maxWidth: c.width - 4, align: c.align, width: c.width - 4, bold: c.title.startsWith('LDV') });
    x += c.width;
  }
  w.line(MARGIN, top + ROW_H, MARGIN + TABLE_W, 0.25);
}

/** Height of the totals block plus the signature boxes, in points. */
const CLOSING_H = 190;

function closing(w: Writer, d: ManifestPdfData, top: number): void {
  const parcels = d.shipments.reduce((a, s) => a + s.parcels, 0);
  const weight = d.shipments.reduce((a, s) => a + s.weightKg, 0);
  const cod = d.shipments.reduce((a, s) => a + (s.codAmount ?? 0), 0);
  w.rect(MARGIN, top + 6, TABLE_W, 34, { border: 1 });
  const cells: Array<[string, string]> = [
    ['Spedizioni / Shipments', String(d.shipments.length)],
    ['Colli / Parcels', String(parcels)],
    ['Peso / Weight', `${formatAmount(weight)} kg`],
    ['Contrassegni / COD', formatMoney(cod, d.currency)],
    ['Totale costo / Total cost', formatMoney(d.totalCost, d.currency)],
  ];
  const cw = TABLE_W / cells.length;
  cells.forEach(([label, value], i) => {
    w.text(label, MARGIN + i * cw + 6, top + 11, 7);
    w.text(value, MARGIN + i * cw + 6, top + 22, 11, { bold: true, maxWidth: cw - 10 });
  });
  let y = top + 52;
  w.text(
    `Il vettore dichiara di aver ricevuto in consegna ${countedNoun('it', d.shipments.length, 'spedizione', 'spedizioni')} per un totale di ${countedNoun('it', parcels, 'collo', 'colli')}. / The carrier acknowledges receipt of ${countedNoun('en', d.shipments.length, 'shipment', 'shipments')}, ${countedNoun('en', parcels, 'parcel', 'parcels')} in total.`,
    MARGIN,
    y,
    7.5,
    { maxWidth: TABLE_W },
  );
  y += 16;
  const boxW = (TABLE_W - 12) / 2;
  const boxH = 100;
  for (const [i, title] of ['Firma autista / Driver signature', 'Firma mittente / Sender signature'].entries()) {
    const x = MARGIN + i * (boxW + 12);
    w.rect(x, y, boxW, boxH, { border: 1 });
    w.text(title, x + 6, y + 6, 8, { bold: true });
    w.text('Nome / Name', x + 6, y + 30, 7);
    w.line(x + 70, y + 38, x + boxW - 8);
    w.text(i === 0 ? 'Data e ora ritiro / Pickup time' : 'Data / Date', x + 6, y + 52, 7);
    w.line(x + 110, y + 60, x + boxW - 8);
    w.text('Firma / Signature', x + 6, y + 80, 7);
    w.line(x + 70, y + 88, x + boxW - 8);
  }
}

/**
 * Renders the manifest (closing list) of one contract as an A4 PDF: header
 * with manifest id, carrier, contract name (never the code, which may be
 * an encrypted reseller code), date and sender; a table
 * of shipments (tracking number, reference, recipient, city, country, parcels,
 * weight kg, COD, cost); totals (shipments, parcels, weight, COD, cost in
 * `currency`); a receipt line and signature boxes for the driver and the
 * sender; "Pagina n / m" on every page. Long lists continue on further pages.
 *
 * @throws LabelDataError naming the first bad field (e.g. `shipments.3.cost`)
 */
export async function renderManifestPdf(data: ManifestPdfData): Promise<Uint8Array> {
  validateManifest(data);
  const doc = await PDFDocument.create();
  doc.setTitle(`Manifest ${data.manifestId} - ${data.carrierName}`);
  doc.setProducer('Shipping Station sandbox');
  doc.setCreator('Shipping Station sandbox');
  const fonts = await embedFonts(doc);
  const bottom = A4_PT.height - MARGIN - 16; // room for the page number
  const pages: PDFPage[] = [];
  const newPage = (): { w: Writer; top: number } => {
    const page = doc.addPage([A4_PT.width, A4_PT.height]);
    pages.push(page);
    const w = new Writer(page, fonts);
    return { w, top: header(w, data) };
  };
  let { w, top } = newPage();
  if (data.shipments.length === 0) {
    w.text('Nessuna spedizione / No shipments', MARGIN + 4, top + 4, 9);
    top += ROW_H;
  }
  for (let i = 0; i < data.shipments.length; i++) {
    if (top + ROW_H > bottom) ({ w, top } = newPage());
    row(w, data, i, top);
    top += ROW_H;
  }
  if (top + CLOSING_H > bottom) ({ w, top } = newPage());
  closing(w, data, top);
  pages.forEach((p, i) => {
    const pw = new Writer(p, fonts);
    pw.text(`Distinta N. ${data.manifestId} - ${data.carrierName} - ${data.contractName}`, MARGIN, A4_PT.height - MARGIN - 8, 7);
    pw.text(`Pagina ${i + 1} / ${pages.length}`, MARGIN, A4_PT.height - MARGIN - 8, 7, { align: 'R', width: TABLE_W });
  });
  return doc.save();
}
