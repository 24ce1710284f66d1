import { MAX_SHIPMENTS_PER_ORDER, shipmentReference } from '../../../../shared/domain/order-reference';
import type { Migration } from './migration';

/**
 * Migration 7 (issue 21, an order's identity is its shop and its number): an
 * order's shipment reference became shop and number (`shipmentReference`,
 * shared/domain/order-reference.ts) where it was the bare order number, which
 * two shops may share. A reference is data, never computed again: every
 * shipment and every outbox row keeps the one it may have been posted with,
 * so a row posted under the bare number is still looked up by it (and adopted
 * only with the same recipient, outbox/shipment-lookup.ts). Only a
 * `shipment.create` row that surely never left (queued, never claimed:
 * `attempts` 0, no `posted_at`) whose pending shipment carries the bare form
 * (`#2236`, or `#2236-2` for a later shipment) takes its order's new
 * reference, on the row and the pending shipment alike, unless another local
 * shipment already holds it. Nothing on the platform can hold the old one for it.
 */
export const m0007OrderReferences: Migration = {
  version: 7,
  name: 'order references per shop',
  up(db) {
    const rows = db
      .prepare<[], { id: number; payload: string; shipment_id: number; reference: string | null; shop: string; order_number: string }>(
        `SELECT o.id, o.payload, s.id AS shipment_id, s.reference, ord.shop, ord.order_number
         FROM outbox o
         JOIN shipments s ON s.id = json_extract(o.payload, '$.localShipmentId')
         JOIN orders ord ON ord.id = json_extract(o.payload, '$.orderId')
         WHERE o.kind = 'shipment.create' AND o.state = 'queued' AND o.attempts = 0 AND o.posted_at IS NULL
           AND s.tracking_number IS NULL`,
      )
      .all();
    const taken = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM shipments WHERE reference = ?');
    const setPayload = db.prepare<[string, number], never>('UPDATE outbox SET payload = ? WHERE id = ?');
    const setReference = db.prepare<[string, number], never>('UPDATE shipments SET reference = ? WHERE id = ?');
    for (const r of rows) {
      const payload = JSON.parse(r.payload) as { request?: { reference?: unknown } };
      const old = payload.request?.reference;
      if (typeof old !== 'string' || old !== r.reference) continue;
      let n: number | undefined;
      if (old === r.order_number) n = 1;
      else if (old.startsWith(`${r.order_number}-`) && /^[1-9]\d*$/.test(old.slice(r.order_number.length + 1))) n = Number(old.slice(r.order_number.length + 1));
      if (n === undefined || n > MAX_SHIPMENTS_PER_ORDER) continue;
      const ref = shipmentReference({ shop: r.shop, orderNumber: r.order_number }, n);
      if (ref === old || (taken.get(ref)?.n ?? 0) > 0) continue;
      setPayload.run(JSON.stringify({ ...payload, request: { ...payload.request, reference: ref } }), r.id);
      setReference.run(ref, r.shipment_id);
    }
  },
};
