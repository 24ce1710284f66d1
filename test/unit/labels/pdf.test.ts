import { PDFDocument, PDFDict, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { LabelDataError, renderLabelsPdf, renderManifestPdf } from '../../../electron/sandbox/labels';
import { label, manifest, pageText, parcels } from './fixtures';

describe('renderLabelsPdf', () => {
  it('makes one 100x150 mm page per parcel that pdf-lib loads back', async () => {
    const labels = parcels(3, { cod: { amount: 45, currency: 'EUR' } });
    const bytes = await renderLabelsPdf(labels);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(3);
    for (const p of doc.getPages()) {
      expect(p.getWidth()).toBeCloseTo(283.46, 1);
      expect(p.getHeight()).toBeCloseTo(425.2, 1);
    }
    labels.forEach((l, i) => {
      const text = pageText(doc, i);
      expect(text).toContain(l.trackingNumber);
      expect(text).toContain('LDV 900000000001');
      expect(text).toContain(`${i + 1}/3`);
      expect(text).toContain('NICCOLÒ PELLEGRINI');
      expect(text).toContain('47122 Forlì (FC) IT');
      expect(text).toContain('CONTRASSEGNO / COD  45,00 EUR');
      expect(text).toContain('2,50 kg');
      expect(text).toContain('BRT Express Nazionale');
    });
  });

  it('embeds the Code 128 as one image per page', async () => {
    const doc = await PDFDocument.load(await renderLabelsPdf(parcels(2)));
    for (const p of doc.getPages()) {
      const xobjects = p.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
      expect(xobjects?.keys()).toHaveLength(1);
    }
  });

  it('prints characters outside WinAnsi as ? instead of failing', async () => {
    const doc = await PDFDocument.load(await renderLabelsPdf([label(1, 1, { recipient: { ...label().recipient, name: 'Łukasz Żółw' } })]));
    expect(pageText(doc, 0)).toContain('?UKASZ ?Ó?W');
  });

  it('names the bad field', async () => {
    await expect(renderLabelsPdf([label(1, 1, { sender: { ...label().sender, countryCode: 'Italy' } })])).rejects.toThrow(LabelDataError);
    await expect(renderLabelsPdf([label(1, 1, { sender: { ...label().sender, countryCode: 'Italy' } })])).rejects.toMatchObject({ field: 'labels.0.sender.countryCode' });
  });
});

describe('renderManifestPdf', () => {
  it('lists every shipment over several A4 pages with totals and the driver signature box', async () => {
    const data = manifest(80);
    const doc = await PDFDocument.load(await renderManifestPdf(data));
    const n = doc.getPageCount();
    expect(n).toBeGreaterThanOrEqual(2);
    const texts = Array.from({ length: n }, (_, i) => pageText(doc, i));
    for (const [i, p] of doc.getPages().entries()) {
      expect(p.getWidth()).toBeCloseTo(595.28, 1);
      expect(p.getHeight()).toBeCloseTo(841.89, 1);
      expect(texts[i]).toContain('DISTINTA DI AFFIDAMENTO / MANIFEST');
      expect(texts[i]).toContain(`Pagina ${i + 1} / ${n}`);
    }
    const all = texts.join('\n');
    for (const s of data.shipments) expect(all).toContain(s.trackingNumber);
    const last = texts[n - 1] ?? '';
    expect(last).toContain('Firma autista / Driver signature');
    expect(last).toContain('560,00 EUR'); // total cost
    expect(last).toContain('400,00 EUR'); // COD: 20 shipments x 20
    const parcelsTotal = data.shipments.reduce((a, s) => a + s.parcels, 0);
    expect(last).toContain(`${parcelsTotal} colli`);
    expect(all).toContain('Contratto / Contract: BRT Express Nazionale (BRT-EXP-IT)');
  });

  it('fits a short list on one page', async () => {
    const doc = await PDFDocument.load(await renderManifestPdf(manifest(3)));
    expect(doc.getPageCount()).toBe(1);
    expect(pageText(doc, 0)).toContain('Forlì');
  });

  it('accepts an empty manifest and names bad fields', async () => {
    const doc = await PDFDocument.load(await renderManifestPdf(manifest(0)));
    expect(pageText(doc, 0)).toContain('Nessuna spedizione / No shipments');
    const bad = manifest(5);
    (bad.shipments[3] as { cost: number }).cost = -1;
    await expect(renderManifestPdf(bad)).rejects.toMatchObject({ field: 'shipments.3.cost' });
  });
});
