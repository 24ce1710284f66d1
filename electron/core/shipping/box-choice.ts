/**
 * The box that fits and the split when none does (issue 37 items 1-2): from
 * the pieces' sizes (cm) and weights (kg), the smallest box preset (by inner
 * volume, then by tare) that holds them all, the pieces turned as needed,
 * inside the preset's inner size less the margin (cm, between the pieces and
 * each wall); when no preset holds them, the fewest boxes, each with its own
 * preset. A piece that ships alone gets a parcel of its own.
 *
 * The 3D placement (rotation included) is binpackingjs's `pack3D` (Dube's
 * pivot-based algorithm); this module adds the station's rules around it:
 * which presets, in which order, the margin, the weight limit, and the reason
 * in the packer's words. Every reason is a {@link PlanAttention} (a locale key
 * under `plan.attention.`, its values, the English words).
 */
import { pack3D, type Item3D } from 'binpackingjs/3d';
import type { BoxPreset } from '../../../shared/contract/boxes';
import type { PlanAttention } from '../../../shared/contract/plan';
import { fitsBox, type Piece } from './parcels';

/** A piece whose size (cm) is known. */
export type SizedPiece = Piece & { sizeCm: [number, number, number] };

/** One parcel: its box preset and the pieces it holds. */
interface BoxedParcel {
  box: BoxPreset;
  pieces: Piece[];
}

/**
 * The station's choice: the parcels (one when a box holds everything) and why
 * that box (or that split), or why no box can be chosen (`reason.key`
 * `box.noneFits` or `packing.piece_too_heavy`, naming the SKU).
 */
export type BoxChoice = { ok: true; parcels: BoxedParcel[]; reason: PlanAttention } | { ok: false; reason: PlanAttention };

/** What limits a parcel besides its box: `marginCm` between the pieces and each wall (≥ 0), `maxKg` heaviest parcel with its tare (null: no limit). */
export interface BoxLimits {
  marginCm: number;
  maxKg: number | null;
}

/** Most pieces the 3D packing takes at once (the placement grows with the cube of the count); above it the caller packs as before. */
export const MAX_CHOSEN_PIECES = 300;

const attention = (key: string, message: string, params: Record<string, string | number>): PlanAttention => ({ key, params, message });

/** `22 × 18 × 16` (cm, as the packer reads a size). */
const sizeText = (s: readonly number[]): string => s.map((v) => String(Math.round(v * 10) / 10)).join(' × ');

const volume = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);

/** The preset's inner size less the margin on each wall (cm); a side ≤ 0 holds nothing. */
function usable(box: BoxPreset, marginCm: number): [number, number, number] {
  return [box.lengthCm - 2 * marginCm, box.widthCm - 2 * marginCm, box.heightCm - 2 * marginCm];
}

/** The presets smallest first: inner volume, then tare (kg), then their place in the list. */
export function presetsBySize(presets: readonly BoxPreset[]): BoxPreset[] {
  return presets
    .map((p, i) => ({ p, i }))
    .sort((a, b) => volume([a.p.lengthCm, a.p.widthCm, a.p.heightCm]) - volume([b.p.lengthCm, b.p.widthCm, b.p.heightCm]) || a.p.tareKg - b.p.tareKg || a.i - b.i)
    .map((x) => x.p);
}

const weightOf = (pieces: readonly Piece[]): number => pieces.reduce((s, p) => s + (p.weightKg ?? 0), 0);

/** Room for the pieces' weight in `box` (kg): the limit less the tare, Infinity without a limit. */
const capacityKg = (box: BoxPreset, limits: BoxLimits): number => (limits.maxKg === null ? Infinity : limits.maxKg - box.tareKg);

/**
 * Places the pieces in one box (rotation allowed): the pieces placed and those left out.
 * Sizes go to the library in millimetres and weights in grams (whole numbers, so its own scaling stays 1).
 */
function place(box: BoxPreset, pieces: readonly SizedPiece[], limits: BoxLimits): { placed: SizedPiece[]; left: SizedPiece[] } {
  const [l, w, h] = usable(box, limits.marginCm);
  const room = capacityKg(box, limits);
  if (l <= 0 || w <= 0 || h <= 0 || room <= 0) return { placed: [], left: [...pieces] };
  const mm = (cm: number) => Math.round(cm * 10);
  const byItem = new Map<Item3D, SizedPiece>();
  const items = pieces.map((p, i) => {
    const item: Item3D = { name: String(i), width: mm(p.sizeCm[0]), height: mm(p.sizeCm[1]), depth: mm(p.sizeCm[2]), weight: Math.round((p.weightKg ?? 0) * 1000) };
    byItem.set(item, p);
    return item;
  });
  const result = pack3D({ bins: [{ name: box.name, width: mm(l), height: mm(w), depth: mm(h), maxWeight: room === Infinity ? Infinity : Math.max(1, Math.floor(room * 1000)) }], items, factor: 1 });
  const placed = (result.packedBins[0]?.items ?? []).map((it) => byItem.get(it.sourceItem)).filter((p): p is SizedPiece => p !== undefined);
  const inBox = new Set(placed);
  return { placed, left: pieces.filter((p) => !inBox.has(p)) };
}

/** True when `box` holds all the pieces at once. */
function holds(box: BoxPreset, pieces: readonly SizedPiece[], limits: BoxLimits): boolean {
  const inner = usable(box, limits.marginCm);
  if (weightOf(pieces) > capacityKg(box, limits)) return false;
  if (pieces.some((p) => !fitsBox(p.sizeCm, inner))) return false;
  if (pieces.reduce((s, p) => s + volume(p.sizeCm), 0) > volume(inner)) return false;
  return place(box, pieces, limits).left.length === 0;
}

/** The smallest preset that holds the pieces, or undefined. */
const smallestHolding = (ordered: readonly BoxPreset[], pieces: readonly SizedPiece[], limits: BoxLimits): BoxPreset | undefined => ordered.find((b) => holds(b, pieces, limits));

/** Why `smaller` (the next box down) does not hold the pieces that `box` holds, in the packer's words. */
function whyNotSmaller(box: BoxPreset, smaller: BoxPreset | undefined, pieces: readonly SizedPiece[], limits: BoxLimits): PlanAttention {
  const size = sizeText([box.lengthCm, box.widthCm, box.heightCm]);
  if (!smaller) return attention('box.smallest', `Box ${box.name} ${size} cm: the smallest box that holds the items`, { box: box.name, size });
  const inner = usable(smaller, limits.marginCm);
  const big = pieces.find((p) => !fitsBox(p.sizeCm, inner));
  if (big) return attention('box.pieceTooBig', `Box ${box.name}: ${big.sku} ${sizeText(big.sizeCm)} cm does not fit ${smaller.name}`, { box: box.name, sku: big.sku, size: sizeText(big.sizeCm), smaller: smaller.name });
  if (weightOf(pieces) > capacityKg(smaller, limits)) return attention('box.tooHeavyFor', `Box ${box.name}: the items are heavier than the parcel limit in ${smaller.name}`, { box: box.name, smaller: smaller.name });
  return attention('box.together', `Box ${box.name}: the ${pieces.length} items do not fit together in ${smaller.name}`, { box: box.name, count: pieces.length, smaller: smaller.name });
}

/** Spreads the pieces over the fewest boxes: each round fills the preset that takes the most volume, then each parcel gets the smallest preset that holds it. */
function split(ordered: readonly BoxPreset[], pieces: readonly SizedPiece[], limits: BoxLimits): BoxedParcel[] {
  const parcels: BoxedParcel[] = [];
  let left = [...pieces];
  while (left.length) {
    let best: { box: BoxPreset; placed: SizedPiece[]; volume: number } | null = null;
    for (const box of [...ordered].reverse()) {
      // A box no larger than the volume already placed cannot take more.
      if (best && volume(usable(box, limits.marginCm)) <= best.volume) continue;
      const { placed } = place(box, left, limits);
      const v = placed.reduce((s, p) => s + volume(p.sizeCm), 0);
      if (placed.length && (!best || v > best.volume)) best = { box, placed, volume: v };
    }
    // Every piece fits some box alone (checked before): a round that places nothing takes one piece in its own box.
    const first = left[0];
    const round = best ?? (first ? { box: smallestHolding(ordered, [first], limits) ?? ordered[ordered.length - 1], placed: [first] } : null);
    if (!round?.box) break;
    const taken = new Set(round.placed);
    left = left.filter((p) => !taken.has(p));
    // A smaller box may hold what this round placed; the round's own box does (no second packing of it).
    parcels.push({ box: smallestHolding(ordered.slice(0, ordered.indexOf(round.box)), round.placed, limits) ?? round.box, pieces: round.placed });
  }
  return parcels;
}

/**
 * Chooses the box (or boxes) for the pieces, all of known size.
 * @param presets the boxes to choose from (the station's, or the one a rule or the packer names)
 * @returns the parcels smallest box first per group, or why none can hold a piece (never a silent default)
 */
export function chooseBoxes(pieces: readonly SizedPiece[], presets: readonly BoxPreset[], limits: BoxLimits): BoxChoice {
  const ordered = presetsBySize(presets);
  const largest = ordered[ordered.length - 1];
  if (!largest) return { ok: false, reason: attention('box', 'Choose a box (no box in Settings › Boxes)', {}) };
  for (const p of pieces) {
    if (!ordered.some((b) => fitsBox(p.sizeCm, usable(b, limits.marginCm)))) {
      const names = ordered.length === 1 ? largest.name : `${largest.name}, the largest,`;
      return {
        ok: false,
        reason: attention('box.noneFits', `${p.sku} ${sizeText(p.sizeCm)} cm does not fit any box (${names} is ${sizeText([largest.lengthCm, largest.widthCm, largest.heightCm])} cm)`, {
          sku: p.sku,
          size: sizeText(p.sizeCm),
          box: largest.name,
          boxSize: sizeText([largest.lengthCm, largest.widthCm, largest.heightCm]),
        }),
      };
    }
    if (!ordered.some((b) => (p.weightKg ?? 0) <= capacityKg(b, limits))) return { ok: false, reason: attention('packing.piece_too_heavy', `${p.sku} is heavier than the rule's parcel limit`, { sku: p.sku }) };
  }
  const alone = pieces.filter((p) => p.shipsAlone === true);
  const together = pieces.filter((p) => p.shipsAlone !== true);
  const parcels: BoxedParcel[] = alone.map((p) => ({ box: smallestHolding(ordered, [p], limits) ?? largest, pieces: [p] }));
  if (together.length === 0 && alone.length === 1 && parcels[0]) {
    const box = parcels[0].box;
    return { ok: true, parcels, reason: whyNotSmaller(box, ordered[ordered.indexOf(box) - 1], alone, limits) };
  }
  const single = together.length ? smallestHolding(ordered, together, limits) : undefined;
  if (single && alone.length === 0) return { ok: true, parcels: [{ box: single, pieces: [...together] }], reason: whyNotSmaller(single, ordered[ordered.indexOf(single) - 1], together, limits) };
  if (together.length) parcels.push(...(single ? [{ box: single, pieces: [...together] }] : split(ordered, together, limits)));
  const aloneSkus = [...new Set(alone.map((p) => p.sku))].join(', ');
  const reason = alone.length
    ? attention('box.alone', `${parcels.length} boxes: ${aloneSkus} travels alone`, { count: parcels.length, skus: aloneSkus })
    : attention('box.split', `${parcels.length} boxes: no single box holds the items (${largest.name} is the largest)`, { count: parcels.length, box: largest.name });
  return { ok: true, parcels, reason };
}
