/**
 * The A4 packing slip (issue 11) read back from the PDF: the text a person
 * reads (shop, order, date, recipient, lines, notes, tracking number) and the
 * Code 128 bars; a long order continues on a second page with the header.
 */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfSlip } from '../../../../electron/core/slips/pdf';
import type { SlipContent } from '../../../../electron/core/slips/content';
import { pageOperators, pageText } from '../../sandbox/labels/fixtures';
import { code128Bars } from '../../../../shared/pdf/drawing';
import { pdfTextItems } from '../../../support/pdf-text';

const content: SlipContent = {
  shopName: 'Bottega Verdi',
  orderNumber: '#1001',
  date: '25/11/2026',
  recipient: ['Niccolò Società', 'Via Roma 12', '47121 Forlì (FC)', 'IT'],
  lines: [
    { sku: 'TAZ-1', title: 'Tazza grande — fatta a mano', quantity: 2 },
    { sku: '', title: 'Piattino', quantity: 1 },
  ],
  notes: 'Lasciare al portiere',
  trackingNumber: '1234567890123',
  deliveryPoint: null,
  language: 'en',
};

describe('A4 packing slip', () => {
  it('one A4 page with the text and the order number as bars', async () => {
    const doc = await PDFDocument.load(await pdfSlip(content));
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    const text = pageText(doc, 0);
    for (const s of ['Bottega Verdi', 'Order #1001', 'Packing slip - 25/11/2026', 'Ship to', 'Niccolò Società', '47121 Forlì (FC)', 'TAZ-1', 'Tazza grande — fatta a mano', 'Piattino', '2 lines, 3 pieces', 'Notes: Lasciare al portiere', 'Tracking number 1234567890123'])
      expect(text).toContain(s);
    // Shop name, order number and date on lines of their own (a slip printed once had them on top of each other).
    const ys = new Map([...pageOperators(doc, 0).matchAll(/1 0 0 1 [\d.]+ ([\d.]+) Tm\s*<([0-9A-Fa-f]*)> Tj/g)].map((m) => [Buffer.from(m[2]!, 'hex').toString('latin1'), Number(m[1])]));
    expect(ys.get('Bottega Verdi')! - ys.get('Order #1001')!).toBeGreaterThanOrEqual(14);
    expect(ys.get('Order #1001')! - ys.get('Packing slip - 25/11/2026')!).toBeGreaterThanOrEqual(11);
    // Every bar of the Code 128 of "#1001" (pdf-lib draws each as a filled path, `m l l l h f`).
    expect(pageOperators(doc, 0).match(/\nh\nf\n/g)?.length).toBe(code128Bars('#1001').length);
  });

  it('names the pickup point the parcel goes to, in the bench language (issue 24 item 7)', async () => {
    const point = 'Edicola Rossi, Via Garibaldi 50, 20123 Milano';
    const en = pageText(await PDFDocument.load(await pdfSlip({ ...content, deliveryPoint: point })), 0);
    expect(en).toContain(`Deliver to pickup point: ${point}`);
    const it = (await pdfTextItems(await pdfSlip({ ...content, deliveryPoint: point, language: 'it' }))).flat().join('\n');
    expect(it).toContain(`Consegna al punto di ritiro: ${point}`);
    expect(pageText(await PDFDocument.load(await pdfSlip(content)), 0)).not.toContain('pickup point');
  });

  it('a long order goes on to more pages, each with the order number', async () => {
    const many = { ...content, lines: Array.from({ length: 80 }, (_, i) => ({ sku: `SKU-${i + 1}`, title: `Item ${i + 1}`, quantity: 1 })) };
    const doc = await PDFDocument.load(await pdfSlip(many));
    expect(doc.getPageCount()).toBeGreaterThan(1);
    const all = Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i));
    for (const t of all) expect(t).toContain('Order #1001');
    expect(all.join('\n')).toContain('SKU-80');
    expect(all.at(-1)).toContain('80 lines, 80 pieces');
  });

  it('on an Italian bench reads back (pdf.js) in Italian, with no English word left', async () => {
    const many = { ...content, language: 'it' as const, lines: [...content.lines, ...Array.from({ length: 60 }, (_, i) => ({ sku: `TAZ-${i + 2}`, title: `Tazza ${i + 2}`, quantity: 1 }))] };
    const pages = await pdfTextItems(await pdfSlip(many));
    expect(pages.length).toBeGreaterThan(1);
    const text = pages.map((p) => p.join('\n')).join('\n');
    for (const s of ['Ordine #1001', 'Lista di imballo - 25/11/2026', 'Destinatario', 'Q.tà', 'Codice', 'Articolo', '62 righe, 63 pezzi', 'Note: Lasciare al portiere', 'Numero di spedizione (LDV) 1234567890123'])
      expect(text).toContain(s);
    for (const p of pages) expect(p).toContain('Ordine #1001');
    // The slip's own words: none of the English ones (the order's own texts are Italian here).
    const english = /\b(?:Order|Packing|slip|Ship|to|Qty|SKU|Item|lines?|pieces?|Notes|Tracking|number)\b/;
    const own = text.split('\n').filter((l) => !/^TAZ-\d+$/.test(l));
    expect(own.filter((l) => english.test(l))).toEqual([]);
  });

  it('plural forms by the language: 1 riga, 1 pezzo / 1 line, 1 piece', async () => {
    const one = { ...content, lines: [{ sku: '', title: 'Vaso', quantity: 1 }] };
    expect((await pdfTextItems(await pdfSlip({ ...one, language: 'it' })))[0]).toContain('1 riga, 1 pezzo');
    expect((await pdfTextItems(await pdfSlip({ ...one, language: 'en' })))[0]).toContain('1 line, 1 piece');
  });
});
