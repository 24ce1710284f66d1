/**
 * The parcels of a plan and their boxes (issue 37 items 1-2): whose box
 * counts (the packer's, the rule's, or the station's choice among its
 * presets) and what the plan says about it. With every piece's size known
 * (cm), the boxes are chosen by ./box-choice.ts (3D, rotation, margin); with
 * a size unknown, the pieces are packed as before (./parcels.ts: the one box,
 * volumes added), in the station's default box. Weights kg, sizes cm.
 */
import type { BoxPreset } from '../../../shared/contract/boxes';
import type { PlanAttention, PlanParcel } from '../../../shared/contract/plan';
import { chooseBoxes, MAX_CHOSEN_PIECES, type BoxLimits, type SizedPiece } from './box-choice';
import { packPieces, type Piece } from './parcels';

/**
 * Where the box comes from: the packer's choice, the rule's box, the box the packer accepted for
 * these items (`learnt`, ./box-learn.ts), or the station's presets (and its default box, for pieces of unknown size).
 */
export type BoxSource = { kind: 'packer' | 'rule' | 'learnt'; box: BoxPreset } | { kind: 'station'; presets: readonly BoxPreset[]; defaultBox: BoxPreset | null };

/** The parcels, each with its box (null: no box known), and which box and why; or why the pieces cannot be packed. */
export type ParcelLayout = { ok: true; parcels: Array<{ box: BoxPreset | null; pieces: Piece[] }>; reason: PlanAttention | null } | { ok: false; reason: PlanAttention };

const attention = (key: string, message: string, params: Record<string, string | number> = {}): PlanAttention => ({ key, params, message });

const isSized = (p: Piece): p is SizedPiece => p.sizeCm !== null;

/** Today's message of a packing that failed with one box for all (./parcels.ts). */
function packingFailed(reason: 'piece_too_big' | 'piece_too_heavy' | 'too_many_parcels', sku: string): PlanAttention {
  const message = reason === 'piece_too_big' ? `${sku} does not fit the box` : reason === 'piece_too_heavy' ? `${sku} is heavier than the rule's parcel limit` : 'The order needs more than 50 parcels';
  return attention(`packing.${reason}`, message, { sku });
}

/** Why this box when the packer, a rule or what the bench learnt named it. */
function namedReason(kind: 'packer' | 'rule' | 'learnt', box: BoxPreset, count: number): PlanAttention {
  const parcels = count > 1 ? ` (${count} parcels)` : '';
  if (kind === 'rule') return attention('box.rule', `Box ${box.name}: the rule's box${parcels}`, { box: box.name, count });
  if (kind === 'learnt') return attention('box.learnt', `Box ${box.name}: chosen by the packer for these items${parcels}`, { box: box.name, count });
  return attention('box.packer', `Box ${box.name}: chosen by the packer${parcels}`, { box: box.name, count });
}

/**
 * Lays the pieces out in parcels.
 * @param limits `marginCm` between the items and each wall (cm), `maxKg` the rule's heaviest parcel with its tare (kg) or null
 * @returns the parcels, or the reason (a rule's box that cannot hold a piece is refused with the piece and its size)
 */
export function layoutParcels(pieces: readonly Piece[], source: BoxSource, limits: BoxLimits): ParcelLayout {
  const sized = pieces.length > 0 && pieces.length <= MAX_CHOSEN_PIECES && pieces.every(isSized);
  if (source.kind !== 'station') {
    const { box, kind } = source;
    if (sized) {
      const choice = chooseBoxes(pieces.filter(isSized), [box], limits);
      if (choice.ok) return { ok: true, parcels: choice.parcels, reason: namedReason(kind, box, choice.parcels.length) };
      const { key, params } = choice.reason;
      if (kind === 'rule' && key === 'box.noneFits') {
        return { ok: false, reason: attention('box.ruleRefused', `The rule's box ${box.name} is refused: ${params.sku} ${params.size} cm does not fit it`, { box: box.name, sku: params.sku ?? '', size: params.size ?? '' }) };
      }
      if (key === 'box.noneFits') return { ok: false, reason: attention('box.doesNotHold', `${params.sku} ${params.size} cm does not fit ${box.name}`, { box: box.name, sku: params.sku ?? '', size: params.size ?? '' }) };
      return choice;
    }
    const packing = packPieces(pieces, limits.maxKg, box);
    if (!packing.ok) return { ok: false, reason: packingFailed(packing.reason, packing.sku) };
    return { ok: true, parcels: packing.parcels.map((ps) => ({ box, pieces: ps })), reason: namedReason(kind, box, packing.parcels.length) };
  }
  if (sized && source.presets.length) return chooseBoxes(pieces.filter(isSized), source.presets, limits);
  const box = source.defaultBox;
  const packing = packPieces(pieces, limits.maxKg, box);
  if (!packing.ok) return { ok: false, reason: packingFailed(packing.reason, packing.sku) };
  const unsized = pieces.find((p) => p.sizeCm === null);
  const reason = !box
    ? null
    : unsized
      ? attention('box.default', `Box ${box.name}: the default box (the size of ${unsized.sku} is not known)`, { box: box.name, sku: unsized.sku })
      : attention('box.defaultOnly', `Box ${box.name}: the default box`, { box: box.name });
  return { ok: true, parcels: packing.parcels.map((ps) => ({ box, pieces: ps })), reason };
}

/** The plan's view of the parcels: box, items per SKU (in order of first appearance) and weight (kg, product data plus tare; null when no piece's weight is known). */
export function parcelViews(parcels: ReadonlyArray<{ box: BoxPreset | null; pieces: readonly Piece[] }>): PlanParcel[] {
  return parcels.map(({ box, pieces }) => {
    const counts = new Map<string, number>();
    for (const p of pieces) counts.set(p.sku, (counts.get(p.sku) ?? 0) + 1);
    const known = pieces.filter((p) => p.weightKg !== null);
    const weightKg = known.length ? Math.round((known.reduce((s, p) => s + (p.weightKg ?? 0), 0) + (box?.tareKg ?? 0)) * 1000) / 1000 : null;
    return { box, items: [...counts].map(([sku, quantity]) => ({ sku, quantity })), weightKg };
  });
}
