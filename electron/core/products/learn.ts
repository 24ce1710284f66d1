/**
 * Unit weights learnt from plain shipments (issue 24 item 3; declarations
 * teach theirs in shipping/customs.ts). A shipment tells one SKU's unit
 * weight when its lines are all that SKU, or when every other line's weight
 * is known: the parcels' weight minus their boxes' tare, minus the known
 * lines, divided by the SKU's quantity. Like every learnt value, an unknown
 * weight is filled and a changed one becomes a suggestion the packer
 * confirms (`store.products.learn`); nothing known is overwritten.
 *
 * A scale reads a few grams apart from one parcel to the next: a candidate
 * within {@link SAME_WEIGHT_KG} or {@link SAME_WEIGHT_SHARE} of the known
 * weight is the same weight (no suggestion, and a pending one is left as it
 * is). Weights kg, sizes cm.
 */
import type { StationOrder } from '../../../shared/domain/order';
import type { Store } from '../store';
import { linesToShip, unitWeights } from './weight';

/** A candidate this close to the known unit weight (kg) is the same weight. */
const SAME_WEIGHT_KG = 0.005;
/** ...or this close, as a share of the known unit weight. */
const SAME_WEIGHT_SHARE = 0.02;

/** One shipped parcel: its gross weight and its box's tare, kg. */
export interface ShippedParcel {
  weightKg: number;
  tareKg: number;
}

/** The SKU a shipment tells the unit weight of, and that weight (kg, to the gram). */
export interface WeightCandidate {
  sku: string;
  unitWeightKg: number;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * The unit weight a shipment tells, or null when it tells none: a line
 * without SKU, two or more SKUs without a known weight (or several SKUs all
 * known: which one changed is not told), no parcel, or a result of 0 g or less.
 * @param lines the lines shipped (SKU, quantity)
 * @param known unit weights known, kg by SKU
 * @param parcels the parcels shipped, gross weight and tare, kg
 */
export function unitWeightCandidate(
  lines: ReadonlyArray<{ sku?: string | undefined; quantity: number }>,
  known: ReadonlyMap<string, number>,
  parcels: readonly ShippedParcel[],
): WeightCandidate | null {
  const shipped = lines.filter((l) => l.quantity > 0);
  if (shipped.length === 0 || parcels.length === 0) return null;
  const skus = new Set<string>();
  for (const l of shipped) {
    const sku = l.sku?.trim();
    if (!sku) return null;
    skus.add(sku);
  }
  const unknown = [...skus].filter((s) => !known.has(s));
  const subject = skus.size === 1 ? [...skus][0] : unknown.length === 1 ? unknown[0] : undefined;
  if (subject === undefined) return null;
  let others = 0;
  let quantity = 0;
  for (const l of shipped) {
    if (l.sku?.trim() === subject) quantity += l.quantity;
    else others += (known.get(l.sku?.trim() ?? '') ?? 0) * l.quantity;
  }
  const net = parcels.reduce((s, p) => s + p.weightKg - p.tareKg, 0) - others;
  const unitWeightKg = round3(net / quantity);
  return unitWeightKg >= 0.001 ? { sku: subject, unitWeightKg } : null;
}

/** True when `candidate` (kg) is the known weight within the scale's noise. */
function sameWeight(known: number, candidate: number): boolean {
  return Math.abs(candidate - known) <= Math.max(SAME_WEIGHT_KG, known * SAME_WEIGHT_SHARE);
}

/**
 * Learns a unit weight from an order's plain shipment (see the module doc).
 * @param source what the suggestion names as its origin (`shipment #1001`)
 * @returns the learnt candidate (filled, or proposed when it changed), or null when the shipment told nothing new.
 *   Never throws: a store that refuses (a full disk) leaves the shipment as it is.
 */
export function learnWeightFromShipment(store: Store, order: StationOrder, parcels: readonly ShippedParcel[], source: string): WeightCandidate | null {
  try {
    const lines = linesToShip(order);
    const known = unitWeights(store, lines.map((l) => l.sku).filter((s): s is string => !!s));
    const candidate = unitWeightCandidate(lines, known, parcels);
    if (!candidate) return null;
    const current = known.get(candidate.sku);
    if (current !== undefined && sameWeight(current, candidate.unitWeightKg)) return null;
    // A weight in use that came from the items (scan to verify), not product data, is written there first,
    // so the new one is a suggestion rather than a silent change of the weight in use.
    if (current !== undefined && store.products.getMany([candidate.sku])[0]?.unitWeightKg == null) {
      store.products.learn([{ sku: candidate.sku, unitWeightKg: current }], source);
    }
    store.products.learn([{ sku: candidate.sku, unitWeightKg: candidate.unitWeightKg }], source);
    return candidate;
  } catch {
    return null;
  }
}
