/**
 * Migration 7 "order references per shop" (issue 21), from a version-6 file
 * holding pending shipments and their outbox rows as the station before it
 * wrote them: a shipment row that surely never left takes its order's
 * shop-and-number reference; every row that may have been posted, and every
 * stored shipment, keeps the reference it was sent with.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../../electron/core/store';
import { m0007OrderReferences as step } from '../../../../../electron/core/store/migrations/0007-order-references-per-shop';
import { applyStep, databaseBefore, rows, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

/** Inserts an open order of `shop` numbered `orderNumber` (its key is the number); returns its id. */
function order(db: Database.Database, shop: string, orderNumber: string, country = 'IT'): number {
  return Number(
    db
      .prepare(
        `INSERT INTO orders (shop, order_key, order_number, source, created_at, recipient_name, street, city, postal_code, country_code, currency, status, stored_at, updated_at)
         VALUES (?, ?, ?, 'shopify_csv', '2026-11-20T10:00:00+00:00', ?, 'Via Roma 1', 'Roma', '00184', ?, 'EUR', 'open', 't', 't')`,
      )
      .run(shop, orderNumber, orderNumber, `Customer ${orderNumber}`, country).lastInsertRowid,
  );
}

/** A pending shipment of `orderId` with `reference` (as the old station wrote it) and its queued `shipment.create` row. */
function pendingRow(db: Database.Database, orderId: number, reference: string): { shipmentId: number; rowId: number } {
  const shipmentId = Number(
    db.prepare(`INSERT INTO shipments (order_id, reference, created_at, updated_at) VALUES (?, ?, 't', 't')`).run(orderId, reference).lastInsertRowid,
  );
  const payload = { localShipmentId: shipmentId, orderId, request: { reference, recipient: { name: 'x', address: {} }, packages: [] } };
  const rowId = Number(
    db
      .prepare(`INSERT INTO outbox (kind, payload, state, local_ref, created_at, updated_at) VALUES ('shipment.create', ?, 'queued', ?, 't', 't')`)
      .run(JSON.stringify(payload), `shipment:${shipmentId}`).lastInsertRowid,
  );
  return { shipmentId, rowId };
}

/** The reference on the shipment row and in its outbox row's request. */
function ref(db: Database.Database, shipmentId: number, rowId: number): { shipment: unknown; row: unknown } {
  return {
    shipment: db.prepare('SELECT reference FROM shipments WHERE id = ?').pluck().get(shipmentId),
    row: (JSON.parse(db.prepare<[number], string>('SELECT payload FROM outbox WHERE id = ?').pluck().get(rowId)!) as { request: { reference: string } }).request
      .reference,
  };
}

describe('migration 7 "order references per shop"', () => {
  it('gives a never-sent row its shop-and-number reference; a row that may have been posted keeps the bare number', () => {
    const { db } = t;
    const uk = order(db, 'UK', '#2236', 'LT');
    const tr = order(db, 'Istanbul', '#2236', 'TR');
    const main = order(db, 'main', '#3001');
    const later = order(db, 'UK', '#2240');
    const manual = order(db, 'UK', '#2241');
    const neverSent = pendingRow(db, uk, '#2236');
    const posted = pendingRow(db, tr, '#2236-2');
    const defaultShop = pendingRow(db, main, '#3001');
    const secondShipment = pendingRow(db, later, '#2240-2');
    const attention = pendingRow(db, manual, '#2241');
    db.prepare(`UPDATE outbox SET attempts = 1, posted_at = '2026-11-20T10:05:00.000Z' WHERE id = ?`).run(posted.rowId);
    db.prepare(`UPDATE outbox SET attempts = 1, state = 'needs_attention' WHERE id = ?`).run(attention.rowId);

    expect(applyStep(db, step)).toEqual([7]);
    expect(readUserVersion(db)).toBe(7);
    expect(ref(db, neverSent.shipmentId, neverSent.rowId)).toEqual({ shipment: 'UK #2236', row: 'UK #2236' });
    expect(ref(db, secondShipment.shipmentId, secondShipment.rowId)).toEqual({ shipment: 'UK #2240-2', row: 'UK #2240-2' });
    // Posted (its answer was lost) or refused once: the platform may hold it under the bare number.
    expect(ref(db, posted.shipmentId, posted.rowId)).toEqual({ shipment: '#2236-2', row: '#2236-2' });
    expect(ref(db, attention.shipmentId, attention.rowId)).toEqual({ shipment: '#2241', row: '#2241' });
    // The default shop's reference is its number, as before.
    expect(ref(db, defaultShop.shipmentId, defaultShop.rowId)).toEqual({ shipment: '#3001', row: '#3001' });
    // The rest of the payload is untouched.
    expect(JSON.parse(db.prepare<[number], string>('SELECT payload FROM outbox WHERE id = ?').pluck().get(neverSent.rowId)!)).toEqual({
      localShipmentId: neverSent.shipmentId,
      orderId: uk,
      request: { reference: 'UK #2236', recipient: { name: 'x', address: {} }, packages: [] },
    });
    // Only the reference moved: states, attempts and the rest of each row as they were.
    expect(rows(db, 'SELECT id, state, attempts, posted_at, local_ref FROM outbox ORDER BY id')).toEqual([
      { id: neverSent.rowId, state: 'queued', attempts: 0, posted_at: null, local_ref: `shipment:${neverSent.shipmentId}` },
      { id: posted.rowId, state: 'queued', attempts: 1, posted_at: '2026-11-20T10:05:00.000Z', local_ref: `shipment:${posted.shipmentId}` },
      { id: defaultShop.rowId, state: 'queued', attempts: 0, posted_at: null, local_ref: `shipment:${defaultShop.shipmentId}` },
      { id: secondShipment.rowId, state: 'queued', attempts: 0, posted_at: null, local_ref: `shipment:${secondShipment.shipmentId}` },
      { id: attention.rowId, state: 'needs_attention', attempts: 1, posted_at: null, local_ref: `shipment:${attention.shipmentId}` },
    ]);
  });

  it('leaves a never-sent row alone when another local shipment already holds the new reference', () => {
    const { db } = t;
    const uk = order(db, 'UK', '#2236', 'LT');
    const other = order(db, 'main', '#9999');
    // A shipment adopted from the platform that happens to carry "UK #2236" (another system's reference).
    db.prepare(`INSERT INTO shipments (order_id, reference, created_at, updated_at) VALUES (?, 'UK #2236', 't', 't')`).run(other);
    const row = pendingRow(db, uk, '#2236');

    expect(applyStep(db, step)).toEqual([7]);
    expect(ref(db, row.shipmentId, row.rowId)).toEqual({ shipment: '#2236', row: '#2236' });
  });

  it('leaves a shipment that already has its tracking number, and a row whose reference differs from its shipment, as they were', () => {
    const { db } = t;
    const done = pendingRow(db, order(db, 'UK', '#2250'), '#2250');
    db.prepare(`UPDATE shipments SET tracking_number = 'TRK2250' WHERE id = ?`).run(done.shipmentId);
    const mismatched = pendingRow(db, order(db, 'UK', '#2251'), '#2251');
    db.prepare(`UPDATE shipments SET reference = 'hand-edited' WHERE id = ?`).run(mismatched.shipmentId);

    expect(applyStep(db, step)).toEqual([7]);
    expect(ref(db, done.shipmentId, done.rowId)).toEqual({ shipment: '#2250', row: '#2250' });
    expect(ref(db, mismatched.shipmentId, mismatched.rowId)).toEqual({ shipment: 'hand-edited', row: '#2251' });
  });
});
