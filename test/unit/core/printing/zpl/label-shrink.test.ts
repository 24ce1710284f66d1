/**
 * Issue 23, labels shrunk on purpose and modules rounded up: real corpus
 * labels (test/fixtures/labels/real/) whose barcodes failed the real-labels
 * bench for a cause in the station.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { fitZplToStock, type InkFinder } from '../../../../../electron/core/printing/zpl/label-fit';
import { scaleZpl } from '../../../../../electron/core/printing/zpl/zpl-scale';

const REAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/labels/real');
const real = (file: string): string => fs.readFileSync(path.join(REAL, file), 'latin1');

describe('barcodes on labels shrunk to fit the stock', () => {
  it('a module that would lose more than 12 % rounds up, never past the carrier’s width', () => {
    const zpl = '^XA^FO10,10^BY3^BCN,100,N^FD>;1234^FS^XZ';
    // 3 × 0.78 = 2.34 dots: 2 would be 15 % narrower; 3 is the carrier's own width at 203 dpi.
    expect(scaleZpl(zpl, { factor: 0.78, unshrunkFactor: 1 }).zpl).toMatch(/\^BY3,[\d.]+\^BCN,78,N\^FD>;1234/);
    // Without shrinking on purpose too (issue 36): the nearest dot, 2, would keep 85 % of 2.34, under 90 %, so 3.
    expect(scaleZpl(zpl, { factor: 0.78 }).zpl).toMatch(/\^BY3(,[\d.]+)?\^BCN,78,N\^FD>;1234/);
    // 3 × 0.9 = 2.7 dots: 3 is the nearest.
    expect(scaleZpl(zpl, { factor: 0.9 }).zpl).toMatch(/\^BY3(,[\d.]+)?\^BCN,90,N\^FD>;1234/);
  });

  it('UPS SurePost (real, 4 × 8 in): shrunk to 85 % on 4 × 6 in, its ^PW stays the stock’s so the 91 mm GS1-128 kept at 3 dots is not cut', async () => {
    // The ink as rendered at 203 dpi: the label's 4 × 8 in content.
    const ink = vi.fn<InkFinder>(async () => ({ x0: 8, y0: 0, x1: 812, y1: 1430 }));
    const out = await fitZplToStock(real('ups-surepost.zpl'), { dpi: 203, stockMm: { width: 101.6, height: 152.4 }, ink });
    expect(out.adaptation.shrink).toBeLessThan(0.9);
    expect(out.zpl).toMatch(/\^PW812\b/);
    // Every ^BY3 of the carrier stays 3 dots (2.55 ideal would round to 3 anyway; the print width is what changed).
    expect([...out.zpl.matchAll(/\^BY(\d+)/g)].map((m) => m[1])).toEqual(expect.arrayContaining(['3']));
    expect(out.zpl).toMatch(/\^BY3,[\d.]+\^BCN,\d+,N,N,N,D\^FV42000000>892612903000000000000000000\^FS/);
  });

  it('Kmart (real): the (420) Code 128 keeps its centre when its module rounds up, so its right quiet zone stays', () => {
    // 300 dpi on 100 × 150 mm: 1.478 × 0.97. ^BY4 → 5.73 ideal → 6 dots: 90 modules grow by 24 dots, the field moves 12 left.
    const out = scaleZpl(real('kmart-carton.zpl'), { factor: (300 / 203) * 0.97, unshrunkFactor: 300 / 203 }).zpl;
    expect(out).toMatch(/\^FO67,717\^BY6,2\.9\^BC,158,N\^FD>;>842054956\^FS/);
    // The vertical rule after it, at 446 × 1.434 = 640 dots: 67 + 540 = 607, 33 dots (5.5 modules) of quiet zone.
    expect(out).toContain('^FO639,605^GB4,290,4^FS');
  });
});
