/**
 * Queue panel views of outbox rows (titles and local records per kind,
 * outcomes of done rows) and the rule that decides whether a row may be
 * dismissed: only a definite 4xx refusal of the create call itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { outboxRowView } from '../../../../electron/core/outbox/views';
import { isDefiniteRefusal } from '../../../../electron/core/outbox/worker';
import type { OutboxError, OutboxKind } from '../../../../electron/core/store';
import { tempStore } from '../store/helpers';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setup() {
  const t = tempStore();
  cleanups.push(t.cleanup);
  return t.store;
}

const refusal = (status: number | undefined, route?: string): OutboxError => ({
  code: 'x',
  message: 'm',
  ...(status !== undefined ? { status } : {}),
  ...(route !== undefined ? { route } : {}),
});

describe('isDefiniteRefusal', () => {
  const row = (kind: OutboxKind, lastError: OutboxError | null) => ({ kind, lastError });

  it('is true only for a 4xx answer (not 408/429) to the create call of the row kind', () => {
    expect(isDefiniteRefusal(row('shipment.create', refusal(422, 'POST /shipments')))).toBe(true);
    expect(isDefiniteRefusal(row('shipment.create', refusal(402, 'POST /shipments')))).toBe(true);
    expect(isDefiniteRefusal(row('pickup.create', refusal(422, 'POST /pickups')))).toBe(true);
    expect(isDefiniteRefusal(row('manifest.create', refusal(409, 'POST /manifests')))).toBe(true);

    expect(isDefiniteRefusal(row('shipment.create', refusal(429, 'POST /shipments')))).toBe(false);
    expect(isDefiniteRefusal(row('shipment.create', refusal(408, 'POST /shipments')))).toBe(false);
    expect(isDefiniteRefusal(row('shipment.create', refusal(500, 'POST /shipments')))).toBe(false);
    expect(isDefiniteRefusal(row('shipment.create', refusal(undefined, 'POST /shipments')))).toBe(false); // no answer
    // A refused look-up before the create: an earlier attempt may have gone through.
    expect(isDefiniteRefusal(row('shipment.create', refusal(403, 'GET /shipments')))).toBe(false);
    expect(isDefiniteRefusal(row('pickup.create', refusal(422, 'POST /shipments')))).toBe(false);
    expect(isDefiniteRefusal(row('shipment.create', refusal(422)))).toBe(false); // route unknown
    expect(isDefiniteRefusal(row('pickup.create', { code: 'invalid_state', message: 'may have gone through' }))).toBe(false); // the station's own
    expect(isDefiniteRefusal(row('shipment.create', null))).toBe(false);
    // Held-shipment instructions refused with a 4xx were not registered: the packer may close the row.
    expect(isDefiniteRefusal(row('stock.instruct', refusal(422, 'POST /stocks/{id}/actions')))).toBe(true);
    expect(isDefiniteRefusal(row('stock.instruct', refusal(404, 'GET /stocks/{id}')))).toBe(false);
  });
});

describe('outboxRowView', () => {
  it('names a shipment row by its order, then by its tracking number once shipped', () => {
    const store = setup();
    const order = store.orders.insert({
      orderNumber: '#1002',
      createdAt: '2026-09-30T10:15:00.000Z',
      source: 'manual',
      recipient: { name: 'Marco Rossi', street: 'Via Roma 1', city: 'Roma', postalCode: '00184', countryCode: 'IT' },
      items: [{ name: 'Tazza', quantity: 1, unitPrice: 9 }],
      currency: 'EUR',
      status: 'open',
    });
    const pending = store.shipments.createPending({ reference: '#1002', orderId: order.id });
    const row = store.outbox.enqueue({ kind: 'shipment.create', payload: { localShipmentId: pending.id, orderId: order.id, request: { reference: '#1002' } }, localRef: `shipment:${pending.id}` });
    let v = outboxRowView(store, row);
    expect(v).toMatchObject({ id: row.id, kind: 'shipment.create', title: 'Ship order #1002', titleParts: { what: 'ship', orderNumber: '#1002' }, orderNumber: '#1002', reference: '#1002', trackingNumber: null, state: 'queued', outcome: null, attempts: 0, lastError: null, canRetry: false, canDismiss: false });

    store.outbox.claimNext();
    const failed = store.outbox.fail(row.id, { code: 'validation_failed', message: 'Province must be 2 letters', status: 422, route: 'POST /shipments' });
    v = outboxRowView(store, failed);
    expect(v).toMatchObject({ state: 'needs_attention', attempts: 1, lastError: { code: 'validation_failed', message: 'Province must be 2 letters', status: 422, details: null }, canRetry: true, canDismiss: true });

    store.outbox.retry(row.id);
    store.outbox.claimNext();
    store.shipments.recordPlatform({ trackingNumber: 'BRT000000077', statusKey: 'shipped', platform: null }, { localId: pending.id });
    const done = store.outbox.complete(row.id, { trackingNumber: 'BRT000000077', adopted: true });
    v = outboxRowView(store, done);
    expect(v).toMatchObject({ state: 'done', outcome: 'adopted', trackingNumber: 'BRT000000077', lastError: null, canRetry: false, canDismiss: false, note: null });
  });

  it('titles pickups and manifests, and tells dismissed, superseded and sent rows apart', () => {
    const store = setup();
    const pickup = store.outbox.enqueue({ kind: 'pickup.create', payload: { localPickupId: 1, request: { serviceType: 'BRT-STD', pickupDate: '2026-11-23', pickupTime: 'PM' } } });
    const manifest = store.outbox.enqueue({ kind: 'manifest.create', payload: { trackingNumbers: ['A', 'B', 'C'] } });
    const odd = store.outbox.enqueue({ kind: 'shipment.create', payload: { something: 'else' } });
    // No shipment of that contract here yet: no name to show, and never the (maybe encrypted) code.
    expect(outboxRowView(store, pickup)).toMatchObject({ title: 'Book pickup 2026-11-23 PM', pickupDate: '2026-11-23', orderNumber: null });
    store.shipments.recordPlatform({
      trackingNumber: 'BRT000000099',
      contractCode: 'BRT-STD',
      carrierCode: 'BRT',
      statusKey: 'shipped',
      platform: { trackingNumber: 'BRT000000099', carrier: { code: 'BRT', name: 'BRT', contractCode: 'BRT-STD', contractName: 'BRT Standard' } },
    });
    expect(outboxRowView(store, pickup).title).toBe('Book pickup 2026-11-23 PM (BRT — BRT Standard)');
    expect(outboxRowView(store, manifest).title).toBe('Close the day: 3 shipments');
    // The same titles without a language, for the screen to word them.
    expect(outboxRowView(store, pickup).titleParts).toEqual({ what: 'pickup', date: '2026-11-23', time: 'PM', contract: 'BRT — BRT Standard' });
    expect(outboxRowView(store, manifest).titleParts).toEqual({ what: 'manifest', shipments: 3 });
    expect(outboxRowView(store, odd).titleParts).toEqual({ what: 'ship' });
    expect(outboxRowView(store, odd)).toMatchObject({ title: 'Ship', reference: null, trackingNumber: null });

    for (const id of [pickup.id, manifest.id, odd.id]) {
      store.outbox.claimNext();
      store.outbox.fail(id, { code: 'validation_failed', message: 'no', status: 422, route: id === pickup.id ? 'POST /pickups' : 'POST /manifests' });
    }
    expect(outboxRowView(store, store.outbox.get(odd.id)!).canDismiss).toBe(false); // refused route is not its create call
    const dismissed = store.outbox.dismiss(pickup.id, { dismissed: { note: 'Booked by phone', at: '2026-11-21T10:00:00.000Z' } });
    expect(outboxRowView(store, dismissed)).toMatchObject({ state: 'done', outcome: 'dismissed', note: 'Booked by phone', lastError: { status: 422 }, canDismiss: false, canRetry: false });
    expect(outboxRowView(store, store.outbox.dismiss(manifest.id, { supersededBy: 9 })).outcome).toBe('superseded');

    const sent = store.outbox.enqueue({ kind: 'manifest.create', payload: { trackingNumbers: ['A'] } });
    store.outbox.claimNext();
    expect(outboxRowView(store, store.outbox.complete(sent.id, { manifestIds: [4] }))).toMatchObject({ outcome: 'sent', title: 'Close the day: 1 shipment' });
  });
});
