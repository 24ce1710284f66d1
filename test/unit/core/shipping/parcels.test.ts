/** Several boxes by rule (issue 24 item 5): pieces packed by weight limit and box size, first fit heaviest first. */
import { describe, expect, it } from 'vitest';
import { fitsBox, packPieces, type Piece } from '../../../../electron/core/shipping/parcels';

const piece = (sku: string, weightKg: number | null, sizeCm: [number, number, number] | null = null): Piece => ({ sku, weightKg, sizeCm });
const box = { lengthCm: 40, widthCm: 30, heightCm: 20, tareKg: 0.5 };

describe('packPieces', () => {
  it('one parcel when nothing limits', () => {
    const res = packPieces([piece('A', 3), piece('B', 4)], null, null);
    expect(res).toEqual({ ok: true, parcels: [[piece('B', 4), piece('A', 3)]] });
  });

  it('splits by the rule’s heaviest parcel, tare included', () => {
    const res = packPieces([piece('A', 6), piece('A', 6), piece('B', 3)], 10, box);
    expect(res.ok && res.parcels.map((p) => p.map((x) => x.sku))).toEqual([['A', 'B'], ['A']]);
  });

  it('splits by the box volume and refuses a piece larger than the box or heavier than the limit', () => {
    const big: [number, number, number] = [30, 30, 20];
    const res = packPieces([piece('P', 1, big), piece('P', 1, big)], null, box);
    expect(res.ok && res.parcels.length).toBe(2);
    expect(packPieces([piece('X', 1, [50, 10, 10])], null, box)).toEqual({ ok: false, reason: 'piece_too_big', sku: 'X' });
    expect(packPieces([piece('H', 12)], 10, box)).toEqual({ ok: false, reason: 'piece_too_heavy', sku: 'H' });
    expect(fitsBox([20, 40, 30], [40, 30, 20])).toBe(true);
  });

  it('refuses more than 50 parcels', () => {
    const many = Array.from({ length: 51 }, () => piece('M', 9));
    expect(packPieces(many, 10, null)).toEqual({ ok: false, reason: 'too_many_parcels', sku: 'M' });
  });
});
