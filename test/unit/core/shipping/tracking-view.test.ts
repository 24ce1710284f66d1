/**
 * Tracking views: the platform record mapped for the screens (events newest
 * first, timestamps unchanged), the last known status when the platform
 * cannot be asked, and the local shipment taking the tracked status.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StationEvents } from '../../../../shared/contract/commands';
import { statusOf } from '../../../../shared/platform/common';
import { TrackingRecord } from '../../../../shared/platform/tracking';
import { createEmitter } from '../../../../electron/core/common/events';
import { recordTrackedStatus } from '../../../../electron/core/shipping/shipments';
import { lastKnownTrackingView, shipmentView, trackingView } from '../../../../electron/core/shipping/views';
import { tempStore } from '../store/helpers';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function record(overrides: Partial<TrackingRecord> = {}): TrackingRecord {
  return TrackingRecord.parse({
    trackingNumber: 'BRT000000042',
    carrierTrackingNumber: 'BRT000000042',
    bda: '26100100000042',
    reference: '#1002',
    carrier: { code: 'brt', name: 'BRT' },
    status: statusOf(4),
    estimatedDeliveryDate: '2026-10-02',
    deliveredAt: null,
    stockId: null,
    cancelled: false,
    events: [
      // Deliberately out of order: the view must not trust the wire order blindly.
      { timestamp: '2026-10-01T16:05:00+02:00', status: statusOf(3), description: 'In transito: partita dalla filiale di MILANO', location: 'MILANO' },
      { timestamp: '2026-10-02T08:40:00+02:00', status: statusOf(4), description: 'In consegna', location: 'ROMA' },
      { timestamp: '2026-10-01T14:00:00+02:00', status: statusOf(2), description: 'Spedizione ritirata dal corriere', location: 'MILANO' },
    ],
    ...overrides,
  });
}

/** A created shipment in a temp store, status `shipped` (2), as POST /shipments answered it. */
function storedShipment() {
  const t = tempStore();
  cleanups.push(t.cleanup);
  const platform = {
    id: 42,
    trackingNumber: 'BRT000000042',
    reference: '#1002',
    status: statusOf(2),
    carrier: { code: 'brt', name: 'BRT', contractCode: 'BRT-STD', contractName: 'BRT Standard' },
    parcels: 1,
    packages: [{ number: 1, trackingNumber: 'BRT000000042' }],
    cost: { total: 7.9, currency: 'EUR' },
    createdAt: '2026-10-01T09:00:00+02:00',
  };
  const rec = t.store.shipments.recordPlatform({ trackingNumber: 'BRT000000042', platformId: 42, statusKey: 'shipped', costTotal: 7.9, currency: 'EUR', platform });
  return { store: t.store, clock: t.clock, rec };
}

describe('trackingView', () => {
  it('maps the record: events newest first with their ISO timestamps, carrier, estimated delivery', () => {
    const v = trackingView(record(), '2026-10-02T07:00:00.000Z');
    expect(v.source).toBe('platform');
    expect(v.unavailable).toBeNull();
    expect(v.asOf).toBe('2026-10-02T07:00:00.000Z');
    expect(v.status).toEqual({ code: 4, key: 'out_for_delivery', label: 'Out for delivery' });
    expect(v.carrier).toEqual({ code: 'brt', name: 'BRT' });
    expect(v.estimatedDelivery).toBe('2026-10-02');
    expect(v.events.map((e) => e.timestamp)).toEqual(['2026-10-02T08:40:00+02:00', '2026-10-01T16:05:00+02:00', '2026-10-01T14:00:00+02:00']);
    expect(v.events[0]).toEqual({ timestamp: '2026-10-02T08:40:00+02:00', status: statusOf(4), description: 'In consegna', location: 'ROMA' });
  });

  it('orders by instant across offsets, keeps ties in platform order, and keeps the wire order when a timestamp is unreadable', () => {
    const a = { timestamp: '2026-10-01T12:00:00Z', status: statusOf(3), description: 'a', location: 'X' };
    const b = { timestamp: '2026-10-01T13:30:00+02:00', status: statusOf(3), description: 'b', location: 'X' }; // 11:30Z
    const c = { timestamp: '2026-10-01T12:00:00.000Z', status: statusOf(3), description: 'c', location: 'X' }; // tie with a
    expect(trackingView(record({ events: [b, a, c] }), 'now').events.map((e) => e.description)).toEqual(['a', 'c', 'b']);
    const bad = { ...a, timestamp: 'yesterday', description: 'bad' };
    expect(trackingView(record({ events: [b, bad, a] }), 'now').events.map((e) => e.description)).toEqual(['b', 'bad', 'a']);
  });

  it('passes delivery, stock and cancellation through; no events before collection', () => {
    const v = trackingView(record({ events: [], status: statusOf(2), estimatedDeliveryDate: null, stockId: 7, cancelled: true, deliveredAt: null }), 'now');
    expect(v.events).toEqual([]);
    expect(v.estimatedDelivery).toBeNull();
    expect(v.stockId).toBe(7);
    expect(v.cancelled).toBe(true);
  });
});

describe('lastKnownTrackingView', () => {
  it('answers the local status with the reason and the record time, without events', () => {
    const { store, rec } = storedShipment();
    const v = lastKnownTrackingView(store, rec, { code: 'offline', message: 'Platform not reachable' });
    expect(v).toMatchObject({
      trackingNumber: 'BRT000000042',
      source: 'local',
      unavailable: { code: 'offline', message: 'Platform not reachable' },
      status: statusOf(2),
      carrier: { code: 'brt', name: 'BRT' },
      carrierTrackingNumber: null,
      events: [],
      asOf: rec.updatedAt,
    });
  });
});

describe('recordTrackedStatus', () => {
  it('stores the new status (key and Shipment JSON) once, and tells the screens', () => {
    const { store, clock, rec } = storedShipment();
    const events = createEmitter();
    const changed: Array<StationEvents['shipments.changed']> = [];
    events.on('shipments.changed', (p) => changed.push(p));
    clock.advance(60_000);

    expect(recordTrackedStatus({ store, events }, rec, record())).toBe(true);
    const after = store.shipments.getByTrackingNumber('BRT000000042')!;
    expect(after.statusKey).toBe('out_for_delivery');
    expect(shipmentView(store, after).status).toEqual(statusOf(4));
    expect((after.platform as { cost: unknown }).cost).toEqual({ total: 7.9, currency: 'EUR' }); // the rest of the JSON kept
    expect(changed).toEqual([{ trackingNumber: 'BRT000000042' }]);

    // Same status again: nothing written, no event.
    expect(recordTrackedStatus({ store, events }, after, record())).toBe(false);
    expect(changed).toHaveLength(1);
    expect(lastKnownTrackingView(store, after, { code: 'timeout', message: 't' }).status).toEqual(statusOf(4));
  });
});
