/**
 * Issue 36: one rounding rule for every barcode dimension (module width, bar
 * height, wide-to-narrow ratio) scaled between 203, 300 and 600 dpi heads —
 * the nearest dot, not down; a value under its ideal keeps ≥ 90 %; the next
 * smaller dot only when the nearest does not fit and the smaller keeps ≥ 90 %.
 */
import { describe, expect, it } from 'vitest';
import { MIN_KEPT, roundToDots, wideRatio } from '../../../../../electron/core/printing/zpl/module-round';
import { scaleZpl } from '../../../../../electron/core/printing/zpl/zpl-scale';

const DPIS = [203, 300, 600] as const;

describe('roundToDots: nearest dot, then checked', () => {
  it('a 2-dot module made for 203 dpi is 6 dots at 600 (5.91 ideal), not 5; 3 at 300 (2.96)', () => {
    expect(roundToDots(2 * (600 / 203)).dots).toBe(6);
    expect(roundToDots(2 * (300 / 203)).dots).toBe(3);
    expect(roundToDots(3 * (300 / 203)).dots).toBe(4); // 4.43: 4 keeps 90.2 %
  });

  it('between every pair of 203/300/600 dpi, modules of 1–10 dots keep ≥ 90 % of their ideal and are within half a dot of it or rounded up', () => {
    for (const from of DPIS)
      for (const to of DPIS)
        for (let v = 1; v <= 10; v++) {
          const ideal = v * (to / from);
          const c = roundToDots(ideal);
          expect(c.dots, `${v} dots ${from}→${to} dpi`).toBeGreaterThanOrEqual(1);
          expect(c.kept, `${v} dots ${from}→${to} dpi`).toBeGreaterThanOrEqual(MIN_KEPT - 1e-9);
          expect(c.dots === Math.round(ideal) || c.dots === Math.ceil(ideal)).toBe(true);
          expect(c.fits).toBe(true);
        }
  });

  it('a value that would keep under 90 % rounds up: 1 dot at 203 dpi is 2 at 300 (1.48), 3 dots at 600 → 203 is 1 (1.02)', () => {
    expect(roundToDots(1 * (300 / 203))).toMatchObject({ dots: 2 });
    expect(roundToDots(3 * (203 / 600))).toMatchObject({ dots: 1 });
    // 300 → 203: 3 dots = 2.03 ideal → 2 (98.5 %).
    expect(roundToDots(3 * (203 / 300)).dots).toBe(2);
  });

  it('when the nearest does not fit, the next smaller is used only if it keeps ≥ 90 %', () => {
    // 4 dots at 203 → 300: 5.91 → 6; 5 would keep 84.6 %: stays 6, said not to fit.
    expect(roundToDots(4 * (300 / 203), { fits: (d) => d <= 5 })).toMatchObject({ dots: 6, fits: false });
    // 3 dots at 300 → 600: 6 exactly; 5 keeps 83 %: stays 6.
    expect(roundToDots(6, { fits: (d) => d <= 5 })).toMatchObject({ dots: 6, fits: false });
    // 7 dots at 203 → 600: 20.69 → 21; 20 keeps 96.7 % and fits.
    expect(roundToDots(7 * (600 / 203), { fits: (d) => d <= 20 })).toMatchObject({ dots: 20, fits: true });
    // 3 dots at 203 → 300: 4.43 → 4 (the nearest, under the ideal); 3 would keep 68 %: stays 4.
    expect(roundToDots(3 * (300 / 203), { fits: (d) => d <= 3 })).toMatchObject({ dots: 4, fits: false });
  });

  it('never passes the command’s maximum (ZPL: 10 dots for ^BY, ^BQ, ^BO)', () => {
    expect(roundToDots(4 * (600 / 203), { max: 10 }).dots).toBe(10);
  });

  it('bar heights follow the same rule: 100 dots at 203 dpi are 148 at 300 and 296 at 600; a 120-dot bar that does not fit steps down to 119 at most 1 dot', () => {
    expect(roundToDots(100 * (300 / 203)).dots).toBe(148);
    expect(roundToDots(100 * (600 / 203)).dots).toBe(296);
    expect(roundToDots(120, { fits: (d) => d < 120 })).toMatchObject({ dots: 119, fits: true });
  });
});

describe('wideRatio: wide bars keep their width', () => {
  it('^BY2,3 at 203 → 600 dpi: 6-dot module, wide 17.7 dots → ratio 3.0 (18 dots, 101.7 %)', () => {
    const m = roundToDots(2 * (600 / 203)).dots;
    const r = wideRatio(2 * 3 * (600 / 203), m);
    expect(r.ratio).toBe(3);
    expect(r.kept).toBeGreaterThanOrEqual(MIN_KEPT);
  });

  it('^BY3,2.5 at 203 → 300 dpi: module 4 (4.43), ratio 2.8 so the wide bar is 11.2 of 11.08 dots', () => {
    const m = roundToDots(3 * (300 / 203)).dots;
    const r = wideRatio(3 * 2.5 * (300 / 203), m);
    expect(m).toBe(4);
    expect(r.ratio).toBe(2.8);
    expect(r.kept).toBeGreaterThan(0.99);
  });

  it('stays within ZPL’s 2.0–3.0 whatever the module', () => {
    for (const from of DPIS)
      for (const to of DPIS)
        for (let v = 1; v <= 6; v++) {
          const m = roundToDots(v * (to / from)).dots;
          const { ratio } = wideRatio(v * 3 * (to / from), m);
          expect(ratio).toBeGreaterThanOrEqual(2);
          expect(ratio).toBeLessThanOrEqual(3);
        }
  });
});

describe('scaleZpl applies the rule to every symbology', () => {
  it('^BY2 Code 39 and Code 128 made for 203 dpi print with a 6-dot module at 600 dpi and a 3-dot one at 300', () => {
    const zpl = '^XA^FO20,20^BY2,3,80^B3N,N,80,N,N^FDABC123^FS^FO20,200^BY2^BCN,80,N^FD>;1234^FS^XZ';
    expect([...scaleZpl(zpl, { factor: 600 / 203 }).zpl.matchAll(/\^BY(\d+)/g)].map((m) => m[1])).toEqual(['6', '6', '6']);
    expect([...scaleZpl(zpl, { factor: 300 / 203 }).zpl.matchAll(/\^BY(\d+)/g)].map((m) => m[1])).toEqual(['3', '3', '3']);
  });

  it('DataMatrix (^BX module), QR (^BQ magnification) and bar heights: nearest dot, never under 90 %', () => {
    const zpl = '^XA^FO10,10^BXN,5,200^FDabc^FS^FO10,200^BQN,2,3^FDQA,abc^FS^FO10,400^B7N,7,5^FDabc^FS^XZ';
    const at300 = scaleZpl(zpl, { factor: 300 / 203 }).zpl;
    expect(at300).toContain('^BXN,7,200'); // 7.39 → 7
    expect(at300).toContain('^BQN,2,4'); // 4.43 → 4
    expect(at300).toContain('^B7N,10,5'); // row height 10.34 → 10
    const at203 = scaleZpl(zpl, { factor: 203 / 600 }).zpl;
    expect(at203).toContain('^BXN,2,200'); // 1.69 → 2 (1 would keep 59 %)
    expect(at203).toContain('^BQN,2,1'); // 1.02 → 1
  });

  it('MaxiCode (^BD) is kept as the command it was, only its field origin moves (scaled and shifted)', () => {
    const zpl = '^XA^LH10,12^FO20,431^CVY^BD3^FH_^FD4030405000  [)>_1E01_1D96^FS^XZ';
    const out = scaleZpl(zpl, { factor: 300 / 203, shift: { x: 0, y: 30 } }).zpl;
    expect(out).toContain('^CVY^BD3^FH_^FD4030405000  [)>_1E01_1D96^FS');
    // ^LH 10,12 → 15,18; 18 of the 30-dot shift taken by ^LH, the other 12 from the ^FO: 431 × 1.478 = 637 − 12.
    expect(out).toContain('^LH15,0');
    expect(out).toContain('^FO30,625^CVY^BD3');
  });

  it('MaxiCode on a label shrunk to 85 % keeps its size and its place clear: fields past its right or bottom edge move out by what it did not shrink', () => {
    const zpl = '^XA^LH10,12^FO20,431^CVY^BD3^FH_^FD4030405000^FS^FO300,431^A0N,30,30^FDRIGHT^FS^FO20,700^A0N,30,30^FDBELOW^FS^FO20,300^A0N,30,30^FDABOVE^FS^XZ';
    const f = (300 / 203) * 0.85;
    const out = scaleZpl(zpl, { factor: f, unshrunkFactor: 300 / 203, headDpi: 300 }).zpl;
    // The ^BD itself unchanged, its ^FO only scaled: 20,431 × 1.256 = 25,541 (its top-left anchored).
    expect(out).toContain('^FO25,541^CVY^BD3^FH_^FD4030405000^FS');
    // 1.11 × 1.054 in at 300 dpi is 333 × 316.2 dots; 15 % of it, rounded up, 50 × 48 dots.
    expect(out).toContain(`^FO${Math.round(300 * f) + 50},541^A0N,38,38^FDRIGHT`);
    expect(out).toContain(`^FO25,${Math.round(700 * f) + 48}^A0N,38,38^FDBELOW`);
    // Above and left of it: only scaled.
    expect(out).toContain(`^FO25,${Math.round(300 * f)}^A0N,38,38^FDABOVE`);
    // Not shrunk on purpose: nothing moves.
    expect(scaleZpl(zpl, { factor: 300 / 203, headDpi: 300 }).zpl).toContain('^FO30,637^CVY^BD3');
    expect(scaleZpl(zpl, { factor: 300 / 203, headDpi: 300 }).zpl).toContain('^FO443,637^A0N');
  });
});
