/**
 * Conformance: Tracking (spec: Endpoints > Tracking; States > Shipment status;
 * Events > tracking.update, shipment.created; Limits > BDA tracking window),
 * over real HTTP with the simulated clock. Scenarios are forced with the
 * documented `sandbox:<scenario>` token in `options.notes`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxEvent } from '../../../electron/sandbox/events';
import type { Sandbox } from '../../../electron/sandbox/index';
import { CreatedShipment, Shipment } from '../../../shared/platform/resources';
import { TrackingRecord } from '../../../shared/platform/tracking';
import { MONDAY_2026_09_14, callersFor, customs, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('conformance: tracking', () => {
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

  async function create(notes = 'sandbox:delivered', extra: Record<string, unknown> = {}) {
    const r = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], reference: 'ORD-7001', options: { notes }, ...extra });
    if (r.status !== 201) throw new Error(`expected 201, got ${r.status} ${JSON.stringify(r.body)}`);
    return CreatedShipment.parse(r.body);
  }

  async function tracking(ldv: string, who: Caller = a) {
    const r = await who('GET', `/shipments/${ldv}/tracking`);
    expect(r.status).toBe(200);
    return TrackingRecord.parse(r.body);
  }

  async function detail(ldv: string) {
    const r = await a('GET', `/shipments/${ldv}`);
    expect(r.status).toBe(200);
    return Shipment.extend({ bda: TrackingRecord.shape.bda }).parse(r.body);
  }

  it('answers a tracking record: shipped and without events until the carrier collects the parcel', async () => {
    const s = await create();
    const t = await tracking(s.trackingNumber);
    expect(t).toMatchObject({
      trackingNumber: s.trackingNumber,
      carrierTrackingNumber: s.trackingNumber,
      reference: 'ORD-7001',
      carrier: { code: s.carrier.code, name: s.carrier.name },
      status: { code: 2, key: 'shipped' },
      deliveredAt: null,
      stockId: null,
      cancelled: false,
      events: [],
    });
    // Not in a manifest: collected at 18:00 of the next working day, delivered the day after.
    expect(t.estimatedDeliveryDate).toBe('2026-09-16');
    expect(t.bda).toBe((await detail(s.trackingNumber)).bda);
    expect(t.bda).toMatch(/^\d{14}$/);
  });

  it('moves a manifested shipment through shipped, in transit, out for delivery, delivered; detail status and dates follow', async () => {
    const s = await create();
    expect((await a('POST', '/manifests', { trackingNumbers: [s.trackingNumber] })).status).toBe(201);
    const seen: string[] = [];
    for (let h = 0; h < 36; h++) {
      const d = await detail(s.trackingNumber);
      if (seen[seen.length - 1] !== d.status.key) seen.push(d.status.key);
      if (h === 1) {
        // Collected one hour after the manifest, still `shipped`.
        expect(d.dates?.pickedUpAt).toBe('2026-09-14T11:00:00+02:00');
        expect(d.status.key).toBe('shipped');
      }
      await advance(HOUR);
    }
    expect(seen).toEqual(['shipped', 'in_transit', 'out_for_delivery', 'delivered']);

    const d = await detail(s.trackingNumber);
    const t = await tracking(s.trackingNumber);
    expect(t.status.key).toBe('delivered');
    expect(t.deliveredAt).not.toBeNull();
    expect(d.dates?.deliveredAt).toBe(t.deliveredAt);
    expect(d.dates?.shippedAt).toBe(s.createdAt);
    expect(t.deliveredAt?.slice(0, 10)).toBe('2026-09-15');
    expect(t.estimatedDeliveryDate).toBeNull();
    // Events newest first, ISO timestamps with offset, statuses in carrier order.
    const times = t.events.map((e) => Date.parse(e.timestamp));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1] ?? 0);
    for (const e of t.events) expect(e.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(t.events.map((e) => e.status.code).reverse()).toEqual([2, 3, 3, 4, 5]);
    expect(t.events[0]).toMatchObject({ description: 'Consegnata', location: 'MILANO', timestamp: t.deliveredAt });
    // Delivered shipments can be filtered by status.
    const list = await a<{ data: Array<{ trackingNumber: string }> }>('GET', '/shipments?status=delivered');
    expect(list.body.data.map((x) => x.trackingNumber)).toEqual([s.trackingNumber]);
  });

  it('refuses to cancel a shipment in transit (409) but a cancelled one never moves', async () => {
    const moving = await create();
    await advance(31 * HOUR); // Tue 17:00: not collected yet (no manifest)
    const cancelled = await create();
    expect((await a('DELETE', `/shipments/${cancelled.trackingNumber}`)).status).toBe(200);
    expect((await tracking(moving.trackingNumber)).status.key).toBe('shipped');
    await advance(6 * HOUR); // Tue 23:00: collected at 18:00, departed within 4 hours
    expect((await tracking(moving.trackingNumber)).status.key).toBe('in_transit');
    const r = await a<ErrorBody>('DELETE', `/shipments/${moving.trackingNumber}`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('invalid_state');
    await advance(10 * DAY);
    const t = await tracking(cancelled.trackingNumber);
    expect(t).toMatchObject({ status: { key: 'shipped' }, events: [], cancelled: true, estimatedDeliveryDate: null });
  });

  it('resolves package numbers to their shipment, in any case; unknown and other clients numbers are 404', async () => {
    const s = await create('sandbox:delivered', { packages: [pkg(1), pkg(2)] });
    const second = s.packages[1]?.trackingNumber ?? '';
    expect(second).not.toBe(s.trackingNumber);
    expect((await tracking(second)).trackingNumber).toBe(s.trackingNumber);
    expect((await tracking(s.trackingNumber.toLowerCase())).trackingNumber).toBe(s.trackingNumber);
    for (const [who, ldv] of [
      [b, s.trackingNumber],
      [b, second],
      [a, 'BR0000000000'],
    ] as const) {
      const r = await who<ErrorBody>('GET', `/shipments/${ldv}/tracking`);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
  });

  it('emits shipment.created and one tracking.update per status change with the legacy payload', async () => {
    const s = await create('sandbox:second_attempt');
    const created = events.find((e) => e.kind === 'shipment.created');
    expect(created?.accountId).toBe(1017);
    expect(created?.payload).toMatchObject({
      event: 'shipment.created',
      timestamp: s.createdAt,
      ldv: s.trackingNumber,
      contractCode: s.carrier.contractCode,
      statusCode: 2,
      shipping_id: s.id,
      client_id: 1017,
      client_store_id: null,
      order_id: 'ORD-7001',
      vector_name: s.carrier.name,
    });
    expect(typeof created?.payload.domain).toBe('string');

    await advance(5 * DAY);
    const updates = events.filter((e) => e.kind === 'tracking.update');
    expect(updates.map((e) => e.payload.statusCode)).toEqual([3, 4, 8, 4, 5]);
    const t = await tracking(s.trackingNumber);
    expect(t.events.map((e) => e.status.key)).toContain('undelivered');
    const last = updates[updates.length - 1];
    const p = last?.payload ?? {};
    expect(Object.keys(p).slice(0, 6)).toEqual(['event', 'timestamp', 'ldv', 'contractCode', 'statusCode', 'domain']);
    expect(p).toMatchObject({ ldv: s.trackingNumber, vector_name: s.carrier.name, order_id: 'ORD-7001', client_store_id: null });
    expect(p.timestamp).toBe(t.deliveredAt);
    const detailRows = p.TrackingDettaglio as Array<{ Data: string; Stato: string; Luogo: string }>;
    expect(detailRows).toHaveLength(t.events.length);
    // Same events, newest first; Data is dd/mm/yyyy HH:MM in Europe/Rome local time.
    detailRows.forEach((row, i) => {
      const e = t.events[i];
      expect(row.Stato).toBe(e?.description);
      expect(row.Luogo).toBe(e?.location);
      const iso = e?.timestamp ?? '';
      expect(row.Data).toBe(`${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`);
    });
    // Each update's statusCode is the status after it, and earlier updates hold fewer rows.
    const sizes = updates.map((e) => (e.payload.TrackingDettaglio as unknown[]).length);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeGreaterThan(sizes[i - 1] ?? 0);
  });

  it('shows the exception statuses of the spec (awaiting collection)', async () => {
    const s = await create('sandbox:awaiting_collection');
    await advance(8 * DAY);
    const t = await tracking(s.trackingNumber);
    expect(t.events.map((e) => e.status.code).reverse()).toEqual([2, 3, 3, 4, 8, 10, 5]);
    expect(t.events.find((e) => e.status.key === 'awaiting_collection')?.description).toMatch(/ritiro/);
  });

  it('takes longer abroad: estimated delivery dates by destination', async () => {
    const de = await create('sandbox:delivered', { recipient: { name: 'Anna Schmidt', address: { street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' } } });
    const us = await create('sandbox:delivered', {
      recipient: { name: 'John Smith', address: { street: '5th Avenue 1', city: 'New York', postalCode: '10001', countryCode: 'US' } },
      customsDetail: customs(),
    });
    const home = await create();
    expect((await tracking(home.trackingNumber)).estimatedDeliveryDate).toBe('2026-09-16');
    expect((await tracking(de.trackingNumber)).estimatedDeliveryDate).toBe('2026-09-17');
    expect((await tracking(us.trackingNumber)).estimatedDeliveryDate).toBe('2026-09-22');
    await advance(10 * DAY);
    const t = await tracking(us.trackingNumber);
    expect(t.deliveredAt?.slice(0, 10)).toBe('2026-09-22');
    expect(t.events.some((e) => e.description === 'Sdoganamento completato')).toBe(true);
    expect(t.events.find((e) => e.status.key === 'delivered')?.location).toBe('NEW YORK (US)');
  });

  it('finds a shipment by its BDA number for 60 days only; other clients and unknown numbers are 404', async () => {
    const s = await create();
    const { bda } = await detail(s.trackingNumber);
    const byBda = await a('GET', `/tracking/bda/${bda}`);
    expect(byBda.status).toBe(200);
    expect(TrackingRecord.parse(byBda.body)).toEqual(await tracking(s.trackingNumber));
    for (const [who, value] of [
      [b, bda],
      [a, '00000000000000'],
    ] as const) {
      const r = await who<ErrorBody>('GET', `/tracking/bda/${value}`);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    await advance(59 * DAY);
    const within = await a('GET', `/tracking/bda/${bda}`);
    expect(within.status).toBe(200);
    expect(TrackingRecord.parse(within.body).status.key).toBe('delivered');
    await advance(DAY + HOUR);
    const r = await a<ErrorBody>('GET', `/tracking/bda/${bda}`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
    // The LDV keeps answering.
    expect((await tracking(s.trackingNumber)).status.key).toBe('delivered');
  });
});
