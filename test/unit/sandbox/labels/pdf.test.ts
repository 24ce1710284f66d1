import bwipjs from 'bwip-js/node';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { LABEL_PAGE_PT, LabelDataError, renderLabelsPdf, renderManifestPdf } from '../../../../electron/sandbox/labels';
import { code128Modules } from '../../../../electron/sandbox/labels/layout';
import { label, manifest, pageRectangles, pageText, parcels } from './fixtures';

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

  it('draws each Code 128 as vector bars of the bwip-js encoding, spanning the ZPL ^BC width', async () => {
    const labels = parcels(2);
    const doc = await PDFDocument.load(await renderLabelsPdf(labels));
    const dot = LABEL_PAGE_PT.width / 812; // points per 203 dpi dot
    doc.getPages().forEach((p, i) => {
      expect(p.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.keys() ?? []).toHaveLength(0); // no image
      const tn = labels[i]?.trackingNumber ?? '';
      const [sym] = bwipjs.raw({ bcid: 'code128', text: tn });
      const sbs = sym && 'sbs' in sym ? sym.sbs : [];
      // Bars are the 220-dot-tall rectangles; widths and gaps in modules.
      const bars = pageRectangles(doc, i).filter((r) => Math.abs(r.h - 220 * dot) < 0.01);
      expect(bars).toHaveLength((sbs.length + 1) / 2);
      const module = (bars[0]?.w ?? 0) / (sbs[0] ?? 1);
      const drawn: number[] = [];
      bars.forEach((b, j) => {
        const next = bars[j + 1];
        drawn.push(Math.round(b.w / module));
        if (next) drawn.push(Math.round((next.x - b.x - b.w) / module));
      });
      expect(drawn).toEqual(sbs);
      // Start C (211232) and stop (2331112), ISO/IEC 15417, for an all-digit number.
      expect(drawn.slice(0, 6)).toEqual([2, 1, 1, 2, 3, 2]);
      expect(drawn.slice(-7)).toEqual([2, 3, 3, 1, 1, 1, 2]);
      // Same symbol width and position as the ZPL: 4-dot modules, centred.
      expect(module / dot).toBeCloseTo(4, 3);
      const first = bars[0];
      const lastBar = bars[bars.length - 1];
      const width = (lastBar?.x ?? 0) + (lastBar?.w ?? 0) - (first?.x ?? 0);
      expect(width / dot).toBeCloseTo(code128Modules(tn) * 4, 3);
      expect(((first?.x ?? 0) + width / 2) / dot).toBeCloseTo(406, 0);
    });
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
    expect(all).toContain('Contratto / Contract: BRT Express Nazionale');
    // The contract code may be an encrypted reseller code: never on the paper.
    expect(all).not.toContain('BRT-EXP-IT');
  });

  it('says "1 spedizione … 1 collo" and "1 shipment, 1 parcel": plural forms follow the count (issue 14)', async () => {
    const one = manifest(1);
    one.shipments[0]!.parcels = 1;
    const text = pageText(await PDFDocument.load(await renderManifestPdf(one)), 0).replace(/\s+/g, ' ');
    expect(text).toContain('in consegna 1 spedizione per un totale di 1 collo.');
    expect(text).toContain('receipt of 1 shipment, 1 parcel in total.');
    const two = manifest(2);
    for (const s of two.shipments) s.parcels = 1;
    const text2 = pageText(await PDFDocument.load(await renderManifestPdf(two)), 0).replace(/\s+/g, ' ');
    expect(text2).toContain('in consegna 2 spedizioni per un totale di 2 colli.');
    expect(text2).toContain('receipt of 2 shipments, 2 parcels in total.');
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
