/**
 * The invoice PDF of GET /invoices/{id}/pdf (spec: Endpoints > "Invoices,
 * credit, COD lists, returns"): one A4 page drawn with pdf-lib from an
 * invoice of the books (finance.ts).
 */
import type { InvoiceRecord } from './finance';
import type { Account } from './model';
import { localIso } from './time';

/**
 * Renders an invoice as a one-page A4 PDF (pdf-lib, Helvetica): issuer,
 * client, number and dates, the lines, subtotal, VAT, total and paid.
 * A proforma says so in its title. Returns the PDF bytes.
 */
export async function renderInvoicePdf(inv: InvoiceRecord, account: Account): Promise<Uint8Array> {
  // Loaded on first use: pdf-lib is not needed to start (issue 15, cold start).
  const [{ PDFDocument, rgb }, { embedFonts }, { pdfText }] = await Promise.all([import('pdf-lib'), import('../../shared/pdf/drawing'), import('../../shared/print/text')]);
  const doc = await PDFDocument.create();
  doc.setTitle(`${inv.proforma ? 'Proforma' : 'Fattura'} ${inv.number}`);
  doc.setCreationDate(inv.issuedAt);
  const fonts = await embedFonts(doc);
  const page = doc.addPage([595.28, 841.89]);
  const safe = (t: string) => pdfText(t, fonts.charset);
  const text = (t: string, x: number, y: number, size = 9, bold = false) => page.drawText(safe(t), { x, y, size, font: bold ? fonts.bold : fonts.regular });
  const right = (t: string, xRight: number, y: number, size = 9, bold = false) => {
    const f = bold ? fonts.bold : fonts.regular;
    page.drawText(safe(t), { x: xRight - f.widthOfTextAtSize(safe(t), size), y, size, font: f });
  };
  const money = (n: number) => `${n.toFixed(2).replace('.', ',')} ${inv.currency}`;
  const wh = account.warehouses.find((w) => w.isDefault) ?? account.warehouses[0];

  text('Piattaforma Spedizioni Sandbox S.r.l.', 40, 790, 12, true);
  text('Ambiente di prova – documento senza valore fiscale', 40, 776, 8);
  text(inv.proforma ? 'FATTURA PROFORMA' : 'FATTURA', 400, 790, 14, true);
  text(`N. ${inv.number}`, 400, 772, 10, true);
  text(`Data ${inv.invoiceDate}`, 400, 758);
  text(`Scadenza ${inv.dueDate}`, 400, 746);

  text('Cliente', 40, 730, 9, true);
  text(account.companyName, 40, 716, 10);
  if (wh) {
    text(wh.address.street, 40, 703);
    text(`${wh.address.postalCode} ${wh.address.city}${wh.address.province ? ` (${wh.address.province})` : ''} – ${wh.address.countryCode}`, 40, 691);
  }

  let y = 650;
  page.drawRectangle({ x: 36, y: y - 4, width: 523, height: 16, color: rgb(0.92, 0.92, 0.92) });
  text('Descrizione', 40, y, 9, true);
  right('Q.tà', 380, y, 9, true);
  right('Prezzo', 470, y, 9, true);
  right('Importo', 555, y, 9, true);
  y -= 18;
  for (const it of inv.items) {
    if (y < 140) {
      text('… (righe successive omesse)', 40, y);
      y -= 14;
      break;
    }
    text(it.description.length > 70 ? `${it.description.slice(0, 69)}…` : it.description, 40, y);
    right(String(it.quantity), 380, y);
    right(money(it.unitPrice), 470, y);
    right(money(it.total), 555, y);
    y -= 14;
  }
  y -= 10;
  page.drawLine({ start: { x: 360, y: y + 8 }, end: { x: 559, y: y + 8 }, thickness: 0.5 });
  for (const [label, value, bold] of [
    ['Imponibile', money(inv.subtotal), false],
    [`IVA ${inv.vatRate}%`, money(inv.vatAmount), false],
    ['Totale', money(inv.total), true],
    ['Pagato', money(inv.paid), false],
  ] as const) {
    text(label, 370, y, 10, bold);
    right(value, 555, y, 10, bold);
    y -= 15;
  }
  text(`Emessa il ${localIso(inv.issuedAt).slice(0, 16).replace('T', ' ')}`, 40, 60, 7);
  return doc.save();
}
