import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../electron/sandbox/clock';
import type { SandboxEvent } from '../../../electron/sandbox/events';
import { SCENARIOS, bdaOf, collectionAfter, scenarioOf, type Scenario } from '../../../electron/sandbox/carrier/scenarios';
import { fnv1a } from '../../../shared/domain/random';
import type { ShipmentRecord, ZoneId } from '../../../electron/sandbox/model';
import { demoSeed } from '../../../electron/sandbox/seed';
import { SandboxState } from '../../../electron/sandbox/state';
import { localIso } from '../../../electron/sandbox/time';
import { addWorkingDays, easterSunday, isItalianHoliday, isWorkingDay, legacyDateTime, localInstant, nextWorkingDay } from '../../../electron/sandbox/workdays';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Monday 14 September 2026, 10:00 Europe/Rome. */
const MONDAY = new Date('2026-09-14T08:00:00Z');

describe('carrier calendar (workdays)', () => {
  it('knows Easter and the Italian national holidays', () => {
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(isItalianHoliday('2026-04-06')).toBe(true); // Easter Monday
    expect(isItalianHoliday('2026-08-15')).toBe(true);
    expect(isItalianHoliday('2026-12-08')).toBe(true);
    expect(isItalianHoliday('2026-09-14')).toBe(false);
    expect(isWorkingDay('2026-09-14')).toBe(true);
    expect(isWorkingDay('2026-09-19')).toBe(false); // Saturday
    expect(isWorkingDay('2026-11-01')).toBe(false); // Sunday and holiday
    expect(isWorkingDay('2026-12-25')).toBe(false); // Friday, Christmas
  });

  it('moves by working days over weekends and holidays', () => {
    expect(nextWorkingDay('2026-09-18')).toBe('2026-09-21'); // Friday -> Monday
    expect(nextWorkingDay('2026-12-24')).toBe('2026-12-28'); // Christmas, Santo Stefano, Sunday
    expect(addWorkingDays('2026-09-19', 0)).toBe('2026-09-21');
    expect(addWorkingDays('2026-09-14', 0)).toBe('2026-09-14');
    expect(addWorkingDays('2026-09-14', 5)).toBe('2026-09-21');
    expect(() => addWorkingDays('2026-09-14', -1)).toThrow(RangeError);
  });

  it('converts Europe/Rome wall time to instants across DST and formats legacy dates', () => {
    expect(localInstant('2026-09-14', 8, 30).toISOString()).toBe('2026-09-14T06:30:00.000Z');
    expect(localInstant('2026-12-14', 8, 30).toISOString()).toBe('2026-12-14T07:30:00.000Z');
    expect(localInstant('2026-10-25', 9, 0).toISOString()).toBe('2026-10-25T08:00:00.000Z'); // day DST ends
    expect(localInstant('2026-09-14', 8, 75).toISOString()).toBe('2026-09-14T07:15:00.000Z'); // minutes roll over
    expect(legacyDateTime(new Date('2026-09-14T06:05:00Z'))).toBe('14/09/2026 08:05');
    expect(legacyDateTime(new Date('2026-01-02T23:30:00Z'))).toBe('03/01/2026 00:30');
  });

  it('places collections one hour after the manifest within working hours', () => {
    const at = (iso: string) => localIso(collectionAfter(new Date(iso)));
    expect(at('2026-09-14T08:00:00Z')).toBe('2026-09-14T11:00:00+02:00'); // Mon 10:00 -> 11:00
    expect(at('2026-09-14T05:00:00Z')).toBe('2026-09-14T09:00:00+02:00'); // Mon 07:00 -> 09:00
    expect(at('2026-09-14T15:30:00Z')).toBe('2026-09-15T09:00:00+02:00'); // Mon 17:30 -> Tue 09:00
    expect(at('2026-09-18T16:00:00Z')).toBe('2026-09-21T09:00:00+02:00'); // Fri 18:00 -> Mon 09:00
    expect(at('2026-09-19T08:00:00Z')).toBe('2026-09-21T09:00:00+02:00'); // Saturday -> Monday
  });
});

describe('scenarios and identifiers', () => {
  it('picks about 12% exceptions deterministically from the tracking number', () => {
    const counts = new Map<Scenario, number>();
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const ldv = `BR${String(i * 7919).padStart(10, '0')}`;
      const sc = scenarioOf({ trackingNumber: ldv, notes: null });
      expect(scenarioOf({ trackingNumber: ldv, notes: null })).toBe(sc);
      counts.set(sc, (counts.get(sc) ?? 0) + 1);
    }
    const exceptions = n - (counts.get('delivered') ?? 0);
    expect(exceptions / n).toBeGreaterThan(0.1);
    expect(exceptions / n).toBeLessThan(0.15);
    for (const sc of SCENARIOS) expect(counts.get(sc) ?? 0).toBeGreaterThan(0);
  });

  it('lets a sandbox:<scenario> token in the notes force the scenario', () => {
    expect(scenarioOf({ trackingNumber: 'BR0000000000', notes: 'Fragile. sandbox:held-twice' })).toBe('held_twice');
    expect(scenarioOf({ trackingNumber: 'BR0000000000', notes: 'SANDBOX:REFUSED' })).toBe('refused');
    const plain = scenarioOf({ trackingNumber: 'BR0000000000', notes: null });
    expect(scenarioOf({ trackingNumber: 'BR0000000000', notes: 'sandbox:bogus' })).toBe(plain);
  });

  it('hashes with FNV-1a and numbers BDAs from date and id', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(bdaOf({ id: 100_001, createdAt: MONDAY })).toBe('26091400100001');
  });
});

/** A sandbox state on a simulated clock starting Monday 14 Sep 2026 10:00, collecting every event. */
function setup() {
  const clock = new SimClock(() => MONDAY);
  const state = new SandboxState({ ...demoSeed(), randomSeed: 7 }, clock);
  const events: SandboxEvent[] = [];
  state.events.on('*', (e) => events.push(e));
  const account = state.accounts[0];
  if (!account) throw new Error('no demo account');
  return { clock, state, events, account };
}

type Setup = ReturnType<typeof setup>;

/** Stores a one-parcel BRT shipment (Milano -> `city`) created now, as POST /shipments would. */
function ship(t: Setup, opts: { scenario?: Scenario; zone?: ZoneId; carrier?: 'brt' | 'dhl'; city?: string; countryCode?: string } = {}): ShipmentRecord {
  const { state, account, clock } = t;
  const carrier = account.carriers.find((c) => c.carrierCode === (opts.carrier ?? 'brt'));
  const contract = carrier?.contracts[0];
  if (!carrier || !contract) throw new Error('no carrier');
  const ldv = state.newTrackingNumber(carrier.trackingPrefix);
  const addr = { street: 'Via Torino 15', city: opts.city ?? 'Milano', postalCode: '20123', countryCode: opts.countryCode ?? 'IT' };
  const s: ShipmentRecord = {
    id: state.nextShipmentId(),
    accountId: account.accountId,
    trackingNumber: ldv,
    reference: 'ORD-1',
    statusCode: 2,
    carrierCode: carrier.carrierCode,
    carrierName: carrier.carrierName,
    contractCode: contract.contractCode,
    contractName: contract.contractName,
    warehouseId: 1,
    sender: { name: 'Bottega Verdi', address: { street: 'Via dei Missaglia 97', city: 'Milano', postalCode: '20142', countryCode: 'IT' } },
    recipient: { name: 'Giulia Bianchi', address: addr },
    packages: [{ number: 1, trackingNumber: ldv, weightKg: 1, lengthCm: 30, widthCm: 20, heightCm: 10, description: null, value: null }],
    cost: { total: 8, currency: 'EUR', breakdown: { weight: 8, fuel: 0, insurance: 0, cod: 0, services: 0, extra: 0, pickup: 0 } },
    zone: opts.zone ?? 'italy',
    billableWeightKg: 1,
    volumetricWeightKg: 1.2,
    cod: null,
    insurance: null,
    accessoryServices: [],
    notes: null,
    contentDescription: null,
    pickupFromAddress: false,
    customsDetail: null,
    labelFormat: 'PDF',
    label: { pdf: '', zpl: '' },
    createdAt: clock.now(),
    shippedAt: clock.now(),
    pickedUpAt: null,
    deliveredAt: null,
    manifestId: null,
    cancelledAt: null,
    refunded: 0,
    returnTrackingNumber: null,
  };
  state.addShipment(s);
  state.lifecycle.setScenario(s.id, opts.scenario ?? 'delivered');
  return s;
}

/** Puts shipments in a manifest created now (only what the carrier reads: id and createdAt). */
function manifest(t: Setup, shipments: ShipmentRecord[]): void {
  const id = t.state.nextManifestId();
  t.state.manifests.push({
    id,
    accountId: t.account.accountId,
    carrierCode: 'brt',
    carrierName: 'BRT',
    contractCode: 'BRT-EXP-NAZ',
    contractName: 'Espresso Nazionale',
    shipmentIds: shipments.map((s) => s.id),
    trackingNumbers: shipments.map((s) => s.trackingNumber),
    totalCost: 0,
    createdAt: t.clock.now(),
    pdf: '',
  });
  for (const s of shipments) s.manifestId = id;
}

/** Status codes of the shipment's tracking.update events, in emission order. */
const statusTrail = (t: Setup, s: ShipmentRecord) =>
  t.events.filter((e) => e.kind === 'tracking.update' && e.payload.ldv === s.trackingNumber).map((e) => e.payload.statusCode);

describe('simulated carrier (lifecycle)', () => {
  it('keeps a shipment not in a manifest at shipped until 18:00 of the next working day', () => {
    const t = setup();
    const s = ship(t);
    t.clock.advance(31 * HOUR); // Tue 17:00
    expect(s.statusCode).toBe(2);
    expect(s.pickedUpAt).toBeNull();
    expect(t.state.lifecycle.history(s)).toEqual([]);
    t.clock.advance(HOUR); // Tue 18:00
    expect(s.pickedUpAt && localIso(s.pickedUpAt)).toBe('2026-09-15T18:00:00+02:00');
    expect(s.statusCode).toBe(2);
    t.clock.advance(5 * HOUR);
    expect(s.statusCode).toBe(3);
  });

  it('collects a manifested shipment one hour after the manifest and delivers it the next working day', () => {
    const t = setup();
    const s = ship(t);
    manifest(t, [s]);
    t.clock.advance(HOUR - 1);
    expect(s.pickedUpAt).toBeNull();
    t.clock.advance(1);
    expect(s.pickedUpAt && localIso(s.pickedUpAt)).toBe('2026-09-14T11:00:00+02:00');
    t.clock.advance(6 * HOUR);
    expect(s.statusCode).toBe(3);
    t.clock.advance(2 * DAY);
    expect(s.statusCode).toBe(5);
    expect(s.deliveredAt && localIso(s.deliveredAt).slice(0, 10)).toBe('2026-09-15');
    expect(statusTrail(t, s)).toEqual([3, 4, 5]);
    const history = t.state.lifecycle.history(s);
    for (let i = 1; i < history.length; i++) expect(history[i]?.at.getTime()).toBeGreaterThanOrEqual(history[i - 1]?.at.getTime() ?? 0);
  });

  it('takes longer abroad and outside the EU adds customs clearance', () => {
    const t = setup();
    const home = ship(t);
    const eu = ship(t, { zone: 'eu_2', city: 'Lisboa', countryCode: 'PT' });
    const world = ship(t, { zone: 'world', city: 'New York', countryCode: 'US' });
    manifest(t, [home, eu, world]);
    t.clock.advance(14 * DAY);
    const day = (s: ShipmentRecord) => (s.deliveredAt ? localIso(s.deliveredAt).slice(0, 10) : '');
    expect(day(home)).toBe('2026-09-15');
    expect(day(eu)).toBe('2026-09-17');
    expect(day(world)).toBe('2026-09-21');
    expect(t.state.lifecycle.history(world).some((e) => e.description === 'Sdoganamento completato')).toBe(true);
    expect(t.state.lifecycle.history(home).some((e) => e.description === 'Sdoganamento completato')).toBe(false);
  });

  it.each<[Scenario, number[]]>([
    ['delivered', [3, 4, 5]],
    ['second_attempt', [3, 4, 8, 4, 5]],
    ['awaiting_collection', [3, 4, 8, 10, 5]],
    ['refused', [3, 4, 8, 7]],
    ['held', [3, 4, 8, 6, 9, 7]],
  ])('runs the %s scenario through %j', (scenario, trail) => {
    const t = setup();
    const s = ship(t, { scenario });
    manifest(t, [s]);
    t.clock.advance(40 * DAY);
    expect(statusTrail(t, s)).toEqual(trail);
    expect(s.statusCode).toBe(trail[trail.length - 1]);
    expect(s.deliveredAt !== null).toBe(trail[trail.length - 1] === 5);
  });

  it('replays the same events whether time jumps at once or moves hour by hour', () => {
    const run = (stepMs: number) => {
      const t = setup();
      const shipments = SCENARIOS.map((scenario) => ship(t, { scenario }));
      manifest(t, shipments.slice(0, 3));
      for (let elapsed = 0; elapsed < 30 * DAY; elapsed += stepMs) t.clock.advance(stepMs);
      return t.events.map((e) => `${e.kind} ${e.payload.ldv as string} ${e.payload.timestamp as string} ${e.payload.statusCode as number}`);
    };
    const jump = run(30 * DAY);
    expect(jump.length).toBeGreaterThan(20);
    expect(run(HOUR)).toEqual(jump);
    // Events come out in time order across shipments.
    const times = jump.map((x) => Date.parse(x.split(' ')[2] ?? ''));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] ?? 0);
  });

  it('never moves a cancelled shipment', () => {
    const t = setup();
    const s = ship(t);
    s.cancelledAt = t.clock.now();
    t.clock.advance(10 * DAY);
    expect(s.statusCode).toBe(2);
    expect(s.pickedUpAt).toBeNull();
    expect(t.events).toEqual([]);
  });

  it('emits tracking.update with the legacy payload, newest detail first', () => {
    const t = setup();
    const s = ship(t);
    manifest(t, [s]);
    t.clock.advance(2 * DAY);
    const updates = t.events.filter((e) => e.kind === 'tracking.update');
    const last = updates[updates.length - 1];
    expect(last?.accountId).toBe(t.account.accountId);
    expect(Object.keys(last?.payload ?? {}).slice(0, 2)).toEqual(['event', 'timestamp']);
    expect(last?.payload).toMatchObject({ event: 'tracking.update', ldv: s.trackingNumber, contractCode: s.contractCode, statusCode: 5, vector_name: 'BRT', order_id: 'ORD-1', client_store_id: null });
    expect(last && localIso(last.at)).toBe(last?.payload.timestamp);
    const detail = last?.payload.TrackingDettaglio as Array<{ Data: string; Stato: string; Luogo: string }>;
    expect(detail[0]?.Stato).toBe('Consegnata');
    expect(detail[detail.length - 1]?.Stato).toBe('Spedizione ritirata dal corriere');
    for (const d of detail) expect(d.Data).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });

  it('does not re-enter when a listener moves the clock', () => {
    const t = setup();
    const s = ship(t);
    manifest(t, [s]);
    let nested = 0;
    t.state.events.on('tracking.update', () => {
      nested += t.state.lifecycle.advance(new Date(MONDAY.getTime() + 30 * DAY));
    });
    t.clock.advance(2 * DAY);
    expect(nested).toBe(0);
    expect(statusTrail(t, s)).toEqual([3, 4, 5]);
  });
});

describe('stocks (lifecycle)', () => {
  /** A held shipment whose stock is open (Tue attempt fails, stock opens Wednesday morning). */
  function held(scenario: Scenario = 'held', carrier: 'brt' | 'dhl' = 'brt') {
    const t = setup();
    const s = ship(t, { scenario, carrier, ...(carrier === 'dhl' ? { zone: 'eu_1' as const, city: 'Berlin', countryCode: 'DE' } : {}) });
    manifest(t, [s]);
    t.clock.advance(carrier === 'dhl' ? 5 * DAY : 2 * DAY);
    const st = t.state.lifecycle.stocks[0];
    if (!st) throw new Error('no stock opened');
    return { t, s, st };
  }

  it('opens a stock with a dossier number and a deadline, and emits stock.opened', () => {
    const { t, s, st } = held();
    expect(s.statusCode).toBe(6);
    expect(st).toMatchObject({ status: 'open', dossier: 1, shipmentId: s.id, carrierTrackingNumber: s.trackingNumber });
    expect(st.giacenzaId).toMatch(/^BRG\d{8}\d{6}$/);
    expect(st.deadline).toBe('2026-09-26');
    const opened = t.events.find((e) => e.kind === 'stock.opened');
    expect(opened?.payload).toMatchObject({ event: 'stock.opened', ldv: s.trackingNumber, statusCode: 6, giacenza_id: st.giacenzaId, stock_id: st.id, shipping_id: s.id });
    expect(opened?.payload.opened_at).toBe(localIso(st.openedAt));
  });

  it('redelivers on instructions: released (closed) when out for delivery, then delivered', () => {
    const { t, s, st } = held();
    t.state.lifecycle.instruct(st, { action: 'redeliver' }, t.clock.now());
    expect(st).toMatchObject({ status: 'instructed', action: 'redeliver', sentToCarrier: true });
    t.clock.advance(3 * DAY);
    expect(st).toMatchObject({ status: 'closed', outcome: 'released' });
    expect(s.statusCode).toBe(5);
    const closed = t.events.find((e) => e.kind === 'stock.closed');
    expect(closed?.payload).toMatchObject({ stock_id: st.id, giacenza_id: st.giacenzaId, statusCode: 4, outcome: 'released' });
  });

  it('refuses a second set of instructions and instructions on a closed stock (409)', () => {
    const { t, st } = held();
    t.state.lifecycle.instruct(st, { action: 'return_to_sender' }, t.clock.now());
    expect(() => t.state.lifecycle.instruct(st, { action: 'redeliver' }, t.clock.now())).toThrow(expect.objectContaining({ status: 409, code: 'invalid_state' }));
    t.clock.advance(5 * DAY);
    expect(st).toMatchObject({ status: 'closed', outcome: 'returned' });
    expect(() => t.state.lifecycle.instruct(st, { action: 'redeliver' }, t.clock.now())).toThrow(expect.objectContaining({ status: 409 }));
  });

  it('checks the redelivery date against working days and the deadline (422 date)', () => {
    const { t, st } = held();
    const now = t.clock.now(); // Wed 16 Sep
    const bad = (date: string) => expect(() => t.state.lifecycle.instruct(st, { action: 'redeliver', date }, now)).toThrow(expect.objectContaining({ status: 422, details: { date: [expect.any(String)] } }));
    bad('2026-09-16'); // today: too early
    bad('2026-09-19'); // Saturday
    bad('2026-09-28'); // after the deadline
    bad('2026-09-31'); // not a date
    expect(st.status).toBe('open');
    t.state.lifecycle.instruct(st, { action: 'redeliver', date: '2026-09-21' }, now);
    t.clock.advance(4 * DAY); // Sun 20 Sep: still waiting
    expect(st.status).toBe('instructed');
    t.clock.advance(2 * DAY);
    expect(st.status).toBe('closed');
  });

  it('redirects with a reissued LDV; a held-twice parcel opens a second dossier on the new LDV', () => {
    const { t, s, st } = held('held_twice');
    const address = { street: 'Via Po 1', city: 'Torino', postalCode: '10121', countryCode: 'IT', province: 'TO' };
    expect(() => t.state.lifecycle.instruct(st, { action: 'redeliver_to_address', address: { ...address, countryCode: 'FR' } }, t.clock.now())).toThrow(
      expect.objectContaining({ status: 422, details: { 'address.countryCode': [expect.any(String)] } }),
    );
    t.state.lifecycle.instruct(st, { action: 'redeliver_to_address', address, recipientName: 'Mario Rossi' }, t.clock.now());
    t.clock.advance(10 * DAY);
    const reissued = st.reissuedTrackingNumber;
    expect(reissued).toMatch(/^BR\d{10}$/);
    expect(reissued).not.toBe(s.trackingNumber);
    expect(t.state.lifecycle.resolve(s.accountId, reissued ?? '')?.id).toBe(s.id);
    expect(t.state.lifecycle.resolve(2044, reissued ?? '')).toBeUndefined();
    const second = t.state.lifecycle.stocks[1];
    expect(second).toMatchObject({ dossier: 2, shipmentId: s.id, carrierTrackingNumber: reissued, location: 'TORINO', status: 'open' });
    expect(second?.giacenzaId).not.toBe(st.giacenzaId);
    expect(t.events.filter((e) => e.kind === 'stock.opened').map((e) => e.payload.shipping_id)).toEqual([s.id, s.id]);
  });

  it('holds for collection (status 10) and closes when the recipient collects', () => {
    const { t, s, st } = held();
    t.state.lifecycle.instruct(st, { action: 'hold_for_collection' }, t.clock.now());
    t.clock.advance(DAY);
    expect(s.statusCode).toBe(10);
    expect(st.status).toBe('instructed');
    t.clock.advance(6 * DAY);
    expect(s.statusCode).toBe(5);
    expect(st).toMatchObject({ status: 'closed', outcome: 'delivered' });
  });

  it('asks for instructions, then returns the parcel after the deadline', () => {
    const { t, s, st } = held();
    t.clock.advance(DAY);
    expect(s.statusCode).toBe(9);
    t.clock.advance(9 * DAY); // Sat 26 Sep = deadline
    expect(st.status).toBe('open');
    t.clock.advance(3 * DAY); // Mon 28 Sep 09:00 passed
    expect(st).toMatchObject({ status: 'closed', outcome: 'expired' });
    expect(s.statusCode).toBe(7);
  });

  it('registers but does not send instructions for a carrier that cannot manage stocks', () => {
    const { t, s, st } = held('held', 'dhl');
    t.state.lifecycle.instruct(st, { action: 'redeliver' }, t.clock.now());
    expect(st).toMatchObject({ status: 'instructed', sentToCarrier: false });
    t.clock.advance(5 * DAY);
    expect(s.statusCode).toBe(9);
    t.clock.advance(10 * DAY);
    expect(st).toMatchObject({ status: 'closed', outcome: 'expired' });
    expect(s.statusCode).toBe(7);
  });
});
