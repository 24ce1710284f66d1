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
 *
 * Files: this class keeps the journeys, applies their steps, opens and closes
 * stocks and builds the tracking/stock views; carrier/scenarios.ts holds the
 * fixed rules (scenario, transit days, stock term, BDA, collection time),
 * carrier/plan.ts plans a journey's steps, carrier/journey.ts the shapes.
 */
import { fnv1a } from '../../shared/domain/random';
import { statusOf } from '../../shared/platform/common';
import type { Stock, StockActionRequest, StockOutcome, TrackingRecord } from '../../shared/platform/tracking';
import { fieldError, invalidState } from './errors';
import type { SimClock } from './clock';
import type { SandboxEvent, SandboxEvents } from './events';
import type { Account, ManifestRecord, ShipmentRecord } from './model';
import { addDays, isCalendarDate, localDate, localIso } from './time';
import { addWorkingDays, isWorkingDay, legacyDateTime, localInstant, nextWorkingDay } from './workdays';
import { placeOf, type Journey, type Step, type StockRecord, type TrackingEntry } from './carrier/journey';
import { jitter, releasePlan, transitPlan } from './carrier/plan';
import { STOCK_TERM_DAYS, TRANSIT_DAYS, bdaOf, collectionAfter, scenarioOf, type Scenario } from './carrier/scenarios';

/**
 * What the simulated carrier uses of the sandbox's state (`SandboxState`
 * implements it): the clock, the event bus it emits on, the stored shipments
 * and manifests, account and tracking-number look-ups, and fresh tracking
 * numbers for reissued parcels.
 */
export interface LifecycleState {
  readonly clock: SimClock;
  readonly events: SandboxEvents;
  readonly shipments: ReadonlyArray<ShipmentRecord>;
  readonly manifests: ReadonlyArray<ManifestRecord>;
  accountById(accountId: number): Account | undefined;
  shipmentByTracking(account: Account, trackingNumber: string): ShipmentRecord | undefined;
  newTrackingNumber(prefix: string): string;
  /** Notes that a shipment or its journey changed (for the state store, state-db.ts). */
  touch(s: ShipmentRecord): void;
}

/** The simulated carrier of a sandbox; one per `SandboxState` (`state.lifecycle`). */
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

  constructor(private readonly state: LifecycleState) {}

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
    this.state.touch(j.shipment);
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
  resolve(accountId: number, trackingNumber: string): ShipmentRecord | undefined {
    const account = this.state.accountById(accountId);
    const direct = account ? this.state.shipmentByTracking(account, trackingNumber) : undefined;
    if (direct) return direct;
    this.discover();
    const j = this.byReissued.get(trackingNumber.toUpperCase());
    return j && j.shipment.accountId === accountId ? j.shipment : undefined;
  }

  /** The account's stock `id`, or undefined (also for another client's). */
  stock(accountId: number, id: number): StockRecord | undefined {
    return this.stocks.find((st) => st.id === id && st.accountId === accountId);
  }

  /** The journey of a stored shipment (started when missing): what the state store (state-db.ts) keeps in the shipment's row. */
  journeyOf(s: ShipmentRecord): Journey {
    return this.journey(s);
  }

  /**
   * Forgets the journeys of the shipments `ids` (their reissued LDVs too), which the caller removes from
   * `state.shipments` right after, before anything else runs (retention, `SandboxState.forgetShipments`).
   * @returns how many journeys were forgotten.
   */
  forget(ids: ReadonlySet<number>): number {
    this.discover();
    let n = 0;
    for (const id of ids) {
      const j = this.journeys.get(id);
      if (!j) continue;
      this.journeys.delete(id);
      this.active.delete(j);
      n++;
    }
    for (const [ldv, j] of this.byReissued) if (ids.has(j.shipment.id)) this.byReissued.delete(ldv);
    this.scanned -= n;
    return n;
  }
  /**
   * Takes the journeys of the shipments just put into `state.shipments` by a
   * state store that keeps them one row each (state-db.ts), instead of
   * starting fresh ones. Every journey is considered active until the next
   * {@link advance} finds it has nothing left.
   * @throws Error when a journey's shipment is not in `state.shipments`.
   */
  adopt(journeys: Iterable<Journey>): void {
    const ids = new Set(this.state.shipments.map((s) => s.id));
    this.journeys.clear();
    this.active.clear();
    for (const j of journeys) {
      if (!ids.has(j.shipment.id)) throw new Error(`adopt: journey of shipment ${j.shipment.id}, which is not stored`);
      this.journeys.set(j.shipment.id, j);
      this.active.add(j);
    }
    this.scanned = 0;
    this.discover();
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
    if (sent) j.steps = releasePlan(j, st, req, releaseDay, (prefix) => this.state.newTrackingNumber(prefix));
    this.state.touch(s);
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
    this.state.touch(j.shipment);
    if (j.steps === null) j.steps = transitPlan(j, new Date(this.pickupAt(j)));
    const st = j.steps.shift();
    if (st) this.apply(j, st);
  }

  private apply(j: Journey, st: Step): void {
    const s = j.shipment;
    for (const e of st.effects) {
      if (e.kind === 'pickup') s.pickedUpAt = st.at;
      else if (e.kind === 'delivered') s.deliveredAt = st.at;
      else if (e.kind === 'reissue') {
        j.carrierTrackingNumber = e.trackingNumber;
        this.byReissued.set(e.trackingNumber, j);
        const open = j.stockId === null ? undefined : this.stocks.find((x) => x.id === j.stockId);
        if (open) open.reissuedTrackingNumber = e.trackingNumber;
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
      { at: localInstant(backDay, 11, jitter(j, 'back', 60)), statusCode: 7, description: 'Riconsegnata al mittente', location: origin, effects: [] },
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
  /** Date of the next planned delivery attempt (out for delivery or collection), or null. */
  private estimatedDelivery(j: Journey): string | null {
    const s = j.shipment;
    if (s.cancelledAt !== null || s.statusCode === 5) return null;
    const steps = j.steps ?? transitPlan(j, new Date(this.pickupAt(j)));
    const next = steps.find((x) => x.statusCode === 4 || x.statusCode === 5);
    return next ? localDate(next.at) : null;
  }
}
