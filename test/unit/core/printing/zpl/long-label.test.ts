/**
 * Issue 36, item 2: a label longer than the stock prints at 100 % when only
 * text and lines pass its end, shrinks only as far as every barcode keeps
 * ≥ 90 % of its module, else is held with a sentence naming its size.
 */
import { describe, expect, it, vi } from 'vitest';
import { fitZplToStock, type InkFinder } from '../../../../../electron/core/printing/zpl/label-fit';
import { barcodeFieldsOnly, barcodeModules, planLongLabel } from '../../../../../electron/core/printing/zpl/long-label';

/** 4 × 6 in at 203 dpi, dots. */
const STOCK = { width: 812, height: 1218 };

describe('planLongLabel', () => {
  it('fits: nothing to decide', () => {
    expect(planLongLabel({ x0: 0, y0: 0, x1: 800, y1: 1200 }, { x0: 0, y0: 0, x1: 800, y1: 600 }, STOCK, 203)).toEqual({ kind: 'fits', shrink: 1 });
  });

  it('only text past the end (barcodes end at 5 in): 100 %, the overflow in mm for the note', () => {
    const plan = planLongLabel({ x0: 0, y0: 0, x1: 800, y1: 1300 }, { x0: 0, y0: 0, x1: 800, y1: 1015 }, STOCK, 203);
    expect(plan).toEqual({ kind: 'cut', shrink: 1, leftOffMm: 10.3 }); // 82 dots at 203 dpi
  });

  it('a barcode past the end by less than 10 %: shrunk just enough (≥ 90 %)', () => {
    const plan = planLongLabel({ x0: 0, y0: 0, x1: 800, y1: 1330 }, { x0: 0, y0: 0, x1: 800, y1: 1300 }, STOCK, 203);
    expect(plan.kind).toBe('shrunk');
    expect(plan.shrink).toBeGreaterThanOrEqual(0.9);
    expect(plan.shrink * 1300).toBeLessThanOrEqual(STOCK.height);
  });

  it('a barcode 7.1 in down on 6 in stock: held, with the sentence of the issue', () => {
    const plan = planLongLabel({ x0: 8, y0: 0, x1: 812, y1: 1441 }, { x0: 8, y0: 0, x1: 812, y1: 1441 }, STOCK, 203, 812);
    expect(plan).toMatchObject({ kind: 'held', sentence: 'This label is 4 × 7.1 in: load 4 × 8 in labels, or choose a printer profile for them' });
  });

  it('a label wider than 4 in asks for stock that exists: 4.5 × 6 in needs 6 in wide labels (a 6 in head), not 5 in', () => {
    const plan = planLongLabel({ x0: 0, y0: 0, x1: 914, y1: 1218 }, { x0: 0, y0: 0, x1: 914, y1: 1218 }, STOCK, 203, 914);
    expect(plan).toMatchObject({ kind: 'held', sentence: 'This label is 4.5 × 6 in: load 6 × 6 in labels, or choose a printer profile for them', inches: { width: 4.5, height: 6, loadWidth: 6, loadHeight: 6 } });
  });

  it('the blank margin above counts: a label whose ink starts 100 dots down is moved up before anything is cut', () => {
    expect(planLongLabel({ x0: 0, y0: 100, x1: 800, y1: 1310 }, { x0: 0, y0: 100, x1: 800, y1: 1310 }, STOCK, 203).kind).toBe('fits');
  });
});

describe('barcodeFieldsOnly', () => {
  it('keeps format commands and barcode fields, drops text, boxes and graphics fields', () => {
    const zpl = '^XA^LH10,10^BY3^FO10,10^A0N,30,30^FDtext^FS^FO10,50^GB100,2,2^FS^FO10,100^BCN,80^FD123^FS^FO10,300^BD3^FDmaxi^FS^XZ';
    expect(barcodeFieldsOnly(zpl)).toBe('^XA^LH10,10^BY3^FO10,100^BCN,80^FD123^FS^FO10,300^BD3^FDmaxi^FS^XZ');
  });
});

describe('fitZplToStock on a label longer than its stock', () => {
  /** Ink of the whole label 0–1441 dots down; of its barcodes alone, `barBottom`. */
  const finder = (barBottom: number) =>
    vi.fn<InkFinder>(async (zpl) => (zpl.includes('^A0') ? { x0: 8, y0: 0, x1: 812, y1: 1441 } : { x0: 8, y0: 0, x1: 812, y1: barBottom }));
  // ^BY5: at the 84.5 % a 7.1 in label needs on 6 in stock, its 5-dot module would be 4 dots (80 %).
  const zpl = '^XA^PW812^LL1624^FO8,0^BY5^BCN,100^FD123^FS^FO8,1400^A0N,30,30^FDfooter^FS^XZ';

  it('holds it with the sentence when its barcodes reach 7.1 in; the ZPL is the shrunk one, for printing anyway', async () => {
    const out = await fitZplToStock(zpl, { dpi: 203, stockMm: { width: 101.6, height: 152.4 }, ink: finder(1441) });
    expect(out.adaptation.heldTooLong).toBe('This label is 4 × 7.1 in: load 4 × 8 in labels, or choose a printer profile for them');
    expect(out.adaptation.shrink).toBeLessThan(0.9);
    expect(out.adaptation.note).toContain('too long for the stock: This label is 4 × 7.1 in');
  });

  it('prints it at 100 % when only text passes the end, and says so', async () => {
    const out = await fitZplToStock(zpl, { dpi: 203, stockMm: { width: 101.6, height: 152.4 }, ink: finder(200) });
    expect(out.adaptation.shrink).toBe(1);
    expect(out.adaptation.heldTooLong).toBeUndefined();
    expect(out.adaptation.note).toMatch(/printed at 100 %: only text and lines pass the stock's end, 27\.9 mm of them left off/);
    expect(out.zpl).toContain('^BY5');
  });

  it('shrinks it below 90 % when every module, rounded to the dot, still keeps ≥ 90 % (^BY3 at 84.5 %: 2.54 → 3 dots)', async () => {
    const out = await fitZplToStock(zpl.replace('^BY5', '^BY3'), { dpi: 203, stockMm: { width: 101.6, height: 152.4 }, ink: finder(1441) });
    expect(out.adaptation.heldTooLong).toBeUndefined();
    expect(out.adaptation.shrink).toBeLessThan(0.9);
    expect(out.zpl).toMatch(/\^BY3/);
  });

  it('shrinks it no further than its barcodes need when that keeps ≥ 90 %', async () => {
    const out = await fitZplToStock(zpl, { dpi: 203, stockMm: { width: 101.6, height: 152.4 }, ink: finder(1300) });
    expect(out.adaptation.shrink).toBeGreaterThanOrEqual(0.9);
    expect(out.adaptation.shrink).toBeLessThan(1);
    expect(out.adaptation.heldTooLong).toBeUndefined();
  });
});

describe('barcodeModules', () => {
  it('reads ^BY widths (ZPL’s 2 before any ^BY), ^BX module, ^BQ and ^BO magnification; MaxiCode has none', () => {
    const zpl = '^XA^FO0,0^BCN,50^FD1^FS^BY3^FO0,100^B3N,N,50^FDA^FS^FO0,200^BXN,6,200^FDx^FS^FO0,300^BQN,2,5^FDQA,x^FS^FO0,400^BD3^FDm^FS^XZ';
    expect(barcodeModules(zpl).sort()).toEqual([2, 3, 5, 6]);
  });
});
