/**
 * Conformance: Stocks (spec: Endpoints > Stocks; Resources > Stock; States >
 * Stock; Events > stock.opened and stock.closed payload), over real HTTP with
 * the simulated clock. Held shipments are forced with the documented
 * `sandbox:held` / `sandbox:held-twice` token in `options.notes`; a shipment
 * manifested on Monday 14 Sep 2026 fails delivery on Tuesday and its stock
 * opens on Wednesday morning (deadline Saturday 26 Sep).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxEvent } from '../../../electron/sandbox/events';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { CarriersResponse, CreatedShipment, Shipment } from '../../../shared/platform/resources';
import { Stock, TrackingRecord } from '../../../shared/platform/tracking';
import { MONDAY_2026_09_14, callersFor, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const StockList = Paginated(Stock);

describe('conformance: stocks', () => {
  let sb: Sandbox;
  let a: Caller;
  let b: Caller;
  let events: SandboxEvent[];

  beforeEach(async () => {
    ({ sb, a, b } = await start({ clock: MONDAY_2026_09_14 }));
    events = [];
    sb.state.events.on('*', (e) => events.push(e));
  });
  afterEach(async () => {
    await sb.close();
  });

  /** Moves the simulated clock and takes fresh tokens (they live one simulated hour). */
  async function advance(ms: number): Promise<void> {
    sb.clock.advance(ms);
    ({ a, b } = await callersFor(sb));
  }

  async function create(notes: string, extra: Record<string, unknown> = {}) {
    const r = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], reference: 'ORD-9', options: { notes }, ...extra });
    if (r.status !== 201) throw new Error(`expected 201, got ${r.status} ${JSON.stringify(r.body)}`);
    const s = CreatedShipment.parse(r.body);
    expect((await a('POST', '/manifests', { trackingNumbers: [s.trackingNumber] })).status).toBe(201);
    return s;
  }

  async function stocks(query = '') {
    const r = await a('GET', `/stocks${query}`);
    expect(r.status).toBe(200);
    return StockList.parse(r.body);
  }

  async function stock(id: number) {
    const r = await a('GET', `/stocks/${id}`);
    expect(r.status).toBe(200);
    return Stock.parse(r.body);
  }

  async function status(ldv: string) {
    const r = await a('GET', `/shipments/${ldv}`);
    expect(r.status).toBe(200);
    return Shipment.parse(r.body).status.key;
  }

  /** Creates `n` held shipments and moves `days` ahead (default to Wednesday 10:00, when domestic stocks are open). */
  async function held(n = 1, notes = 'sandbox:held', extra: Record<string, unknown> = {}, days = 2) {
    const shipments = [];
    for (let i = 0; i < n; i++) shipments.push(await create(notes, extra));
    await advance(days * DAY);
    const list = await stocks('?status=all');
    return shipments.map((s) => {
      const st = list.data.find((x) => x.trackingNumber === s.trackingNumber);
      if (!st) throw new Error(`no stock for ${s.trackingNumber}`);
      return { s, st };
    });
  }

  async function act(id: number, body: unknown, who: Caller = a) {
    return who<ErrorBody>('POST', `/stocks/${id}/actions`, body);
  }

  it('opens a stock on a held shipment: status 6, stock.opened, listed as open by default', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    const { s, st } = one;
    expect(await status(s.trackingNumber)).toBe('held_at_depot');
    expect(st).toMatchObject({
      status: 'open',
      dossier: 1,
      shipmentId: s.id,
      reference: 'ORD-9',
      carrier: { code: s.carrier.code },
      shipmentStatus: { code: 6 },
      deadline: '2026-09-26',
      action: null,
      instructedAt: null,
      sentToCarrier: null,
      outcome: null,
      closedAt: null,
    });
    expect((await stocks()).data.map((x) => x.id)).toEqual([st.id]);
    expect(await stock(st.id)).toEqual(st);
    const t = TrackingRecord.parse((await a('GET', `/shipments/${s.trackingNumber}/tracking`)).body);
    expect(t.stockId).toBe(st.id);

    const opened = events.filter((e) => e.kind === 'stock.opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]?.payload).toMatchObject({
      event: 'stock.opened',
      ldv: s.trackingNumber,
      contractCode: s.carrier.contractCode,
      statusCode: 6,
      giacenza_id: st.giacenzaId,
      opened_at: st.openedAt,
      stock_id: st.id,
      shipping_id: s.id,
    });
    // The tracking.update to status 6 comes just before stock.opened.
    const kinds = events.map((e) => `${e.kind}:${String(e.payload.statusCode)}`);
    expect(kinds[kinds.indexOf('stock.opened:6') - 1]).toBe('tracking.update:6');
  });

  it('filters by status and tracking number, with the pagination envelope and per_page bounds', async () => {
    const rows = await held(3);
    const [first, second] = rows;
    if (!first || !second) throw new Error('stocks missing');
    expect((await act(first.st.id, { action: 'return_to_sender' })).status).toBe(201);
    expect((await stocks()).meta.total).toBe(2);
    expect((await stocks('?status=open')).data.map((x) => x.id).sort()).toEqual(rows.slice(1).map((r) => r.st.id).sort());
    expect((await stocks('?status=instructed')).data.map((x) => x.id)).toEqual([first.st.id]);
    expect((await stocks('?status=closed')).meta.total).toBe(0);
    expect((await stocks('?status=all')).meta.total).toBe(3);
    expect((await stocks(`?status=all&trackingNumber=${second.s.trackingNumber.toLowerCase()}`)).data.map((x) => x.id)).toEqual([second.st.id]);
    expect((await stocks('?trackingNumber=BR0000000000')).meta.total).toBe(0);

    const page = await stocks('?status=all&per_page=1&page=2');
    expect(page.data).toHaveLength(1);
    expect(page.meta).toEqual({ current_page: 2, last_page: 3, per_page: 1, total: 3, from: 2, to: 2 });
    expect(page.links.prev).toContain('page=1');
    expect(page.links.next).toContain('page=3');
    for (const q of ['?per_page=0', '?per_page=201', '?status=pending']) {
      const r = await a<ErrorBody>('GET', `/stocks${q}`);
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(Object.keys(r.body.error.details ?? {})).toEqual([q.includes('status') ? 'status' : 'per_page']);
    }
  });

  it('hides other clients stocks (404) and answers 404 for ids that do not exist', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    for (const [who, method, path, body] of [
      [b, 'GET', `/stocks/${one.st.id}`, undefined],
      [b, 'POST', `/stocks/${one.st.id}/actions`, { action: 'redeliver' }],
      [a, 'GET', '/stocks/999999', undefined],
      [a, 'GET', '/stocks/abc', undefined],
      [a, 'POST', '/stocks/999999/actions', { action: 'redeliver' }],
    ] as const) {
      const r = await who<ErrorBody>(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const theirs = await b('GET', '/stocks?status=all');
    expect(StockList.parse(theirs.body).meta.total).toBe(0);
    expect((await stock(one.st.id)).status).toBe('open');
  });

  it('validates release instructions (422 with details paths) and leaves the stock open', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    const address = { street: 'Via Po 1', city: 'Torino', postalCode: '10121', countryCode: 'IT', province: 'TO' };
    const cases: Array<[unknown, string]> = [
      [{}, 'action'],
      [{ action: 'destroy' }, 'action'],
      [{ action: 'redeliver_to_address' }, 'address'],
      [{ action: 'redeliver_to_address', address: { ...address, postalCode: undefined } }, 'address.postalCode'],
      [{ action: 'redeliver_to_address', address: { ...address, countryCode: 'FR' } }, 'address.countryCode'],
      [{ action: 'redeliver_to_address', address: { ...address, province: 'Torino' } }, 'address.province'],
      [{ action: 'redeliver', address }, 'address'],
      [{ action: 'redeliver', date: '2026-09-19' }, 'date'], // Saturday
      [{ action: 'redeliver', date: '2026-09-28' }, 'date'], // after the deadline
      [{ action: 'redeliver', date: '17/09/2026' }, 'date'],
      [{ action: 'return_to_sender', notes: 'x'.repeat(256) }, 'notes'],
      [[{ action: 'redeliver' }], '_body'],
    ];
    for (const [body, path] of cases) {
      const r = await act(one.st.id, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(Object.keys(r.body.error.details ?? {}), JSON.stringify(body)).toEqual([path]);
    }
    expect((await stock(one.st.id)).status).toBe('open');
  });

  it('redeliver: 201 instructed, 409 on second instructions, released (stock.closed) then delivered', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    const { s, st } = one;
    const r = await act(st.id, { action: 'redeliver', date: '2026-09-18', notes: 'Citofonare Bianchi' });
    expect(r.status).toBe(201);
    const instructed = Stock.parse(r.body);
    expect(instructed).toMatchObject({
      id: st.id,
      status: 'instructed',
      action: 'redeliver',
      actionDetails: { date: '2026-09-18', notes: 'Citofonare Bianchi' },
      instructedAt: '2026-09-16T10:00:00+02:00',
      sentToCarrier: true,
    });
    const again = await act(st.id, { action: 'return_to_sender' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');

    await advance(DAY); // Thursday: waits for the chosen Friday
    expect((await stock(st.id)).status).toBe('instructed');
    expect(events.some((e) => e.kind === 'stock.closed')).toBe(false);
    await advance(DAY + 8 * HOUR); // Friday 18:00
    const closed = await stock(st.id);
    expect(closed).toMatchObject({ status: 'closed', outcome: 'released', shipmentStatus: { key: 'delivered' } });
    expect(closed.closedAt?.slice(0, 10)).toBe('2026-09-18');
    expect(await status(s.trackingNumber)).toBe('delivered');
    const ev = events.find((e) => e.kind === 'stock.closed');
    expect(ev?.payload).toMatchObject({ event: 'stock.closed', ldv: s.trackingNumber, giacenza_id: st.giacenzaId, stock_id: st.id, shipping_id: s.id, opened_at: st.openedAt, statusCode: 4 });
    expect(ev?.payload.timestamp).toBe(closed.closedAt);
    const late = await act(st.id, { action: 'redeliver' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_state');
  });

  it('redeliver_to_address reissues the LDV; a second failure opens a second dossier on the same parcel', async () => {
    const [one] = await held(1, 'sandbox:held-twice');
    if (!one) throw new Error('no stock');
    const { s, st } = one;
    const address = { street: 'Via Po 1', city: 'Torino', postalCode: '10121', countryCode: 'IT', province: 'TO' };
    const r = await act(st.id, { action: 'redeliver_to_address', address, recipientName: 'Mario Rossi', phone: '+39 011 555 1234' });
    expect(r.status).toBe(201);
    expect(Stock.parse(r.body).actionDetails).toMatchObject({ address, recipientName: 'Mario Rossi' });

    await advance(DAY); // Thursday 10:00: released under a new LDV
    const released = await stock(st.id);
    expect(released).toMatchObject({ status: 'closed', outcome: 'released' });
    const reissued = released.reissuedTrackingNumber ?? '';
    expect(reissued).toMatch(/^[A-Z]{2}\d{10}$/);
    expect(reissued).not.toBe(s.trackingNumber);
    const t = TrackingRecord.parse((await a('GET', `/shipments/${reissued}/tracking`)).body);
    expect(t).toMatchObject({ trackingNumber: s.trackingNumber, carrierTrackingNumber: reissued, status: { key: 'in_transit' } });
    expect(t.events[0]?.description).toContain(reissued);
    expect((await b('GET', `/shipments/${reissued}/tracking`)).status).toBe(404);

    await advance(5 * DAY); // delivery in Torino fails on Friday; second dossier on Monday
    const open = await stocks(`?trackingNumber=${reissued}`);
    expect(open.data).toHaveLength(1);
    const second = open.data[0];
    expect(second).toMatchObject({ dossier: 2, shipmentId: s.id, trackingNumber: s.trackingNumber, carrierTrackingNumber: reissued, location: 'TORINO', status: 'open' });
    expect(second?.giacenzaId).not.toBe(st.giacenzaId);
    expect((await stocks(`?status=all&trackingNumber=${s.trackingNumber}`)).data.map((x) => x.dossier)).toEqual([2, 1]);
    const opened = events.filter((e) => e.kind === 'stock.opened');
    expect(opened.map((e) => [e.payload.shipping_id, e.payload.giacenza_id])).toEqual([
      [s.id, st.giacenzaId],
      [s.id, second?.giacenzaId],
    ]);
    expect(events.filter((e) => e.kind.startsWith('stock.')).map((e) => e.kind)).toEqual(['stock.opened', 'stock.closed', 'stock.opened']);
  });

  it('hold_for_collection: awaiting collection (10), then collected; the stock closes as delivered', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    expect((await act(one.st.id, { action: 'hold_for_collection' })).status).toBe(201);
    await advance(DAY);
    expect(await status(one.s.trackingNumber)).toBe('awaiting_collection');
    expect((await stock(one.st.id)).status).toBe('instructed');
    await advance(6 * DAY);
    expect(await status(one.s.trackingNumber)).toBe('delivered');
    expect(await stock(one.st.id)).toMatchObject({ status: 'closed', outcome: 'delivered' });
    expect(events.find((e) => e.kind === 'stock.closed')?.payload.statusCode).toBe(5);
  });

  it('return_to_sender: returned (7); the stock closes as returned', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    expect((await act(one.st.id, { action: 'return_to_sender' })).status).toBe(201);
    await advance(DAY);
    expect(await status(one.s.trackingNumber)).toBe('returned_to_sender');
    expect(await stock(one.st.id)).toMatchObject({ status: 'closed', outcome: 'returned' });
  });

  it('without instructions: awaiting instructions (9), then returned the working day after the deadline (expired)', async () => {
    const [one] = await held();
    if (!one) throw new Error('no stock');
    await advance(DAY);
    expect(await status(one.s.trackingNumber)).toBe('awaiting_instructions');
    expect((await stock(one.st.id)).shipmentStatus.key).toBe('awaiting_instructions');
    await advance(9 * DAY); // Saturday 26 Sep, the deadline: still open
    expect((await stock(one.st.id)).status).toBe('open');
    await advance(2 * DAY); // Monday 28 Sep 10:00
    expect(await stock(one.st.id)).toMatchObject({ status: 'closed', outcome: 'expired', closedAt: '2026-09-28T09:00:00+02:00' });
    expect(await status(one.s.trackingNumber)).toBe('returned_to_sender');
    expect((await stocks()).meta.total).toBe(0);
    expect((await stocks('?status=closed')).data.map((x) => x.id)).toEqual([one.st.id]);
  });

  it('a carrier that cannot manage stocks: instructions are registered (201) but not sent; the parcel returns at the deadline', async () => {
    const carriers = CarriersResponse.parse((await a('GET', '/carriers')).body);
    expect(carriers.data.find((c) => c.carrierCode === 'dhl')?.canManageStocks).toBe(false);
    // DHL to Germany takes two working days: the attempt fails on Wednesday, the stock opens on Thursday.
    const [one] = await held(1, 'sandbox:held', {
      serviceType: 'DHL-ESI',
      recipient: { name: 'Anna Schmidt', address: { street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' } },
    }, 3);
    if (!one) throw new Error('no stock');
    const r = await act(one.st.id, { action: 'redeliver' });
    expect(r.status).toBe(201);
    expect(Stock.parse(r.body)).toMatchObject({ status: 'instructed', sentToCarrier: false });
    await advance(5 * DAY);
    expect(await status(one.s.trackingNumber)).toBe('awaiting_instructions');
    await advance(10 * DAY);
    expect(await stock(one.st.id)).toMatchObject({ status: 'closed', outcome: 'expired' });
    expect(await status(one.s.trackingNumber)).toBe('returned_to_sender');
  });
});
