import { describe, expect, it } from 'vitest';
import { findHidScale, hidScaleName, parseHidReport } from '../../../../electron/core/scales/hid';
import { toKg } from '../../../../electron/core/scales/reading';
import { isUsableWeight } from '../../../../shared/domain/scale-weight';
import { lineSplitter, parseContinuous, parseMtSics } from '../../../../electron/core/scales/serial';

describe('HID POS scale reports', () => {
  it('reads a stable weight in grams with the report id', () => {
    // report 3, status 4 stable, unit 2 g, exponent 0, 1230 = 0x04CE
    expect(parseHidReport(Uint8Array.from([3, 4, 2, 0, 0xce, 0x04]))).toEqual({ status: 'stable', kg: 1.23, decimals: 3 });
  });
  it('reads ounces with exponent -1 (Dymo) and keeps the scale precision', () => {
    // 43.4 oz = 1.230 kg
    expect(parseHidReport(Uint8Array.from([3, 4, 11, 0xff, 434 & 0xff, 434 >> 8]))).toEqual({ status: 'stable', kg: 1.23, decimals: 3 });
  });
  it('reads pounds and kilograms with a negative exponent, and reports without the report id', () => {
    expect(parseHidReport(Uint8Array.from([4, 12, 0xfe, 0x10, 0x01]))).toEqual({ status: 'stable', kg: 1.234, decimals: 3 });
    expect(parseHidReport(Uint8Array.from([3, 4, 3, 0xfe, 123, 0]))).toEqual({ status: 'stable', kg: 1.23, decimals: 2 });
  });
  it('says motion, zero, under zero and over capacity', () => {
    expect(parseHidReport(Uint8Array.from([3, 3, 2, 0, 100, 0]))).toEqual({ status: 'motion', kg: 0.1, decimals: 3 });
    expect(parseHidReport(Uint8Array.from([3, 2, 2, 0, 0, 0]))?.status).toBe('zero');
    expect(parseHidReport(Uint8Array.from([3, 2, 0, 0, 0, 0]))).toEqual({ status: 'zero', kg: 0, decimals: 0 });
    expect(parseHidReport(Uint8Array.from([3, 5, 2, 0, 20, 0]))).toEqual({ status: 'under_zero', kg: -0.02, decimals: 3 });
    expect(parseHidReport(Uint8Array.from([3, 6, 2, 0, 0, 0]))).toEqual({ status: 'over_capacity', kg: null, decimals: 0 });
  });
  it('ignores reports that are not weight reports', () => {
    expect(parseHidReport(Uint8Array.from([5, 1, 2]))).toBeNull();
    expect(parseHidReport(Uint8Array.from([3, 0, 2, 0, 0, 0]))).toBeNull();
  });
  it('finds known scales and any device on usage page 0x8D, not keyboards', () => {
    expect(hidScaleName({ vendorId: 0x0922, productId: 0x8003 })).toBe('Dymo M10');
    expect(hidScaleName({ vendorId: 0x1446, productId: 0x6a73 })).toBe('Stamps.com scale');
    expect(hidScaleName({ vendorId: 0x1234, productId: 0x1, usagePage: 0x8d, product: 'Bench 30' })).toBe('Bench 30');
    expect(hidScaleName({ vendorId: 0x046d, productId: 0xc31c, usagePage: 1 })).toBeNull();
    expect(
      findHidScale([
        { vendorId: 0x046d, productId: 0xc31c, usagePage: 1, path: '/dev/hidraw0' },
        { vendorId: 0x0eb8, productId: 0xf000, path: '/dev/hidraw3' },
      ]),
    ).toMatchObject({ name: 'Mettler Toledo PS60', path: '/dev/hidraw3' });
  });
});

describe('serial scales', () => {
  it('parses MT-SICS S/SI responses', () => {
    expect(parseMtSics('S S     1.234 kg')).toEqual({ status: 'stable', kg: 1.234, decimals: 3 });
    expect(parseMtSics('S D     1.100 kg')).toEqual({ status: 'motion', kg: 1.1, decimals: 3 });
    expect(parseMtSics('S S   1230 g')).toEqual({ status: 'stable', kg: 1.23, decimals: 3 });
    expect(parseMtSics('S S     0.000 kg')?.status).toBe('zero');
    expect(parseMtSics('S +')).toEqual({ status: 'over_capacity', kg: null, decimals: 0 });
    expect(parseMtSics('S -')?.status).toBe('under_zero');
    expect(parseMtSics('S I')).toBeNull();
    expect(parseMtSics('ES')).toBeNull();
  });
  it('parses continuous output with and without a stability header', () => {
    expect(parseContinuous('ST,GS,+  1.234kg')).toEqual({ status: 'stable', kg: 1.234, decimals: 3 });
    expect(parseContinuous('US,GS,+  1.200kg')?.status).toBe('motion');
    expect(parseContinuous('OL,GS,+99999 kg')?.status).toBe('over_capacity');
    expect(parseContinuous('  2.72 lb')).toEqual({ status: 'stable', kg: 1.234, decimals: 3 });
    expect(parseContinuous('ST,GS,-  0.010kg')?.status).toBe('under_zero');
    expect(parseContinuous('garbage')).toBeNull();
  });
  it('splits lines across chunks', () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l));
    feed(Buffer.from('S S  1.2'));
    feed(Buffer.from('34 kg\r\nS D'));
    feed(Buffer.from('  1.0 kg\r\n'));
    expect(lines).toEqual(['S S  1.234 kg', 'S D  1.0 kg']);
  });
  it('only a stable positive weight is usable', () => {
    expect(isUsableWeight({ status: 'stable', kg: 1.23, decimals: 3 })).toBe(true);
    expect(isUsableWeight({ status: 'motion', kg: 1.23, decimals: 3 })).toBe(false);
    expect(isUsableWeight({ status: 'zero', kg: 0, decimals: 3 })).toBe(false);
    expect(toKg(5, -1, 'oz').decimals).toBe(3);
  });
});
