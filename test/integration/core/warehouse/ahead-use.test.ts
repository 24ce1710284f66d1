/**
 * A packer's ship of an order with a label bought ahead (issue 43 item 3), a batch-printed label scanned (item 5),
 * and the bench's End of day in a warehouse (item 4): a real PostgreSQL, the sandbox, one login per bench
 * (./ahead-floor.ts). Each label ahead is bought by the test from the sandbox and put in the warehouse as the buyer does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreIt } from '../../../../renderer/src/lib/locales/core-it';
import { orderByNumber, stationFailure } from '../helpers';
import { untilWarehouse } from '../../../support/warehouse';
import { aheadFloor, printed, within } from './ahead-floor';

const floor = aheadFloor('ahead_use', [9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008, 9009, 9010]);
const { counts } = floor;

beforeAll(() => floor.start(), 90_000);
afterAll(() => floor.stop());

describe('a packer ships an order with a label bought ahead', () => {
  it('fits: shipped with it, no quote and no purchase, printed once, shipped in the warehouse, its claim ended', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9001');
    const [q0, m0, p0] = [counts.quotes, counts.made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg });
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect(res.shipment.reference).toBe(a.key);
    expect(res.printJob?.state).toBe('printed');
    expect([counts.quotes - q0, counts.made.length - m0]).toEqual([0, 0]);
    expect(printed(one).length - p0).toBe(1);
    expect((await floor.aheadRow(a.id)).state).toBe('used');
    expect((await floor.aheadRow(a.id)).used_by).toBe(one.id);
    expect((await orderByNumber(one.invoke, '#9001')).status).toBe('shipped');
    await within(3000, () => floor.warehouseOrder(a.key), (w) => w.shipped && w.tracking_number === a.trackingNumber && w.claims === 0);
    const ships = await floor.owner.query<{ bench_id: string }>(`SELECT bench_id FROM activity WHERE action = 'ship' AND tracking_number = $1`, [a.trackingNumber]);
    await within(3000, async () => (await floor.owner.query(`SELECT 1 FROM activity WHERE action = 'ship' AND tracking_number = $1`, [a.trackingNumber])).rowCount, (n) => n === 1);
    expect(ships.rows.every((r) => r.bench_id === one.id)).toBe(true);
    // The label is the shipment's stored label: printed once, never again by a later drain.
    await new Promise((r) => setTimeout(r, 500));
    expect(printed(one).length - p0).toBe(1);
  });

  it('the scale disagrees: cancelled on the platform, its refund recorded, a new label with reference -2, one label printed', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9002');
    const [c0, m0, p0] = [counts.cancels.length, counts.made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg + 2 });
    expect(res.shipment.trackingNumber).not.toBe(a.trackingNumber);
    expect(res.shipment.reference).toBe(`${a.key}-2`);
    expect(counts.made.slice(m0)).toEqual([`${a.key}-2`]);
    expect(counts.cancels.length - c0).toBe(1);
    const row = await floor.aheadRow(a.id);
    expect(row.state).toBe('cancelled');
    expect(row.cancel_reason).toBe('weight');
    expect(Number(row.refund)).toBeGreaterThan(0);
    expect(printed(one).length - p0).toBe(1);
    expect(one.logs.some((l) => l.includes(a.trackingNumber) && /no longer fits: the scale says/.test(l) && /cancelled, €\d+\.\d\d refunded/.test(l))).toBe(true);
  });

  it('the order changed after the label was bought: cancelled, refunded, a new label with reference -2', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9003', (o) => ({ ...o, recipient: { ...o.recipient, address1: 'Via Vecchia 9' } }));
    const [c0, m0, p0] = [counts.cancels.length, counts.made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg });
    expect(res.shipment.reference).toBe(`${a.key}-2`);
    expect(counts.made.slice(m0)).toEqual([`${a.key}-2`]);
    expect(counts.cancels.length - c0).toBe(1);
    const row = await floor.aheadRow(a.id);
    expect([row.state, row.cancel_reason]).toEqual(['cancelled', 'changed']);
    expect(Number(row.refund)).toBeGreaterThan(0);
    expect(printed(one).length - p0).toBe(1);
  });

  it('a cancel the platform refuses (409): recorded with its words, logged, and the order ships with a new label -2, one label printed', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9007');
    // The label went where it can no longer be cancelled (here: cancelled already from the web panel).
    await floor.client().cancelShipment(a.trackingNumber);
    const [m0, p0] = [counts.made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg + 2 });
    expect(res.shipment.reference).toBe(`${a.key}-2`);
    expect(counts.made.slice(m0)).toEqual([`${a.key}-2`]);
    const row = await floor.aheadRow(a.id);
    expect([row.state, row.cancel_reason]).toEqual(['cancel_refused', 'weight']);
    expect(row.error).toBeTruthy();
    expect(printed(one).length - p0).toBe(1);
    expect(one.logs.some((l) => l.includes(a.trackingNumber) && l.includes('the platform refused to cancel it') && l.includes(row.error!))).toBe(true);
  });

  it('a label still being bought when the packer ships: waited for, then used; nothing bought or quoted by the bench', async () => {
    const { one } = floor;
    const reserved = await floor.reserveAhead(one, '#9008');
    const o = await orderByNumber(one.invoke, '#9008');
    const [m0, q0, p0] = [counts.made.length, counts.quotes, printed(one).length];
    const shipping = one.invoke('shipping.shipOrder', { orderId: o.id });
    // The buyer's POST answers a second later.
    await new Promise((r) => setTimeout(r, 1000));
    const { ahead: a, stored } = await reserved.store();
    expect(stored).toBe('bought');
    const res = await shipping;
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect([counts.made.length - m0, counts.quotes - q0]).toEqual([0, 0]);
    expect(printed(one).length - p0).toBe(1);
    expect((await floor.aheadRow(a.id)).state).toBe('used');
  });

  it('shipped by hand (the platform’s request): the label ahead is cancelled first, never adopted by its reference; the chosen shipment is -2', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9009');
    const plan = await one.invoke('shipping.plan', { orderId: a.order.id });
    const address = plan.request!.recipient.address;
    const rates = await floor.client().quote({ recipient: { address: { postalCode: address.postalCode, countryCode: address.countryCode, city: address.city } }, packages: plan.packages! });
    const rate = rates[rates.length - 1]!;
    const [c0, m0, p0] = [counts.cancels.length, counts.made.length, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, request: { ...plan.request!, carrierCode: rate.carrierCode, serviceType: rate.contractCode } });
    expect(res.shipment.trackingNumber).not.toBe(a.trackingNumber);
    expect(res.shippedElsewhere).toBeFalsy();
    expect(res.shipment.reference).toBe(`${a.key}-2`);
    expect(counts.made.slice(m0)).toEqual([`${a.key}-2`]);
    expect(counts.cancels.length - c0).toBe(1);
    expect(await floor.aheadRow(a.id)).toMatchObject({ state: 'cancelled', cancel_reason: 'changed' });
    expect(printed(one).length - p0).toBe(1);
    expect(one.logs.some((l) => l.includes(a.trackingNumber) && l.includes('the shipment was chosen by hand'))).toBe(true);
  });

  it('a bench killed right after use: the next press uses the same label, never cancels it (even off the scale), prints it once', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9004');
    // The bench marked it used, then died before its local commit.
    const used = await one.db.query('SELECT id FROM use_label_ahead($1, $2, $3)', [one.id, a.id, null]);
    expect(used.rowCount).toBe(1);
    const [c0, m0, q0, p0] = [counts.cancels.length, counts.made.length, counts.quotes, printed(one).length];
    const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg + 2 });
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect([counts.cancels.length - c0, counts.made.length - m0, counts.quotes - q0]).toEqual([0, 0, 0]);
    expect(printed(one).length - p0).toBe(1);
    expect((await floor.aheadRow(a.id)).state).toBe('used');
  });

  it('another bench has the label ahead in use: this bench is refused the order, nothing bought or cancelled', async () => {
    const { one, two } = floor;
    const a = await floor.labelAhead(one, '#9005');
    await one.invoke('scan.resolve', { code: '#9005' });
    const [c0, m0] = [counts.cancels.length, counts.made.length];
    const o2 = await orderByNumber(two.invoke, '#9005');
    const refused = await stationFailure(two.invoke('shipping.shipOrder', { orderId: o2.id }));
    expect(refused.code).toBe('claimed');
    expect([counts.cancels.length - c0, counts.made.length - m0]).toEqual([0, 0]);
    expect((await floor.aheadRow(a.id)).state).toBe('bought');
    await one.invoke('scan.release', {});
  });

  it('a label printed in a batch, scanned at a bench: its order opens for verify, claimed; shipping it prints nothing and buys nothing', async () => {
    const { one, two } = floor;
    const a = await floor.labelAhead(one, '#9006');
    await floor.owner.query(`UPDATE labels_ahead SET state = 'printed', printed_by = $2, printed_at = now() WHERE id = $1`, [a.id, one.id]);
    const scanned = await two.invoke('scan.resolve', { code: a.trackingNumber });
    expect(scanned.kind).toBe('order');
    if (scanned.kind !== 'order') return;
    expect(scanned.order.orderNumber).toBe('#9006');
    expect(scanned).not.toHaveProperty('claimedBy');
    expect((await floor.owner.query<{ bench_id: string }>('SELECT bench_id FROM claims WHERE order_key = $1', [a.key])).rows).toEqual([{ bench_id: two.id }]);
    const [m0, q0, p0] = [counts.made.length, counts.quotes, printed(two).length];
    const res = await two.invoke('shipping.shipOrder', { orderId: scanned.order.id, weightKg: a.weightKg });
    expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
    expect(res.printJob).toBeNull();
    expect([counts.made.length - m0, counts.quotes - q0]).toEqual([0, 0]);
    await new Promise((r) => setTimeout(r, 500));
    expect(printed(two).length - p0).toBe(0);
    await within(3000, () => floor.warehouseOrder(a.key), (w) => w.shipped && w.tracking_number === a.trackingNumber && w.claims === 0);
  });

  it('End of day at a bench in a warehouse says where the day is closed, with the last close, in English and Italian', async () => {
    const { one } = floor;
    const never = await stationFailure(one.invoke('manifests.closeDay', {}));
    expect(never.code).toBe('invalid_state');
    expect(never.message).toBe('The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day (or here, with the supervisor’s PIN)');
    const close = await floor.owner.query<{ id: string }>(`INSERT INTO warehouse_closes (closed_at, closed_at_place) VALUES ('2026-12-07T17:05:00Z', 'page') RETURNING id`);
    await floor.owner.query(`INSERT INTO closed_shipments (tracking_number, close_id, bench_id) VALUES ('T1', $1, $2), ('T2', $1, $2)`, [close.rows[0]!.id, one.id]);
    const said = await stationFailure(one.invoke('manifests.closeDay', {}));
    expect(said.message).toBe('The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day (or here, with the supervisor’s PIN). Last closed at 18:05 on 07/12/2026 with 2 shipments');
    expect(said.text).toEqual({ key: 'dayClosedByWarehouseLast', values: { time: '18:05', date: '07/12/2026', count: 2 } });
    expect(coreIt.coreText.dayClosedByWarehouseLast).toMatch(/^La giornata si chiude una volta per tutto il magazzino/);
      });
  it('the warehouse away: the ordinary path, nothing asked of the labels ahead, nothing cancelled, nothing bought twice', async () => {
    const { one } = floor;
    const a = await floor.labelAhead(one, '#9010');
    // The packer scanned it: the bench holds its claim, so it may ship it while the warehouse is away.
    expect((await one.invoke('scan.resolve', { code: '#9010' })).kind).toBe('order');
    const [c0, m0] = [counts.cancels.length, counts.made.length];
    floor.warehouse(false);
    try {
      await untilWarehouse(one.invoke, false);
      const res = await one.invoke('shipping.shipOrder', { orderId: a.order.id, weightKg: a.weightKg + 2 });
      // The ordinary path looks the order's reference up first (issue 10): the label ahead is the order's shipment on the account.
      expect(res.shipment.trackingNumber).toBe(a.trackingNumber);
      expect(res.shippedElsewhere).toBe(true);
      expect([counts.cancels.length - c0, counts.made.length - m0]).toEqual([0, 0]);
    } finally {
      floor.warehouse(true);
    }
    await untilWarehouse(one.invoke, true, 20_000);
  }, 40_000);
});
