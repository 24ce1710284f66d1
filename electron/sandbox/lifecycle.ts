/**
 * The simulated carrier: moves every shipment through the spec's statuses
 * over SIMULATED time (spec: States and transitions > Shipment status, Stock;
 * Events), opens and closes stocks, and emits `tracking.update`,
 * `stock.opened` and `stock.closed` on the event bus.
 *
 * How it works (details and the numbers in README.md, "Tracking and stocks"):
 * - Each shipment gets a journey: a scenario chosen deterministically from its
 *   tracking number (about 88% delivered at the first attempt, 12% exceptions),
 *   or forced by a `sandbox:<scenario>` token in `options.notes`.
 * - Nothing moves before the carrier collects the parcel: one hour after the
 *   manifest that contains it (working hours 09:00–18:00), or, when never put
 *   in a manifest, at 18:00 of the next working day. Then the plan unfolds:
 *   in transit, arrival at the destination depot, out for delivery on the
 *   delivery day (working days per zone), delivered — or the scenario's exception.
 * - The state advances lazily: {@link ShipmentLifecycle.advance} applies every
 *   planned step whose instant has passed on the simulated clock, in time
 *   order across shipments. The app calls it on every request and whenever
 *   the clock is moved, so time jumps replay the carrier's events in order.
 * - Instants are computed in Europe/Rome on Italian carrier working days
 *   (workdays.ts); every event carries the instant it happened at.
 */
import { fnv1a } from '../../shared/domain/random';
import { statusOf } from '../../shared/platform/common';
import type { Address } from '../../shared/platform/common';
import type { Stock, StockActionName, StockActionRequest, StockOutcome, TrackingRecord } from '../../shared/platform/tracking';
import { fieldError, invalidState } from './errors';
import type { SandboxEvent } from './events';
import type { ShipmentRecord, ZoneId } from './model';
import type { SandboxState } from './state';
import { addDays, isCalendarDate, localDate, localIso } from './time';
import { addWorkingDays, isWorkingDay, legacyDateTime, localInstant, localMinutes, nextWorkingDay } from './workdays';
import { zoneOf } from './zones';

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
const TRANSIT_DAYS: Readonly<Record<ZoneId, number>> = {
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
const STOCK_TERM_DAYS = 10;

/** Reasons a carrier opens a stock: `code` and the carrier's text. */
const STOCK_REASONS: ReadonlyArray<{ code: string; description: string }> = [
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

/** One event of a shipment's tracking history. */
export interface TrackingEntry {
  at: Date;
  /** Status after the event. */
  statusCode: number;
  /** Carrier's text (Stato). */
  description: string;
  /** Where it happened (Luogo). */
  location: string;
}

/** Side effects of a planned step. */
type Effect =
  | { kind: 'pickup' }
  | { kind: 'delivered' }
  | { kind: 'reissue'; ldv: string }
  | { kind: 'open_stock'; reason: { code: string; description: string }; location: string }
  | { kind: 'close_stock'; outcome: StockOutcome };

/** A planned carrier event. */
interface Step extends TrackingEntry {
  effects: Effect[];
}

/** A stock (giacenza) as the sandbox keeps it. */
export interface StockRecord {
  id: number;
  accountId: number;
  shipmentId: number;
  /** Carrier dossier number (`giacenza_id`). */
  giacenzaId: string;
  /** 1 for the parcel's first stock, 2 for the next one, ... */
  dossier: number;
  status: 'open' | 'instructed' | 'closed';
  /** LDV the parcel was held under. */
  carrierTrackingNumber: string;
  /** New LDV issued when this stock was released (redirection), else null. */
  reissuedTrackingNumber: string | null;
  reason: { code: string; description: string };
  /** Depot holding the parcel. */
  location: string;
  openedAt: Date;
  /** Last date (YYYY-MM-DD, Europe/Rome) to give instructions. */
  deadline: string;
  action: StockActionName | null;
  actionDetails: Record<string, unknown> | null;
  instructedAt: Date | null;
  sentToCarrier: boolean | null;
  outcome: StockOutcome | null;
  closedAt: Date | null;
}

/** Progress of one shipment. */
interface Journey {
  shipment: ShipmentRecord;
  scenario: Scenario;
  /** History, oldest first. */
  entries: TrackingEntry[];
  /** Planned steps, earliest first; null while waiting for the carrier to collect. */
  steps: Step[] | null;
  /** LDV the parcel travels under now. */
  carrierTrackingNumber: string;
  /** Stocks opened so far on the parcel. */
  dossiers: number;
  /** Stock not yet closed, or null. */
  stockId: number | null;
  /** Cached collection instant with the manifest it was computed for. */
  pickupCache?: { manifestId: number | null; at: number };
}

const MINUTE = 60_000;

/** Depot/city label of an address: city upper case, with the country code abroad (`BERLIN (DE)`). */
function placeOf(a: Pick<Address, 'city' | 'countryCode'>): string {
  const city = a.city.trim().toUpperCase();
  return a.countryCode.toUpperCase() === 'IT' ? city : `${city} (${a.countryCode.toUpperCase()})`;
}

const plus = (d: Date, minutes: number) => new Date(d.getTime() + minutes * MINUTE);

/** The simulated carrier of a sandbox; one per {@link SandboxState} (`state.lifecycle`). */
export class ShipmentLifecycle {
  /** Every stock ever opened, oldest first. */
  readonly stocks: StockRecord[] = [];
  private readonly journeys = new Map<number, Journey>();
  private readonly active = new Set<Journey>();
  /** Reissued LDV -> journey. */
  private readonly byReissued = new Map<string, Journey>();
  private scanned = 0;
  private stockSeq = 7_000;
  private advancing = false;

  constructor(private readonly state: SandboxState) {}

  /**
   * Applies, in time order across shipments, every planned carrier event whose
   * instant is not after `now` (default: the simulated clock), emitting
   * `tracking.update` on each status change and `stock.opened`/`stock.closed`.
   * Re-entrant calls (from an event listener) return at once.
   * @returns how many carrier events were applied.
   */
  advance(now: Date = this.state.clock.now()): number {
    if (this.advancing) return 0;
    this.advancing = true;
    let applied = 0;
    try {
      this.discover();
      const limit = now.getTime();
      for (;;) {
        let best: Journey | undefined;
        let bestAt = Infinity;
        for (const j of this.active) {
          const at = this.nextAt(j);
          if (at === undefined || at > limit) continue;
          if (at < bestAt || (at === bestAt && best !== undefined && j.shipment.id < best.shipment.id)) {
            best = j;
            bestAt = at;
          }
        }
        if (!best) break;
        this.step(best);
        applied++;
      }
    } finally {
      this.advancing = false;
    }
    return applied;
  }

  /**
   * Forces the scenario of a shipment the carrier has not collected yet (tests
   * and trainers; over HTTP use a `sandbox:<scenario>` token in `options.notes`).
   * @throws Error when the shipment is unknown or already collected.
   */
  setScenario(shipmentId: number, scenario: Scenario): void {
    this.discover();
    const j = this.journeys.get(shipmentId);
    if (!j) throw new Error(`setScenario: shipment ${shipmentId} is unknown`);
    if (j.steps !== null) throw new Error(`setScenario: shipment ${shipmentId} was already collected; its plan is fixed`);
    j.scenario = scenario;
  }

  /** Scenario of a known shipment, or undefined. */
  scenario(shipmentId: number): Scenario | undefined {
    this.discover();
    return this.journeys.get(shipmentId)?.scenario;
  }

  /**
   * The account's shipment whose shipment, package or reissued tracking number
   * is `ldv` (any case); undefined otherwise (also for another client's).
   */
  resolve(accountId: number, ldv: string): ShipmentRecord | undefined {
    const account = this.state.accountById(accountId);
    const direct = account ? this.state.shipmentByTracking(account, ldv) : undefined;
    if (direct) return direct;
    this.discover();
    const j = this.byReissued.get(ldv.toUpperCase());
    return j && j.shipment.accountId === accountId ? j.shipment : undefined;
  }

  /** The account's stock `id`, or undefined (also for another client's). */
  stock(accountId: number, id: number): StockRecord | undefined {
    return this.stocks.find((st) => st.id === id && st.accountId === accountId);
  }

  /** Tracking history of a shipment, oldest first. */
  history(s: ShipmentRecord): ReadonlyArray<TrackingEntry> {
    return this.journey(s).entries;
  }

  /**
   * Tracking record of a shipment (shared/platform/tracking.ts `TrackingRecord`):
   * events newest first with ISO timestamps (Europe/Rome offset).
   */
  trackingView(s: ShipmentRecord): TrackingRecord {
    const j = this.journey(s);
    return {
      trackingNumber: s.trackingNumber,
      carrierTrackingNumber: j.carrierTrackingNumber,
      bda: bdaOf(s),
      reference: s.reference,
      carrier: { code: s.carrierCode, name: s.carrierName },
      status: statusOf(s.statusCode),
      estimatedDeliveryDate: this.estimatedDelivery(j),
      deliveredAt: s.deliveredAt ? localIso(s.deliveredAt) : null,
      stockId: j.stockId,
      cancelled: s.cancelledAt !== null,
      events: [...j.entries].reverse().map((e) => ({
        timestamp: localIso(e.at),
        status: statusOf(e.statusCode),
        description: e.description,
        location: e.location,
      })),
    };
  }

  /**
   * `tracking.update` webhook payload of a shipment as of now (spec: Events >
   * tracking.update payload): common fields, then the legacy payload —
   * `vector_name`, `order_id`, `client_store_id` (null), `TrackingDettaglio[]`
   * newest first (`Data` `dd/mm/yyyy HH:MM` Europe/Rome, `Stato`, `Luogo`);
   * `statusCode` is the current status. Also used by `POST /webhooks/{id}/test`.
   * @param at the payload's `timestamp` (default: the simulated clock).
   */
  trackingUpdatePayload(s: ShipmentRecord, at: Date = this.state.clock.now()): Record<string, unknown> {
    const j = this.journey(s);
    return {
      ...this.state.events.common('tracking.update', s, at),
      vector_name: s.carrierName,
      order_id: s.reference,
      client_store_id: null,
      TrackingDettaglio: [...j.entries].reverse().map((e) => ({ Data: legacyDateTime(e.at), Stato: e.description, Luogo: e.location })),
    };
  }

  /** Stock record on the wire (shared/platform/tracking.ts `Stock`). */
  stockView(st: StockRecord): Stock {
    const j = this.journeys.get(st.shipmentId);
    const s = j?.shipment ?? this.state.shipments.find((x) => x.id === st.shipmentId);
    if (!s) throw new Error(`Stock ${st.id}: shipment ${st.shipmentId} is missing`);
    return {
      id: st.id,
      giacenzaId: st.giacenzaId,
      dossier: st.dossier,
      status: st.status,
      trackingNumber: s.trackingNumber,
      carrierTrackingNumber: st.carrierTrackingNumber,
      reissuedTrackingNumber: st.reissuedTrackingNumber,
      shipmentId: s.id,
      reference: s.reference,
      carrier: { code: s.carrierCode, name: s.carrierName },
      reason: { ...st.reason },
      location: st.location,
      shipmentStatus: statusOf(s.statusCode),
      openedAt: localIso(st.openedAt),
      deadline: st.deadline,
      action: st.action,
      actionDetails: st.actionDetails ? { ...st.actionDetails } : null,
      instructedAt: st.instructedAt ? localIso(st.instructedAt) : null,
      sentToCarrier: st.sentToCarrier,
      outcome: st.outcome,
      closedAt: st.closedAt ? localIso(st.closedAt) : null,
    };
  }

  /**
   * Registers release instructions on an open stock (spec: States > Stock,
   * POST /stocks/{id}/actions). The stock becomes `instructed`. When the
   * carrier manages stocks (`canManageStocks`), the instructions are sent and
   * the carrier acts from the next working day (or `date`); otherwise they are
   * only registered (`sentToCarrier` false) and the carrier keeps the parcel
   * until the deadline, then returns it.
   * @throws ApiError 409 `invalid_state` when instructions were already registered or the stock is closed;
   *         422 `validation_failed` on `date` (not a working day between the next working day and the
   *         deadline) or `address.*` (another country, Italian province not 2 letters).
   */
  instruct(st: StockRecord, req: StockActionRequest, now: Date): StockRecord {
    if (st.status === 'closed') throw invalidState(`Stock ${st.id} is closed (${st.outcome ?? 'closed'}); it takes no more instructions`);
    if (st.status === 'instructed') {
      throw invalidState(`Instructions for stock ${st.id} were already sent (${st.action ?? ''} at ${st.instructedAt ? localIso(st.instructedAt) : '?'})`);
    }
    const j = this.journeys.get(st.shipmentId);
    if (!j) throw new Error(`Stock ${st.id}: journey of shipment ${st.shipmentId} is missing`);
    const s = j.shipment;
    const today = localDate(now);
    const firstDay = nextWorkingDay(today);
    let releaseDay = firstDay;
    if ((req.action === 'redeliver' || req.action === 'redeliver_to_address') && req.date !== undefined) {
      const d = req.date;
      if (!isCalendarDate(d)) throw fieldError('date', 'date is not a real calendar date');
      if (d < firstDay) throw fieldError('date', `The carrier can act from the next working day (${firstDay}) at the earliest`);
      if (d > st.deadline) throw fieldError('date', `date must not be after the stock's deadline (${st.deadline})`);
      if (!isWorkingDay(d)) throw fieldError('date', `${d} is not a carrier working day (weekend or public holiday)`);
      releaseDay = d;
    }
    if (req.action === 'redeliver_to_address') {
      const a = req.address;
      if (a.countryCode.toUpperCase() !== s.recipient.address.countryCode.toUpperCase()) {
        throw fieldError('address.countryCode', `The carrier can redirect only within ${s.recipient.address.countryCode.toUpperCase()}`);
      }
      if (a.countryCode.toUpperCase() === 'IT' && a.province !== undefined && !/^[A-Za-z]{2}$/.test(a.province)) {
        throw fieldError('address.province', 'Italian province must be the 2-letter abbreviation (e.g. MI)');
      }
    }
    const carrier = this.state.accountById(s.accountId)?.carriers.find((c) => c.carrierCode === s.carrierCode);
    const sent = carrier?.canManageStocks ?? false;
    const { action, ...details } = req;
    st.status = 'instructed';
    st.action = action;
    st.actionDetails = JSON.parse(JSON.stringify(details)) as Record<string, unknown>;
    st.instructedAt = now;
    st.sentToCarrier = sent;
    if (sent) j.steps = this.releasePlan(j, st, req, releaseDay);
    return st;
  }

  // ---- internals ----------------------------------------------------------

  /** Starts a journey for every shipment stored since the last call. */
  private discover(): void {
    const all = this.state.shipments;
    if (all.length < this.scanned) {
      // The shipment list was emptied (a reset): start over.
      this.journeys.clear();
      this.active.clear();
      this.byReissued.clear();
      this.stocks.length = 0;
      this.scanned = 0;
    }
    for (; this.scanned < all.length; this.scanned++) {
      const s = all[this.scanned];
      if (s && !this.journeys.has(s.id)) this.start(s);
    }
  }

  private start(s: ShipmentRecord): Journey {
    const j: Journey = { shipment: s, scenario: scenarioOf(s), entries: [], steps: null, carrierTrackingNumber: s.trackingNumber, dossiers: 0, stockId: null };
    this.journeys.set(s.id, j);
    this.active.add(j);
    return j;
  }

  private journey(s: ShipmentRecord): Journey {
    this.discover();
    return this.journeys.get(s.id) ?? this.start(s);
  }

  /** Instant (ms) of the journey's next step, or undefined when it has nothing left (it then leaves the active set). */
  private nextAt(j: Journey): number | undefined {
    if (j.shipment.cancelledAt !== null) {
      this.active.delete(j);
      return undefined;
    }
    if (j.steps === null) return this.pickupAt(j);
    const first = j.steps[0];
    if (!first) {
      this.active.delete(j);
      return undefined;
    }
    return first.at.getTime();
  }

  /**
   * When the carrier collects the parcel: one hour after its manifest, within
   * working hours 09:00–18:00 of a working day (else 09:00 of the next one);
   * never manifested: 18:00 of the working day after creation. The earlier wins.
   */
  private pickupAt(j: Journey): number {
    const s = j.shipment;
    if (j.pickupCache && j.pickupCache.manifestId === s.manifestId) return j.pickupCache.at;
    const fallback = localInstant(nextWorkingDay(localDate(s.createdAt)), 18, 0).getTime();
    let at = fallback;
    const m = s.manifestId === null ? undefined : this.state.manifests.find((x) => x.id === s.manifestId);
    if (m) at = Math.min(fallback, collectionAfter(m.createdAt).getTime());
    j.pickupCache = { manifestId: s.manifestId, at };
    return at;
  }

  private step(j: Journey): void {
    if (j.steps === null) j.steps = this.transitPlan(j, new Date(this.pickupAt(j)));
    const st = j.steps.shift();
    if (st) this.apply(j, st);
  }

  private apply(j: Journey, st: Step): void {
    const s = j.shipment;
    for (const e of st.effects) {
      if (e.kind === 'pickup') s.pickedUpAt = st.at;
      else if (e.kind === 'delivered') s.deliveredAt = st.at;
      else if (e.kind === 'reissue') {
        j.carrierTrackingNumber = e.ldv;
        this.byReissued.set(e.ldv, j);
        const open = j.stockId === null ? undefined : this.stocks.find((x) => x.id === j.stockId);
        if (open) open.reissuedTrackingNumber = e.ldv;
      }
    }
    // Returned to sender: the carrier's return shipment has its own LDV (unless
    // the automatic return gave it one at creation), shown as returnTrackingNumber.
    if (st.statusCode === 7 && s.returnTrackingNumber === null) s.returnTrackingNumber = this.returnLdv(s);
    const changed = s.statusCode !== st.statusCode;
    s.statusCode = st.statusCode;
    j.entries.push({ at: st.at, statusCode: st.statusCode, description: st.description, location: st.location });
    if (changed) this.emit({ kind: 'tracking.update', accountId: s.accountId, at: st.at, payload: this.trackingUpdatePayload(s, st.at) });
    for (const e of st.effects) {
      if (e.kind === 'open_stock') this.openStock(j, st.at, e.reason, e.location);
      else if (e.kind === 'close_stock') this.closeStock(j, st.at, e.outcome);
    }
  }

  /** A fresh, reserved LDV of the shipment's carrier for its return shipment. */
  private returnLdv(s: ShipmentRecord): string {
    const carrier = this.state.accountById(s.accountId)?.carriers.find((c) => c.carrierCode === s.carrierCode);
    return this.state.newTrackingNumber(carrier?.trackingPrefix ?? s.trackingNumber.slice(0, 2));
  }

  private emit(e: SandboxEvent): void {
    this.state.events.emit(e);
  }

  private stockPayload(kind: 'stock.opened' | 'stock.closed', j: Journey, st: StockRecord, at: Date): Record<string, unknown> {
    return {
      ...this.state.events.common(kind, j.shipment, at),
      giacenza_id: st.giacenzaId,
      opened_at: localIso(st.openedAt),
      stock_id: st.id,
      shipping_id: j.shipment.id,
      ...(kind === 'stock.closed' ? { closed_at: st.closedAt ? localIso(st.closedAt) : null, outcome: st.outcome } : {}),
    };
  }

  private openStock(j: Journey, at: Date, reason: { code: string; description: string }, location: string): void {
    const s = j.shipment;
    j.dossiers += 1;
    const id = ++this.stockSeq;
    const carrier = this.state.accountById(s.accountId)?.carriers.find((c) => c.carrierCode === s.carrierCode);
    const prefix = carrier?.trackingPrefix ?? s.trackingNumber.slice(0, 2);
    const digits = String(fnv1a(`${j.carrierTrackingNumber}:giacenza:${j.dossiers}`) % 1_000_000).padStart(6, '0');
    const openDate = localDate(at);
    const st: StockRecord = {
      id,
      accountId: s.accountId,
      shipmentId: s.id,
      giacenzaId: `${prefix}G${openDate.replace(/-/g, '')}${digits}`,
      dossier: j.dossiers,
      status: 'open',
      carrierTrackingNumber: j.carrierTrackingNumber,
      reissuedTrackingNumber: null,
      reason: { ...reason },
      location,
      openedAt: at,
      deadline: addDays(openDate, STOCK_TERM_DAYS),
      action: null,
      actionDetails: null,
      instructedAt: null,
      sentToCarrier: null,
      outcome: null,
      closedAt: null,
    };
    this.stocks.push(st);
    j.stockId = id;
    // Waiting at the depot: the carrier asks for instructions the next working
    // morning, and returns the parcel the working day after the deadline.
    const origin = placeOf(s.sender.address);
    const askAt = localInstant(nextWorkingDay(openDate), 9, 0);
    const expireDay = nextWorkingDay(st.deadline);
    const backDay = addWorkingDays(expireDay, TRANSIT_DAYS[s.zone]);
    j.steps = [
      { at: askAt, statusCode: 9, description: 'In attesa di disposizioni del mittente', location, effects: [] },
      { at: localInstant(expireDay, 9, 0), statusCode: 7, description: 'Giacenza scaduta: in restituzione al mittente', location, effects: [{ kind: 'close_stock', outcome: 'expired' }] },
      { at: localInstant(backDay, 11, this.jitter(j, 'back', 60)), statusCode: 7, description: 'Riconsegnata al mittente', location: origin, effects: [] },
    ];
    this.emit({ kind: 'stock.opened', accountId: s.accountId, at, payload: this.stockPayload('stock.opened', j, st, at) });
  }

  private closeStock(j: Journey, at: Date, outcome: StockOutcome): void {
    const st = j.stockId === null ? undefined : this.stocks.find((x) => x.id === j.stockId);
    if (!st) return;
    st.status = 'closed';
    st.outcome = outcome;
    st.closedAt = at;
    j.stockId = null;
    this.emit({ kind: 'stock.closed', accountId: j.shipment.accountId, at, payload: this.stockPayload('stock.closed', j, st, at) });
  }

  /** Deterministic minutes in [0, span) for a journey and a purpose. */
  private jitter(j: Journey, salt: string, span: number): number {
    return fnv1a(`${j.shipment.trackingNumber}:${salt}:${j.dossiers}`) % span;
  }

  /** Collection, departure, customs (outside the EU), arrival, out for delivery, then the first attempt's outcome. */
  private transitPlan(j: Journey, pickup: Date): Step[] {
    const s = j.shipment;
    const origin = placeOf(s.sender.address);
    const dest = placeOf(s.recipient.address);
    const steps: Step[] = [{ at: pickup, statusCode: s.statusCode, description: 'Spedizione ritirata dal corriere', location: origin, effects: [{ kind: 'pickup' }] }];
    const departed = plus(pickup, 120 + this.jitter(j, 'departed', 121));
    steps.push({ at: departed, statusCode: 3, description: `In transito: partita dalla filiale di ${origin}`, location: origin, effects: [] });
    const deliveryDay = addWorkingDays(localDate(departed), TRANSIT_DAYS[s.zone]);
    if (s.zone === 'europe_non_eu' || s.zone === 'world') {
      const customsAt = localInstant(addDays(localDate(departed), 2), 11, this.jitter(j, 'customs', 60));
      steps.push({ at: customsAt, statusCode: 3, description: 'Sdoganamento completato', location: `DOGANA (${s.recipient.address.countryCode.toUpperCase()})`, effects: [] });
    }
    steps.push(...this.deliveryDaySteps(j, deliveryDay, dest, 'first'));
    return steps;
  }

  /** Arrival at the depot, out for delivery and the attempt's outcome on `day` at `place`. */
  private deliveryDaySteps(j: Journey, day: string, place: string, mode: 'first' | 'release', arrival = true, ofdText = 'In consegna'): Step[] {
    const steps: Step[] = [];
    if (arrival) {
      steps.push({ at: localInstant(day, 6, this.jitter(j, `arrival:${day}`, 46)), statusCode: 3, description: 'Arrivata alla filiale di destinazione', location: place, effects: [] });
    }
    const ofd = localInstant(day, 8, this.jitter(j, `ofd:${day}`, 91));
    steps.push({ at: ofd, statusCode: 4, description: ofdText, location: place, effects: [] });
    const attempt = plus(ofd, 90 + this.jitter(j, `attempt:${day}`, 301));
    return [...steps, ...this.outcome(j, attempt, place, mode)];
  }

  /** What happens at a delivery attempt. After a release only `held_twice` fails again (the second dossier). */
  private outcome(j: Journey, at: Date, place: string, mode: 'first' | 'release'): Step[] {
    const s = j.shipment;
    const delivered: Step = { at, statusCode: 5, description: 'Consegnata', location: place, effects: [{ kind: 'delivered' }] };
    const day = localDate(at);
    if (mode === 'release') {
      return j.scenario === 'held_twice' && j.dossiers === 1 ? this.heldSteps(j, at, place) : [delivered];
    }
    switch (j.scenario) {
      case 'delivered':
        return [delivered];
      case 'second_attempt': {
        const next = nextWorkingDay(day);
        return [
          { at, statusCode: 8, description: 'Mancata consegna: destinatario assente, avviso di passaggio lasciato', location: place, effects: [] },
          ...this.deliveryDaySteps(j, next, place, 'release', false, 'In consegna (secondo tentativo)').map((x) => (x.statusCode === 5 ? { ...x, description: 'Consegnata al secondo tentativo' } : x)),
        ];
      }
      case 'held':
      case 'held_twice':
        return this.heldSteps(j, at, place);
      case 'awaiting_collection': {
        const collected = localInstant(addWorkingDays(day, 1 + this.jitter(j, 'collect', 3)), 10, this.jitter(j, 'collect-min', 120));
        return [
          { at, statusCode: 8, description: 'Mancata consegna: destinatario assente', location: place, effects: [] },
          { at: localInstant(day, 17, 30), statusCode: 10, description: `In attesa di ritiro presso il punto di ritiro di ${place}`, location: place, effects: [] },
          { at: collected, statusCode: 5, description: 'Ritirata dal destinatario presso il punto di ritiro', location: place, effects: [{ kind: 'delivered' }] },
        ];
      }
      case 'refused': {
        const leave = nextWorkingDay(day);
        const back = addWorkingDays(leave, TRANSIT_DAYS[s.zone]);
        return [
          { at, statusCode: 8, description: 'Mancata consegna: spedizione rifiutata dal destinatario', location: place, effects: [] },
          { at: localInstant(leave, 9, this.jitter(j, 'return', 60)), statusCode: 7, description: 'Rifiutata: in restituzione al mittente', location: place, effects: [] },
          { at: localInstant(back, 11, this.jitter(j, 'back', 60)), statusCode: 7, description: 'Riconsegnata al mittente', location: placeOf(s.sender.address), effects: [] },
        ];
      }
    }
  }

  /** Failed attempt, then the stock opens the next working morning. */
  private heldSteps(j: Journey, at: Date, place: string): Step[] {
    const reason = STOCK_REASONS[fnv1a(`${j.carrierTrackingNumber}:reason:${j.dossiers}`) % STOCK_REASONS.length] ?? STOCK_REASONS[0];
    if (!reason) return [];
    const openAt = localInstant(nextWorkingDay(localDate(at)), 7, 30 + this.jitter(j, 'stock', 30));
    return [
      { at, statusCode: 8, description: `Mancata consegna: ${reason.description.toLowerCase()}`, location: place, effects: [] },
      { at: openAt, statusCode: 6, description: `In giacenza presso la filiale di ${place}: ${reason.description.toLowerCase()}`, location: place, effects: [{ kind: 'open_stock', reason, location: place }] },
    ];
  }

  /** The carrier's plan once it has the instructions; the stock closes when the parcel is released (or collected). */
  private releasePlan(j: Journey, st: StockRecord, req: StockActionRequest, day: string): Step[] {
    const s = j.shipment;
    const place = st.location;
    const origin = placeOf(s.sender.address);
    const close = (outcome: StockOutcome): Effect => ({ kind: 'close_stock', outcome });
    switch (req.action) {
      case 'redeliver': {
        const steps = this.deliveryDaySteps(j, day, place, 'release', false, 'In consegna su disposizione del mittente');
        const first = steps[0];
        if (first) first.effects.push(close('released'));
        return steps;
      }
      case 'redeliver_to_address': {
        const a = req.address;
        const newPlace = placeOf(a);
        const ldv = this.state.newTrackingNumber(s.trackingNumber.slice(0, 2));
        const zone = zoneOf(a.countryCode, a.postalCode, a.province);
        const leave = localInstant(day, 9, this.jitter(j, 'redirect', 60));
        const deliveryDay = addWorkingDays(day, TRANSIT_DAYS[zone]);
        return [
          {
            at: leave,
            statusCode: 3,
            description: `Riaffidata con nuova LDV ${ldv}: consegna al nuovo indirizzo (${newPlace})`,
            location: place,
            effects: [{ kind: 'reissue', ldv }, close('released')],
          },
          ...this.deliveryDaySteps(j, deliveryDay, newPlace, 'release'),
        ];
      }
      case 'hold_for_collection': {
        const collected = localInstant(addWorkingDays(day, 1 + this.jitter(j, 'collect', 3)), 10, this.jitter(j, 'collect-min', 120));
        return [
          { at: localInstant(day, 9, 0), statusCode: 10, description: `In attesa di ritiro presso la filiale di ${place} su disposizione del mittente`, location: place, effects: [] },
          { at: collected, statusCode: 5, description: 'Ritirata dal destinatario in filiale', location: place, effects: [{ kind: 'delivered' }, close('delivered')] },
        ];
      }
      case 'return_to_sender': {
        const back = addWorkingDays(day, TRANSIT_DAYS[s.zone]);
        return [
          { at: localInstant(day, 9, this.jitter(j, 'return', 60)), statusCode: 7, description: 'In restituzione al mittente su disposizione', location: place, effects: [close('returned')] },
          { at: localInstant(back, 11, this.jitter(j, 'back', 60)), statusCode: 7, description: 'Riconsegnata al mittente', location: origin, effects: [] },
        ];
      }
    }
  }

  /** Date of the next planned delivery attempt (out for delivery or collection), or null. */
  private estimatedDelivery(j: Journey): string | null {
    const s = j.shipment;
    if (s.cancelledAt !== null || s.statusCode === 5) return null;
    const steps = j.steps ?? this.transitPlan(j, new Date(this.pickupAt(j)));
    const next = steps.find((x) => x.statusCode === 4 || x.statusCode === 5);
    return next ? localDate(next.at) : null;
  }
}

/** First instant at least one hour after `t` inside working hours 09:00–18:00 of a working day (Europe/Rome). */
export function collectionAfter(t: Date): Date {
  const ready = new Date(Math.ceil((t.getTime() + 60 * MINUTE) / MINUTE) * MINUTE);
  const day = localDate(ready);
  const mins = localMinutes(ready);
  if (isWorkingDay(day) && mins <= 18 * 60) return mins < 9 * 60 ? localInstant(day, 9, 0) : ready;
  return localInstant(nextWorkingDay(day), 9, 0);
}
