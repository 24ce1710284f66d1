/**
 * Boxes learnt from the bench (issue 37 item 3): when a packer ships a set of
 * items (the order's SKUs and quantities, as a multiset) in one box other
 * than the one the station chose, the station remembers that box for that set
 * and proposes it; confirmed once, as learnt weights are: the first time it
 * is a suggestion the packer accepts or rejects (`shipping.learntBoxes.resolve`), and
 * once accepted the plan uses it before the station's own choice (a rule's
 * box still wins: ./plan.ts).
 *
 * Kept in the setting `boxes.learnt` (this station's, not shared): at most
 * {@link MAX_LEARNT} sets, the oldest dropped first. Only a shipment of one
 * parcel in a box preset teaches (a split or a box typed by hand tells no box
 * for the set); an order with a line without SKU teaches nothing.
 */
import { z } from 'zod';
import type { LearntBoxView } from '../../../shared/contract/boxes';
import type { StationOrder } from '../../../shared/domain/order';
import { defineSetting, type Store } from '../store';
import { linesToShip } from '../products/weight';

/** Most sets of items remembered. */
const MAX_LEARNT = 500;

const LearntBox = z.object({
  key: z.string(),
  box: z.string().nullable(),
  proposed: z.string().nullable(),
  source: z.string(),
  learntAt: z.string(),
});
type LearntBox = z.output<typeof LearntBox>;

/** `boxes.learnt`: the sets of items and their boxes, oldest first. */
const LearntBoxesSetting = defineSetting('boxes.learnt', z.array(LearntBox).max(MAX_LEARNT), []);

const sameName = (a: string | null | undefined, b: string | null | undefined): boolean => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * The key of a set of items: `SKU×quantity` per SKU (quantities of the same SKU added), SKUs sorted,
 * joined by `, ` (`CUP×2, TE-1L×1`); null when a line has no SKU or nothing ships.
 */
export function itemsKey(lines: ReadonlyArray<{ sku?: string | null | undefined; quantity: number }>): string | null {
  const counts = new Map<string, number>();
  for (const l of lines) {
    if (l.quantity <= 0) continue;
    const sku = l.sku?.trim();
    if (!sku) return null;
    counts.set(sku, (counts.get(sku) ?? 0) + l.quantity);
  }
  if (counts.size === 0) return null;
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([sku, q]) => `${sku}×${q}`)
    .join(', ');
}

/** The SKUs and quantities of a key made by {@link itemsKey}. */
function itemsOf(key: string): LearntBoxView['items'] {
  return key.split(', ').map((part) => {
    const at = part.lastIndexOf('×');
    return { sku: part.slice(0, at), quantity: Number(part.slice(at + 1)) };
  });
}

const viewOf = (l: LearntBox): LearntBoxView => ({ ...l, items: itemsOf(l.key) });

/** The box accepted for the order's set of items (a preset name as the packer used it), or null. */
export function learntBoxFor(store: Store, order: StationOrder): string | null {
  const key = itemsKey(linesToShip(order));
  if (!key) return null;
  return store.settings.get(LearntBoxesSetting).find((l) => l.key === key)?.box ?? null;
}

/**
 * Learns from an order shipped in one box: when `used` (the preset the parcel was packed in) differs
 * from `chosen` (the box the station's plan chose without the packer), `used` becomes the box
 * proposed for the order's set of items, unless it is already the accepted or the proposed one.
 * @param source what the suggestion names as its origin (`shipment Ceramiche #5001`)
 * @returns true when a box was proposed. Never throws: a store that refuses leaves the shipment as it is.
 */
export function learnBoxFromShipment(store: Store, order: StationOrder, used: string, chosen: string | null, source: string): boolean {
  try {
    if (sameName(used, chosen)) return false;
    const key = itemsKey(linesToShip(order));
    if (!key) return false;
    const all = store.settings.get(LearntBoxesSetting);
    const known = all.find((l) => l.key === key);
    if (known && (sameName(known.box, used) || sameName(known.proposed, used))) return false;
    const next: LearntBox = { key, box: known?.box ?? null, proposed: used, source, learntAt: new Date().toISOString() };
    const kept = all.filter((l) => l.key !== key);
    store.settings.set(LearntBoxesSetting, [...kept.slice(Math.max(0, kept.length - MAX_LEARNT + 1)), next]);
    return true;
  } catch {
    return false;
  }
}

/** Every set of items with a box accepted or waiting, oldest first. */
export function learntBoxes(store: Store): LearntBoxView[] {
  return store.settings.get(LearntBoxesSetting).map(viewOf);
}

/**
 * Accepts (the set takes the proposed box) or rejects (the proposal is dropped; the accepted box stays)
 * the box waiting for `key`.
 * @returns the set after, or null when no box waits for `key` (a set left with no box at all is forgotten)
 */
export function resolveLearntBox(store: Store, key: string, accept: boolean): LearntBoxView | null {
  const all = store.settings.get(LearntBoxesSetting);
  const known = all.find((l) => l.key === key);
  if (!known?.proposed) return null;
  const after: LearntBox = { ...known, box: accept ? known.proposed : known.box, proposed: null };
  store.settings.set(
    LearntBoxesSetting,
    all.flatMap((l) => (l.key !== key ? [l] : after.box ? [after] : [])),
  );
  return viewOf(after);
}
