import { describe, expect, it } from 'vitest';
import { findPageParts, isLabelSized, planLabelCrop } from '../../../../../electron/core/printing/pdf/pdf-region';

/** A blank A4 probe (72 dpi: 1 px a point) with ink painted by `draw`. */
function page(draw: (set: (x: number, y: number) => void) => void) {
  const width = 595;
  const height = 842;
  const grey = new Uint8Array(width * height).fill(255);
  draw((x, y) => {
    grey[y * width + x] = 0;
  });
  return { width, height, grey };
}

const rect = (set: (x: number, y: number) => void, x0: number, y0: number, w: number, h: number) => {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) set(x, y);
};

/** Top half: bars 2 px wide, 60 px long, running down the page (a barcode turned sideways) in 200 × 300 px; dashed cut at y 421; bottom half: text-like blocks. */
const A4_WITH_LABEL = page((set) => {
  for (let x = 100; x < 300; x += 5) rect(set, x, 80, 2, 60);
  rect(set, 100, 200, 200, 2); // a rule inside the label
  rect(set, 100, 380, 40, 8);
  for (let x = 5; x < 590; x += 10) rect(set, x, 421, 5, 1);
  for (let y = 480; y < 700; y += 20) rect(set, 60, y, 400, 6);
});

describe('findPageParts', () => {
  it('splits an A4 page at its dashed cut line and puts the part with the bars first', () => {
    const parts = findPageParts(A4_WITH_LABEL);
    expect(parts).toHaveLength(2);
    expect(parts[0]!.box).toEqual({ x: 100, y: 80, width: 200, height: 308 });
    expect(parts[0]!.barScore).toBeGreaterThan(parts[1]!.barScore);
  });

  it('does not take a label’s own rules for cut lines', () => {
    const parts = findPageParts(page((set) => {
      rect(set, 50, 50, 495, 2); // a solid rule across most of the page, not edge to edge
      for (let x = 100; x < 300; x += 5) rect(set, x, 80, 2, 60);
      rect(set, 50, 300, 3, 500); // a long vertical rule
    }));
    expect(parts).toHaveLength(1);
  });
});

describe('planLabelCrop', () => {
  it('crops the label, turns it to a portrait stock and prints it 1:1 at the head’s dpi, naming the other part', () => {
    // The label part is 200 × 308 pt (+1 mm margins): portrait like the stock, so not turned.
    const plan = planLabelCrop({ width: 595, height: 842 }, A4_WITH_LABEL, { dpi: 300, widthMm: 101.6, heightMm: 152.4 });
    expect(plan?.view.rotate).toBe(0);
    expect(plan?.view.scale).toBeCloseTo(300 / 72, 6);
    expect(plan?.view.crop).toEqual({ x: Math.floor(97 * (300 / 72)), y: Math.floor(77 * (300 / 72)), width: Math.ceil(206 * (300 / 72)), height: Math.ceil(314 * (300 / 72)) });
    expect(plan?.note).toContain('the page holds another part');
    expect(plan?.note).toContain('at its size');
  });

  it('turns a landscape label 90° for a portrait stock and shrinks it only when larger than the stock', () => {
    const wide = page((set) => {
      for (let y = 100; y < 300; y += 5) rect(set, 20, y, 520, 2);
    });
    const plan = planLabelCrop({ width: 595, height: 842 }, wide, { dpi: 203, widthMm: 101.6, heightMm: 152.4 });
    expect(plan?.view.rotate).toBe(1);
    expect(plan?.note).toMatch(/turned 90°, shrunk to \d+ % to fit the stock/);
    expect(planLabelCrop({ width: 595, height: 842 }, page(() => undefined), { dpi: 203, widthMm: 101.6, heightMm: 152.4 })).toBeNull();
  });
});

describe('isLabelSized', () => {
  it('takes 4 × 6 in and 100 × 150 mm pages (either way round) for labels, not A4', () => {
    const stock = { dpi: 203 as const, widthMm: 101.6, heightMm: 152.4 };
    expect(isLabelSized({ width: 288, height: 432 }, stock)).toBe(true);
    expect(isLabelSized({ width: 432, height: 288 }, stock)).toBe(true);
    expect(isLabelSized({ width: 283.5, height: 425.2 }, stock)).toBe(true);
    expect(isLabelSized({ width: 595.28, height: 841.89 }, stock)).toBe(false);
  });
});
