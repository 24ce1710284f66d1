/**
 * The box that fits and the split when none does (issue 37 items 1-2), on
 * the three orders of the issue and the edge cases. Presets (inner cm, tare
 * kg): Small 25 × 20 × 10 (0.15), Medium 30 × 20 × 15 (0.25), Large
 * 40 × 30 × 20 (0.4). Products (cm, kg): cup CUP 9 × 9 × 10 (0.3), teapot
 * TE-1L 22 × 18 × 16 (0.9), plate PP-27 28 × 28 × 4 (0.6), bowl BW-14
 * 14 × 14 × 7 (0.3), tureen TU-30 30 × 30 × 18 (2.1), decorated vase VS-DEC
 * 20 × 20 × 30 (1.4), glass carafe CAR-GL 12 × 12 × 25 (0.7, ships alone).
 */
import { describe, expect, it } from 'vitest';
import type { BoxPreset } from '../../../../shared/contract/boxes';
import { chooseBoxes, presetsBySize, type SizedPiece } from '../../../../electron/core/shipping/box-choice';

const box = (name: string, l: number, w: number, h: number, tareKg: number): BoxPreset => ({ name, lengthCm: l, widthCm: w, heightCm: h, tareKg, barcode: null });
const SMALL = box('Small', 25, 20, 10, 0.15);
const MEDIUM = box('Medium', 30, 20, 15, 0.25);
const LARGE = box('Large', 40, 30, 20, 0.4);
// Given out of order: the choice orders them by volume.
const PRESETS = [LARGE, MEDIUM, SMALL];
const NO_LIMITS = { marginCm: 0, maxKg: null };

const PRODUCTS: Record<string, { sizeCm: [number, number, number]; weightKg: number; shipsAlone?: boolean }> = {
  CUP: { sizeCm: [9, 9, 10], weightKg: 0.3 },
  'TE-1L': { sizeCm: [22, 18, 16], weightKg: 0.9 },
  'PP-27': { sizeCm: [28, 28, 4], weightKg: 0.6 },
  'BW-14': { sizeCm: [14, 14, 7], weightKg: 0.3 },
  'TU-30': { sizeCm: [30, 30, 18], weightKg: 2.1 },
  'VS-DEC': { sizeCm: [20, 20, 30], weightKg: 1.4 },
  'CAR-GL': { sizeCm: [12, 12, 25], weightKg: 0.7, shipsAlone: true },
};

/** The pieces of `[sku, quantity]` lines, one per unit. */
function pieces(...lines: Array<[string, number]>): SizedPiece[] {
  return lines.flatMap(([sku, n]) => {
    const p = PRODUCTS[sku];
    if (!p) throw new Error(sku);
    return Array.from({ length: n }, () => ({ sku, ...p, sizeCm: [...p.sizeCm] as [number, number, number] }));
  });
}

const skusOf = (ps: ReadonlyArray<{ sku: string }>) => ps.map((p) => p.sku).sort();

describe('chooseBoxes: the orders of issue 37', () => {
  it('2 cups and the 1 l teapot go in Large, because the teapot does not fit Medium', () => {
    const choice = chooseBoxes(pieces(['CUP', 2], ['TE-1L', 1]), PRESETS, NO_LIMITS);
    expect(choice.ok).toBe(true);
    if (!choice.ok) return;
    expect(choice.parcels.map((p) => p.box.name)).toEqual(['Large']);
    expect(skusOf(choice.parcels[0]?.pieces ?? [])).toEqual(['CUP', 'CUP', 'TE-1L']);
    expect(choice.reason).toEqual({
      key: 'box.pieceTooBig',
      params: { box: 'Large', sku: 'TE-1L', size: '22 × 18 × 16', smaller: 'Medium' },
      message: 'Box Large: TE-1L 22 × 18 × 16 cm does not fit Medium',
    });
  });

  it('3 plates, 3 bowls and the tureen need two boxes: the tureen fills Large, the plates take another Large', () => {
    const choice = chooseBoxes(pieces(['PP-27', 3], ['BW-14', 3], ['TU-30', 1]), PRESETS, NO_LIMITS);
    expect(choice.ok).toBe(true);
    if (!choice.ok) return;
    expect(choice.parcels).toHaveLength(2);
    expect(choice.parcels.flatMap((p) => p.pieces)).toHaveLength(7);
    const withTureen = choice.parcels.find((p) => p.pieces.some((x) => x.sku === 'TU-30'));
    const withPlates = choice.parcels.find((p) => p.pieces.some((x) => x.sku === 'PP-27'));
    expect(withTureen?.box.name).toBe('Large');
    expect(withPlates?.box.name).toBe('Large');
    expect(withPlates?.pieces.filter((x) => x.sku === 'PP-27')).toHaveLength(3);
    expect(choice.reason).toMatchObject({ key: 'box.split', params: { count: 2, box: 'Large' }, message: '2 boxes: no single box holds the items (Large is the largest)' });
  });

  it('the decorated vase goes in Large on its side (20 × 20 × 30 does not stand in 20 cm)', () => {
    const choice = chooseBoxes(pieces(['VS-DEC', 1]), PRESETS, NO_LIMITS);
    expect(choice).toMatchObject({ ok: true, parcels: [{ box: { name: 'Large' } }], reason: { key: 'box.pieceTooBig', message: 'Box Large: VS-DEC 20 × 20 × 30 cm does not fit Medium' } });
  });
});

describe('chooseBoxes: the rules around the packing', () => {
  it('the smallest box by volume, then by tare, that holds the items', () => {
    expect(presetsBySize([LARGE, box('Light', 30, 20, 15, 0.1), MEDIUM, SMALL]).map((b) => b.name)).toEqual(['Small', 'Light', 'Medium', 'Large']);
    const one = chooseBoxes(pieces(['CUP', 1]), [LARGE, MEDIUM, box('Light', 25, 20, 10, 0.1), SMALL], NO_LIMITS);
    expect(one).toMatchObject({ ok: true, parcels: [{ box: { name: 'Light' } }], reason: { key: 'box.smallest', params: { box: 'Light' } } });
  });

  it('items that fit one by one but not together go up a box, and the reason says so', () => {
    // Small (25 × 20 × 10) holds 2 × 2 standing cups (9 × 9 × 10); 6 cups do not fit in it together.
    const six = chooseBoxes(pieces(['CUP', 6]), PRESETS, NO_LIMITS);
    expect(six).toMatchObject({ ok: true, parcels: [{ box: { name: 'Medium' } }], reason: { key: 'box.together', params: { count: 6, smaller: 'Small' } } });
  });

  it('the margin is taken from every wall: Large less 2 cm (36 × 26 × 16) still holds the teapot, less 3 cm (34 × 24 × 14) does not', () => {
    expect(chooseBoxes(pieces(['TE-1L', 1]), PRESETS, NO_LIMITS)).toMatchObject({ ok: true, parcels: [{ box: { name: 'Large' } }] });
    expect(chooseBoxes(pieces(['TE-1L', 1]), PRESETS, { marginCm: 2, maxKg: null })).toMatchObject({ ok: true, parcels: [{ box: { name: 'Large' } }] });
    expect(chooseBoxes(pieces(['TE-1L', 1]), PRESETS, { marginCm: 3, maxKg: null })).toMatchObject({ ok: false, reason: { key: 'box.noneFits', params: { sku: 'TE-1L' } } });
    // With 1 cm, Small is 23 × 18 × 8 inside: the cup (9 × 9 × 10) fits no way, Medium (28 × 18 × 13) holds it.
    expect(chooseBoxes(pieces(['CUP', 1]), PRESETS, { marginCm: 1, maxKg: null })).toMatchObject({ ok: true, parcels: [{ box: { name: 'Medium' } }] });
  });

  it('the parcel limit (kg, tare included) sends heavy items to more boxes', () => {
    const choice = chooseBoxes(pieces(['TU-30', 1], ['VS-DEC', 1]), PRESETS, { marginCm: 0, maxKg: 2.6 });
    expect(choice.ok).toBe(true);
    if (!choice.ok) return;
    expect(choice.parcels.map((p) => skusOf(p.pieces))).toEqual([['TU-30'], ['VS-DEC']]);
    expect(chooseBoxes(pieces(['TU-30', 1]), PRESETS, { marginCm: 0, maxKg: 2 })).toMatchObject({ ok: false, reason: { key: 'packing.piece_too_heavy', params: { sku: 'TU-30' } } });
  });

  it('goods that ship alone get a parcel of their own, in the smallest box that holds them', () => {
    const choice = chooseBoxes(pieces(['CUP', 2], ['CAR-GL', 1]), PRESETS, NO_LIMITS);
    expect(choice.ok).toBe(true);
    if (!choice.ok) return;
    expect(choice.parcels.map((p) => [p.box.name, skusOf(p.pieces)])).toEqual([
      ['Medium', ['CAR-GL']],
      ['Small', ['CUP', 'CUP']],
    ]);
    expect(choice.reason).toMatchObject({ key: 'box.alone', params: { count: 2, skus: 'CAR-GL' }, message: '2 boxes: CAR-GL travels alone' });
    // Two carafes: two parcels, never together.
    const two = chooseBoxes(pieces(['CAR-GL', 2]), PRESETS, NO_LIMITS);
    expect(two.ok && two.parcels.map((p) => p.pieces.length)).toEqual([1, 1]);
    // A carafe alone in its order: one parcel, its box and why.
    expect(chooseBoxes(pieces(['CAR-GL', 1]), PRESETS, NO_LIMITS)).toMatchObject({ ok: true, parcels: [{ box: { name: 'Medium' } }], reason: { key: 'box.pieceTooBig', params: { sku: 'CAR-GL', smaller: 'Small' } } });
  });
});

describe('chooseBoxes: edge cases', () => {
  it('an item larger than every box: a clear reason naming the SKU and its size, never a default box', () => {
    const choice = chooseBoxes([{ sku: 'MIRROR-XL', weightKg: 4, sizeCm: [60, 45, 5] }, ...pieces(['CUP', 1])], PRESETS, NO_LIMITS);
    expect(choice).toEqual({
      ok: false,
      reason: {
        key: 'box.noneFits',
        params: { sku: 'MIRROR-XL', size: '60 × 45 × 5', box: 'Large', boxSize: '40 × 30 × 20' },
        message: 'MIRROR-XL 60 × 45 × 5 cm does not fit any box (Large, the largest, is 40 × 30 × 20 cm)',
      },
    });
  });

  it('no box in the settings: the packer chooses', () => {
    expect(chooseBoxes(pieces(['CUP', 1]), [], NO_LIMITS)).toMatchObject({ ok: false, reason: { key: 'box' } });
  });

  it('quantity 40: every cup is packed, in as few boxes as the sizes allow, quickly', () => {
    const started = performance.now();
    const choice = chooseBoxes(pieces(['CUP', 40]), PRESETS, NO_LIMITS);
    const ms = performance.now() - started;
    expect(choice.ok).toBe(true);
    if (!choice.ok) return;
    // Large holds 4 × 3 × 2 = 24 standing cups (36 × 27 × 20): 40 need 2 boxes.
    expect(choice.parcels).toHaveLength(2);
    expect(choice.parcels.flatMap((p) => p.pieces)).toHaveLength(40);
    expect(choice.parcels.every((p) => p.pieces.length <= 24)).toBe(true);
    expect(ms).toBeLessThan(500);
  });
});
