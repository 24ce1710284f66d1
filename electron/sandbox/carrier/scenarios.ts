/**
 * The simulated carrier's fixed rules: which journey a shipment takes
 * (scenario, from a hash of its tracking number or a `sandbox:<scenario>`
 * token in its notes), transit days by zone, the stock term and reasons, the
 * delivery document number (BDA), and when the carrier collects a parcel.
 * Numbers and their meaning: electron/sandbox/README.md, "Tracking and stocks".
 */
import { fnv1a } from '../../../shared/domain/random';
import type { ShipmentRecord, ZoneId } from '../model';
import { MINUTE, localDate } from '../time';
import { isWorkingDay, localInstant, localMinutes, nextWorkingDay } from '../workdays';

/** How a shipment's journey goes. */
export type Scenario = 'delivered' | 'second_attempt' | 'held' | 'held_twice' | 'awaiting_collection' | 'refused';

/** Every scenario, in the order of their hash buckets. */
export const SCENARIOS: ReadonlyArray<Scenario> = ['delivered', 'second_attempt', 'held', 'held_twice', 'awaiting_collection', 'refused'];

/**
 * Upper bounds (per mille, exclusive) of each scenario's bucket of the
 * tracking-number hash: 88% delivered, 4% second attempt, 4% held (stock),
 * 1% held twice (a second dossier after the release), 2% awaiting collection,
 * 1% refused and returned.
 */
const SCENARIO_BUCKETS: ReadonlyArray<readonly [number, Scenario]> = [
  [880, 'delivered'],
  [920, 'second_attempt'],
  [960, 'held'],
  [970, 'held_twice'],
  [990, 'awaiting_collection'],
  [1000, 'refused'],
];

/** Working days from the day the parcel leaves the origin depot to the delivery day, by destination zone. */
export const TRANSIT_DAYS: Readonly<Record<ZoneId, number>> = {
  italy: 1,
  italy_calabria_sicily: 2,
  italy_sardinia: 2,
  italy_minor_islands: 3,
  eu_1: 2,
  eu_2: 3,
  europe_non_eu: 4,
  world: 5,
};

/** Calendar days a stock stays at the depot awaiting instructions (the `deadline` is the opening date plus these). */
export const STOCK_TERM_DAYS = 10;

/** Reasons a carrier opens a stock: `code` and the carrier's text. */
export const STOCK_REASONS: ReadonlyArray<{ code: string; description: string }> = [
  { code: 'recipient_absent', description: 'Destinatario assente' },
  { code: 'address_incomplete', description: 'Indirizzo insufficiente o errato' },
  { code: 'business_closed', description: 'Esercizio chiuso' },
];

/**
 * Scenario of a shipment: a `sandbox:<scenario>` token in its notes
 * (`sandbox:held`, `sandbox:held-twice`, ...) forces one — a documented
 * training aid; otherwise the FNV-1a hash of the tracking number modulo 1000
 * picks the bucket of {@link SCENARIO_BUCKETS}.
 */
export function scenarioOf(s: Pick<ShipmentRecord, 'trackingNumber' | 'notes'>): Scenario {
  // Every token is looked at: other `sandbox:` tokens (e.g. `sandbox:return-failed`
  // of routes/shipments.ts) may come before the scenario's.
  for (const m of (s.notes ?? '').matchAll(/sandbox:([a-z_-]+)/gi)) {
    const named = (m[1] ?? '').toLowerCase().replace(/-/g, '_');
    const found = SCENARIOS.find((x) => x === named);
    if (found) return found;
  }
  const bucket = fnv1a(s.trackingNumber) % 1000;
  for (const [max, scenario] of SCENARIO_BUCKETS) if (bucket < max) return scenario;
  return 'delivered';
}

/**
 * The carrier's delivery document number (BDA) of a shipment: 14 digits,
 * `yymmdd` of the creation date (Europe/Rome) followed by the shipment id on 8
 * digits. Used by `GET /tracking/bda/{bda}`; shown as `bda` on the shipment detail.
 */
export function bdaOf(s: Pick<ShipmentRecord, 'id' | 'createdAt'>): string {
  return localDate(s.createdAt).slice(2).replace(/-/g, '') + String(s.id).padStart(8, '0');
}

/** First instant at least one hour after `t` inside working hours 09:00–18:00 of a working day (Europe/Rome). */
export function collectionAfter(t: Date): Date {
  const ready = new Date(Math.ceil((t.getTime() + 60 * MINUTE) / MINUTE) * MINUTE);
  const day = localDate(ready);
  const mins = localMinutes(ready);
  if (isWorkingDay(day) && mins <= 18 * 60) return mins < 9 * 60 ? localInstant(day, 9, 0) : ready;
  return localInstant(nextWorkingDay(day), 9, 0);
}
