/** Label and manifest inputs for the label tests (Italian addresses with accents). */
import type { LabelData, ManifestPdfData } from '../../../../electron/sandbox/labels';
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream, type PDFObject } from 'pdf-lib';

export function label(parcelNumber = 1, parcelCount = 1, extra: Partial<LabelData> = {}): LabelData {
  return {
    trackingNumber: `90000000000${parcelNumber}`,
    shipmentTrackingNumber: '900000000001',
    carrierCode: 'BRT',
    carrierName: 'BRT Corriere Espresso',
    serviceName: 'BRT Express Nazionale',
    sender: { name: 'Ferramenta Rossi S.r.l.', street: "Via dell'Artigianato 12", city: 'Forlì', province: 'FC', postalCode: '47122', countryCode: 'IT', phone: '+39 0543 123456' },
    recipient: { name: 'Niccolò Pellegrini', company: 'Caffè Società Coop.', street: 'Corso Vittorio Emanuele II 145', city: 'Cefalù', province: 'PA', postalCode: '90015', countryCode: 'IT', phone: '333 1234567' },
    parcelNumber,
    parcelCount,
    weightKg: 2.5,
    reference: 'ORD-1042',
    createdAt: '2026-09-14T08:22:00Z',
    ...extra,
  };
}

export function parcels(n: number, extra: Partial<LabelData> = {}): LabelData[] {
  return Array.from({ length: n }, (_, i) => label(i + 1, n, extra));
}

export function manifest(rows: number): ManifestPdfData {
  const shipments = Array.from({ length: rows }, (_, i) => ({
    trackingNumber: String(100000000000 + i),
    reference: `ORD-${1000 + i}`,
    recipientName: `Cliente ${i} Società`,
    city: i % 2 ? 'Forlì' : 'Roma',
    countryCode: 'IT',
    parcels: 1 + (i % 3),
    weightKg: 1.5,
    codAmount: i % 4 === 0 ? 20 : undefined,
    cost: 7,
  }));
  return {
    manifestId: 5012,
    carrierName: 'BRT Corriere Espresso',
    contractName: 'BRT Express Nazionale',
    contractCode: 'BRT-EXP-IT',
    createdAt: '2026-09-14T16:05:00Z',
    sender: label().sender,
    shipments,
    totalCost: rows * 7,
    currency: 'EUR',
  };
}

/** A page's content streams, decoded (Flate) and concatenated, as PDF operator text. */
export function pageOperators(doc: PDFDocument, index: number): string {
  const page = doc.getPage(index);
  const contents: PDFObject | undefined = page.node.Contents();
  const parts = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  let ops = '';
  for (const p of parts) {
    if (p instanceof PDFRawStream) ops += `${Buffer.from(decodePDFRawStream(p).decode()).toString('latin1')}\n`;
  }
  return ops;
}

/** Filled rectangles (`x y w h re`, PDF points, bottom-left origin) on a page. */
export function pageRectangles(doc: PDFDocument, index: number): Array<{ x: number; y: number; w: number; h: number }> {
  const n = String.raw`(-?[\d.]+)`;
  return [...pageOperators(doc, index).matchAll(new RegExp(`${n} ${n} ${n} ${n} re`, 'g'))].map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }));
}

/**
 * Text drawn on a page by pdf-lib with a standard font: the hex strings of the
 * page's `Tj` operators, decoded as WinAnsi (windows-1252), joined by newlines.
 */
export function pageText(doc: PDFDocument, index: number): string {
  const ops = pageOperators(doc, index);
  const dec = new TextDecoder('windows-1252');
  return [...ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) => dec.decode(Buffer.from(m[1] ?? '', 'hex'))).join('\n');
}
