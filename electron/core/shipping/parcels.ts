/**
 * Several boxes by rule (issue 24 item 5): the pieces of an order's lines
 * are packed into as few parcels of one shipment as the limits allow — the
 * rule's heaviest parcel (`maxParcelKg`) and the box's inner size (each
 * piece must fit the box; the pieces' volumes must not exceed it). First
 * fit, heaviest pieces first: simple, predictable for the packer, never
 * more than one parcel over the optimum for these sizes. Weights kg, sizes cm.
 */
import type { BoxPreset } from '../../../shared/contract/boxes';

/** One piece to pack: its weight (kg) and size (cm), each null when not known; `sku` for the messages; `shipsAlone` when it must have a parcel of its own (product data). */
export interface Piece {
  sku: string;
  weightKg: number | null;
  sizeCm: [number, number, number] | null;
  shipsAlone?: boolean;
}

/** The parcels' pieces (indexes into the input), or why they cannot be packed. */
export type Packing = { ok: true; parcels: Piece[][] } | { ok: false; reason: 'piece_too_big' | 'piece_too_heavy' | 'too_many_parcels'; sku: string };

/** Most parcels of one shipment (spec: packages 1 to 50). */
const MAX_PARCELS = 50;

const sorted = (s: readonly number[]): number[] => [...s].sort((a, b) => b - a);

/** True when a piece of size `piece` fits a box of inner size `box` (any rotation of right angles). */
export function fitsBox(piece: readonly [number, number, number], box: readonly [number, number, number]): boolean {
  const p = sorted(piece);
  const b = sorted(box);
  return p.every((v, i) => v <= (b[i] ?? 0));
}

/**
 * Packs the pieces.
 * @param maxKg heaviest parcel (kg) including the box's tare, or null (no limit)
 * @param box the box every parcel uses, or null (no size limit)
 * Pieces of unknown weight count 0 kg against `maxKg`; pieces of unknown size take no volume.
 */
export function packPieces(pieces: readonly Piece[], maxKg: number | null, box: Pick<BoxPreset, 'lengthCm' | 'widthCm' | 'heightCm' | 'tareKg'> | null): Packing {
  const boxSize: [number, number, number] | null = box ? [box.lengthCm, box.widthCm, box.heightCm] : null;
  const boxVolume = boxSize ? boxSize[0] * boxSize[1] * boxSize[2] : Infinity;
  const tare = box?.tareKg ?? 0;
  const capacityKg = maxKg === null ? Infinity : maxKg - tare;
  for (const p of pieces) {
    if (boxSize && p.sizeCm && !fitsBox(p.sizeCm, boxSize)) return { ok: false, reason: 'piece_too_big', sku: p.sku };
    if ((p.weightKg ?? 0) > capacityKg) return { ok: false, reason: 'piece_too_heavy', sku: p.sku };
  }
  const order = [...pieces].sort((a, b) => (b.weightKg ?? 0) - (a.weightKg ?? 0));
  const bins: Array<{ kg: number; volume: number; pieces: Piece[] }> = [];
  for (const p of order) {
    const kg = p.weightKg ?? 0;
    const volume = p.sizeCm ? p.sizeCm[0] * p.sizeCm[1] * p.sizeCm[2] : 0;
    let bin = bins.find((b) => b.kg + kg <= capacityKg && b.volume + volume <= boxVolume);
    if (!bin) {
      if (bins.length >= MAX_PARCELS) return { ok: false, reason: 'too_many_parcels', sku: p.sku };
      bin = { kg: 0, volume: 0, pieces: [] };
      bins.push(bin);
    }
    bin.kg += kg;
    bin.volume += volume;
    bin.pieces.push(p);
  }
  return { ok: true, parcels: bins.length ? bins.map((b) => b.pieces) : [[]] };
}
