/**
 * Issue 23, PDF pages that are not label-sized: an A4 page holding a carrier
 * label turned sideways above a dashed cut line and the sender's copy below
 * (the layout of DHL's A4 labels, test/fixtures/labels/real/dhl-*-a4.pdf)
 * goes through pdfToZpl; what the station sends is rendered by an
 * independent ZPL engine (zpl-renderer-js) and decoded by ZXing (zxing-wasm):
 * every barcode of the label as the carrier drew it comes out with the same
 * value, inside the stock, its size kept (±12 %) and no bar narrower by more
 * than one dot. The A4 page is built here with pdf-lib around the sandbox's
 * own PDF label, because the public A4 label PDFs of the corpus have their
 * barcodes greyed out (nothing decodes on them, even on the original page);
 * those are checked for the crop the station finds on them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfiumRasteriser, pdfToZpl } from '../../../../electron/core/printing/pdf/pdf-zpl';
import { stopZplPreviewWorker } from '../../../../electron/core/printing/zpl/preview';
import { renderLabelsPdf } from '../../../../electron/sandbox/labels';
import { parcels } from '../../../unit/sandbox/labels/fixtures';
import { barcodeProblem, dpmmOf, measurePng, measureZpl, type MeasuredBarcode } from '../../../support/label-barcodes';

afterAll(() => stopZplPreviewWorker());

const A4 = { width: 595.28, height: 841.89 };

/** An A4 page: the label turned 90° counter-clockwise in the top half, a dashed cut line, a sender's copy with text below. */
async function a4WithLabel(): Promise<{ a4: Uint8Array; label: Uint8Array }> {
  const label = await renderLabelsPdf(parcels(1));
  const doc = await PDFDocument.create();
  const page = doc.addPage([A4.width, A4.height]);
  const [embedded] = await doc.embedPdf(label, [0]);
  if (!embedded) throw new Error('label page not embedded');
  // Turned: the label's width runs up the page; its 432 pt height across it.
  page.drawPage(embedded, { x: 80 + embedded.height, y: A4.height / 2 + 40, rotate: degrees(90) });
  for (let x = 10; x < A4.width - 10; x += 12) page.drawLine({ start: { x, y: A4.height / 2 }, end: { x: x + 6, y: A4.height / 2 }, thickness: 0.8, color: rgb(0, 0, 0) });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const lines = ['Sendungsinformation - für Ihre Unterlagen', 'Absender: Versender, Strasse Nr., PLZ Stadt', 'Empfänger: Empfänger, Strasse Nr., PLZ Stadt', 'Produkt: Paket bis 5 kg'];
  lines.forEach((text, i) => page.drawText(text.replace('ü', 'u'), { x: 50, y: A4.height / 2 - 60 - i * 24, size: 12, font }));
  return { a4: await doc.save(), label };
}

/** Barcodes of a PDF's first page rendered 1:1 at `dpi`. */
async function pdfBarcodes(pdf: Uint8Array, dpi: 203 | 300 | 600): Promise<MeasuredBarcode[]> {
  const [png] = await pdfiumRasteriser.render(pdf, () => dpi / 72, (p) => {
    const img = new PNG({ width: p.width, height: p.height });
    for (let k = 0; k < p.width * p.height; k++) {
      img.data[k * 4] = img.data[k * 4 + 1] = img.data[k * 4 + 2] = p.grey[k]!;
      img.data[k * 4 + 3] = 255;
    }
    return PNG.sync.write(img);
  });
  return measurePng(png!, dpmmOf(dpi));
}

describe('A4 PDF pages: the label found, cropped, turned and printed at its size', () => {
  const targets = [
    { dpi: 203 as const, stockMm: { width: 101.6, height: 152.4 } },
    { dpi: 300 as const, stockMm: { width: 101.6, height: 152.4 } },
    { dpi: 300 as const, stockMm: { width: 100, height: 150 } },
  ];
  for (const t of targets) {
    it(`${t.dpi} dpi on ${t.stockMm.width} × ${t.stockMm.height} mm: every barcode of the label decodes at its size`, async () => {
      const { a4, label } = await a4WithLabel();
      const original = await pdfBarcodes(label, t.dpi);
      expect(original.length).toBeGreaterThanOrEqual(1);
      const out = await pdfToZpl(a4, { dpi: t.dpi, widthMm: t.stockMm.width, heightMm: t.stockMm.height });
      expect(out.notes).toHaveLength(1);
      expect(out.notes[0]).toMatch(/210 × 297 mm page: printed the label found on it \(\d+ × \d+ mm, turned 90°/);
      expect(out.notes[0]).toContain('the page holds another part');
      const shrink = /shrunk to (\d+) %/.exec(out.notes[0]!);
      const printed = (await measureZpl(Buffer.from(out.zpl).toString('latin1'), t.stockMm.width, t.stockMm.height, dpmmOf(t.dpi))).flatMap((l) => l.barcodes);
      const opts = { stockMm: t.stockMm, dotMm: 1 / dpmmOf(t.dpi), shrink: shrink ? Number(shrink[1]) / 100 : 1 };
      expect(original.map((o) => barcodeProblem(o, printed, opts))).toEqual(original.map(() => null));
    }, 60_000);
  }

  it('finds the label on the corpus A4 PDFs (DHL Online-Frankierung and Retoure): turned, cropped, the sender’s copy named', async () => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/labels/real');
    for (const file of ['dhl-paket-privat-a4.pdf', 'dhl-retoure-a4.pdf']) {
      const out = await pdfToZpl(fs.readFileSync(path.join(dir, file)), { dpi: 203, widthMm: 101.6, heightMm: 152.4 });
      expect(out.notes, file).toHaveLength(1);
      // The label is the top half of the page, less its margins: about 100 × 190–200 mm once turned.
      const size = /found on it \((\d+) × (\d+) mm, turned 90°/.exec(out.notes[0]!);
      expect(size, `${file}: ${out.notes[0]}`).not.toBeNull();
      expect(Number(size![1])).toBeGreaterThan(85);
      expect(Number(size![1])).toBeLessThan(110);
      expect(Number(size![2])).toBeGreaterThan(180);
      expect(Number(size![2])).toBeLessThan(205);
      expect(out.notes[0]).toContain('the page holds another part');
    }
  }, 60_000);
});
