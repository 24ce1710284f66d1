import { describe, expect, it } from 'vitest';
import { aztecModules, aztecSymbol } from '../../../../../electron/core/printing/zpl/zpl-aztec';
import { barcodeGraphic } from '../../../../../electron/core/printing/zpl/zpl-barcode-graphic';

// The data of test/fixtures/labels/real/aztec-ec.zpl (^BON,5,,23 / 45 / 70 / 95).
const DATA = 'Part:123;Warehouse:BYZA;Position:12-12-1';
const TO_600 = 600 / 203;

describe('Aztec symbol size as the printer chooses it for ^BO (zpl-aztec.ts)', () => {
  it('symbol sides by format and layers (ISO/IEC 24778): compact 15–27, full range 19…151 with reference grid lines', () => {
    expect([1, 2, 3, 4].map((l) => aztecModules('compact', l))).toEqual([15, 19, 23, 27]);
    expect([1, 2, 3, 4, 5, 16, 32].map((l) => aztecModules('full', l))).toEqual([19, 23, 27, 31, 37, 83, 151]);
  });

  it('error-control percentages give the sizes the renderer prints on aztec-ec.zpl at 203 dpi (23, 27, 37 modules); 0 is 23 %', () => {
    // Measured on the original rendered by zebrash: 14.375, 16.875 and 23.125 mm at 0.625 mm a module.
    expect(aztecSymbol(DATA, 23)).toEqual({ format: 'compact', layers: 3, modules: 23 });
    expect(aztecSymbol(DATA, 0)).toEqual(aztecSymbol(DATA, 23));
    expect(aztecSymbol(DATA, 45)).toEqual({ format: 'compact', layers: 4, modules: 27 });
    expect(aztecSymbol(DATA, 70)).toEqual({ format: 'full', layers: 5, modules: 37 });
    // Short data takes the smallest compact symbol, before any full-range one.
    expect(aztecSymbol('12345', 0)).toEqual({ format: 'compact', layers: 1, modules: 15 });
  });

  it('101–104 and 201–232 fix the layers; 300 is a rune', () => {
    expect(aztecSymbol(DATA, 103)).toEqual({ format: 'compact', layers: 3, modules: 23 });
    expect(aztecSymbol(DATA, 203)).toEqual({ format: 'full', layers: 3, modules: 27 });
    expect(aztecSymbol('25', 300)).toEqual({ format: 'rune', layers: 0, modules: 11 });
  });

  it('refuses what the printer has no symbol for, naming it', () => {
    expect(() => aztecSymbol(DATA, 150)).toThrow(/Aztec size 150/);
    expect(() => aztecSymbol(DATA, 99)).toThrow(/too long for 99 %/);
    expect(() => aztecSymbol('256', 300)).toThrow(/rune data/);
  });

  it('the ^GF drawn at 600 dpi has the printer’s symbol: 23 modules of 15 dots for ^BON,5,,23 (bwip-js alone would take 27)', () => {
    const field = { name: 'BO', params: ['N', '5', '', '23'], by: { moduleDots: 2, ratio: 3, heightDots: 10 }, data: DATA, defaultOrientation: 'N', factor: TO_600 };
    const g = barcodeGraphic(field);
    expect([g.width, g.height]).toEqual([23 * 15, 23 * 15]);
    expect(barcodeGraphic({ ...field, params: ['N', '5', '', '203'] }).width).toBe(27 * 15);
    expect(barcodeGraphic({ ...field, params: ['N', '5', '', '300'], data: '25' }).width).toBe(11 * 15);
  });
});
