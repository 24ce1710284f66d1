/**
 * The migration "order references per shop" (issue 21), found by name so a
 * renumbering on merge does not break it: a shipment row that surely never
 * left takes its order's shop-and-number reference; every row that may have
 * been posted, and every stored shipment, keeps the reference it was sent with.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type Store } from '../../../electron/core/store';
import type { OrderDraft } from '../../../electron/core/store/orders-repo';
import { tempStore } from './helpers';

const index = MIGRATIONS.findIndex((m) => m.name === 'order references per shop');

let t: ReturnType<typeof tempStore>;
beforeEach(() => (t = tempStore()));
afterEach(() => t.cleanup());

function draft(shop: string, orderNumber: string, country = 'IT'): OrderDraft {
  return {
    shop,
    orderNumber,
    createdAt: '2026-11-20T10:00:00+00:00',
    source: 'shopify_csv',
    recipient: { name: `Customer ${orderNumber}`, street: 'Via Roma 1', city: 'Roma', postalCode: '00184', countryCode: country },
    items: [{ name: 'Mug', quantity: 1, unitPrice: 8 }],
    currency: 'EUR',
    status: 'open',
  };
}

/** A pending shipment of `orderId` with `reference` (as the old station wrote it) and its `shipment.create` row. */
function pendingRow(store: Store, orderId: number, reference: string): { shipmentId: number; rowId: number } {
  return store.tx(() => {
    const pending = store.shipments.createPending({ reference, orderId });
    const payload = { localShipmentId: pending.id, orderId, request: { reference, recipient: { name: 'x', address: {} }, packages: [] } };
    const row = store.outbox.enqueue({ kind: 'shipment.create', payload, localRef: `shipment:${pending.id}` });
    return { shipmentId: pending.id, rowId: row.id };
  });
}

describe('migration "order references per shop"', () => {
  it('gives a never-sent row its shop-and-number reference; a row that may have been posted keeps the bare number', () => {
    expect(index).toBeGreaterThan(0);
    const { store } = t;
    const uk = store.orders.insert(draft('UK', '#2236', 'LT'));
    const tr = store.orders.insert(draft('Istanbul', '#2236', 'TR'));
    const main = store.orders.insert(draft('main', '#3001'));
    const later = store.orders.insert(draft('UK', '#2240'));
    const manual = store.orders.insert(draft('UK', '#2241'));
    const neverSent = pendingRow(store, uk.id, '#2236');
    const posted = pendingRow(store, tr.id, '#2236-2');
    const defaultShop = pendingRow(store, main.id, '#3001');
    const secondShipment = pendingRow(store, later.id, '#2240-2');
    const attention = pendingRow(store, manual.id, '#2241');
    store.close();

    // As the station before issue 21 left the file: schema of the step before, rows as they were.
    const db = new Database(t.file);
    db.prepare(`UPDATE outbox SET attempts = 1, posted_at = '2026-11-20T10:05:00.000Z' WHERE id = ?`).run(posted.rowId);
    db.prepare(`UPDATE outbox SET attempts = 1, state = 'needs_attention' WHERE id = ?`).run(attention.rowId);
    db.pragma(`user_version = ${index}`);
    db.close();

    const after = openStore(t.file);
    try {
      const ref = (shipmentId: number, rowId: number) => ({
        shipment: after.shipments.getById(shipmentId)?.reference,
        row: (after.outbox.get(rowId)?.payload as { request: { reference: string } }).request.reference,
      });
      expect(ref(neverSent.shipmentId, neverSent.rowId)).toEqual({ shipment: 'UK #2236', row: 'UK #2236' });
      expect(ref(secondShipment.shipmentId, secondShipment.rowId)).toEqual({ shipment: 'UK #2240-2', row: 'UK #2240-2' });
      // Posted (its answer was lost) or refused once: the platform may hold it under the bare number.
      expect(ref(posted.shipmentId, posted.rowId)).toEqual({ shipment: '#2236-2', row: '#2236-2' });
      expect(ref(attention.shipmentId, attention.rowId)).toEqual({ shipment: '#2241', row: '#2241' });
      // The default shop's reference is its number, as before.
      expect(ref(defaultShop.shipmentId, defaultShop.rowId)).toEqual({ shipment: '#3001', row: '#3001' });
      // The rest of the payload is untouched.
      expect(after.outbox.get(neverSent.rowId)?.payload).toMatchObject({ localShipmentId: neverSent.shipmentId, orderId: uk.id, request: { recipient: { name: 'x' } } });
    } finally {
      after.close();
    }
  });

  it('leaves a never-sent row alone when another local shipment already holds the new reference', () => {
    const { store } = t;
    const uk = store.orders.insert(draft('UK', '#2236', 'LT'));
    const other = store.orders.insert(draft('main', '#9999'));
    // A shipment adopted from the platform that happens to carry "UK #2236" (another system's reference).
    store.tx(() => store.shipments.createPending({ reference: 'UK #2236', orderId: other.id }));
    const row = pendingRow(store, uk.id, '#2236');
    store.close();
    const db = new Database(t.file);
    db.pragma(`user_version = ${index}`);
    db.close();
    const after = openStore(t.file);
    try {
      expect(after.shipments.getById(row.shipmentId)?.reference).toBe('#2236');
    } finally {
      after.close();
    }
  });
});
