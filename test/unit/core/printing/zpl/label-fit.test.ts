import { describe, expect, it, vi } from 'vitest';
import { fitZplToStock, type InkFinder } from '../../../../../electron/core/printing/zpl/label-fit';

const FOUR_BY_SIX = { width: 101.6, height: 152.4 };
const HUNDRED_BY_150 = { width: 100, height: 150 };

/** An ink finder that must not be called, and one that reports a fixed ink box (dots at the dpi it is asked for). */
function inkSpy(box: { x0: number; y0: number; x1: number; y1: number } | null = null) {
  return vi.fn<InkFinder>(async () => box);
}

describe('fitZplToStock', () => {
  it('scales a label that fits the stock without rendering it (prints at once)', async () => {
    const ink = inkSpy();
    const zpl = '^XA^PW812^LL1218^FO50,60^GB100,100,3^FS^XZ';
    const out = await fitZplToStock(zpl, { dpi: 300, stockMm: FOUR_BY_SIX, ink });
    expect(ink).not.toHaveBeenCalled();
    expect(out.zpl).toBe('^XA^BY3,3,15^PW1200^LL1800^FO74,89^GB148,148,4^FS^XZ');
    expect(out.adaptation).toMatchObject({ madeForDpi: 203, madeForFrom: '^PW', factor: 300 / 203, shrink: 1, inkMm: null, shiftMm: { x: 0, y: 0 } });
    expect(out.adaptation.note).toBe('made for 203 dpi, printing at 300 dpi, scaled ×1.48; label 101.6 × 152.4 mm fits the 101.6 × 152.4 mm stock');
  });

  it('takes a label that says nothing for 4 × 6 in at 203 dpi, and adapts it without rendering on 4 × 6 in stock', async () => {
    const ink = inkSpy();
    const out = await fitZplToStock('^XA^FO100,100^A0N,30,30^FDx^FS^XZ', { dpi: 600, stockMm: FOUR_BY_SIX, ink });
    expect(ink).not.toHaveBeenCalled();
    expect(out.adaptation.madeForFrom).toBe('default');
    expect(out.zpl).toContain('^FO296,296^A0N,89,89^FDx^FS');
  });

  it('measures the ink of a label larger than the stock and moves it into its blank margin', async () => {
    // 4 × 6 in label at 203 dpi (812 × 1218 dots) on 100 × 150 mm stock at 203 dpi (799 × 1198 dots); ink 20..800 × 30..1210.
    const ink = inkSpy({ x0: 20, y0: 30, x1: 800, y1: 1210 });
    const out = await fitZplToStock('^XA^PW812^LL1218^FO20,30^GB780,1180,2^FS^XZ', { dpi: 203, stockMm: HUNDRED_BY_150, ink });
    expect(ink).toHaveBeenCalledTimes(1);
    expect(out.adaptation.shrink).toBe(1);
    expect(out.zpl).toContain('^FO19,18^GB780,1180,2^FS');
    expect(out.adaptation.note).toContain('moved 0.1 mm left and 1.5 mm up into its blank margin');
  });

  it('measures a label that says nothing about its size but has fields past 6 in (a 4 × 8 in label)', async () => {
    const ink = inkSpy({ x0: 0, y0: 0, x1: 700, y1: 1500 });
    const out = await fitZplToStock('^XA^FO10,1400^GB600,100,3^FS^XZ', { dpi: 203, stockMm: FOUR_BY_SIX, ink });
    expect(ink).toHaveBeenCalledTimes(1);
    // Only a box passes the end, no barcode (issue 36): printed at 100 %, the box's end left off.
    expect(out.adaptation.shrink).toBe(1);
    expect(out.adaptation.note).toContain('printed at 100 %: only text and lines pass the stock');
  });

  it('measures a ^GF graphic that runs past the stock', async () => {
    const ink = inkSpy({ x0: 0, y0: 0, x1: 16, y1: 1300 });
    // 2 bytes a row, 2600 bytes: 1300 rows from y = 0.
    await fitZplToStock(`^XA^LL1218^FO0,0^GFA,2600,2600,2,${'F'.repeat(5200)}^FS^XZ`, { dpi: 203, stockMm: FOUR_BY_SIX, ink });
    expect(ink).toHaveBeenCalledTimes(1);
  });
});
