/**
 * Labels ahead from the buyer to the packer (issue 43 item 3): the warehouse's buyer (a bench holding the lease,
 * shipping/ahead-buyer.ts) buys the labels of today's orders once the supervisor turns labels ahead on; a packer at
 * the other bench ships one with the scale's weight and gets that label (the buyer's fingerprint and weight are the
 * ones the bench checks), with no quote and no purchase; one shipped off the scale gets its label cancelled and a
 * new one. Real PostgreSQL, the sandbox, one login per bench (./ahead-floor.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderByNumber } from '../helpers';
import { aheadFloor, printed, within } from './ahead-floor';

const floor = aheadFloor('ahead_bought_used', [9201, 9202, 9203]);
const { counts } = floor;

beforeAll(() => floor.start(), 90_000);
afterAll(() => floor.stop());

/** The warehouse's labels ahead by order key: state, tracking number, weight. */
async function labels() {
  const r = await floor.owner.query<{ order_key: string; state: string; tracking_number: string | null; weight_kg: string | null }>(
    'SELECT order_key, state, tracking_number, weight_kg FROM labels_ahead ORDER BY id',
  );
  return r.rows;
}

describe('a label the buyer bought ahead, at the packer’s bench', () => {
  it('fits: the packer gets it, with no quote and no purchase; off the scale: cancelled, refunded, a new label -2', async () => {
    const { two } = floor;
    await floor.owner.query(`UPDATE ahead_settings SET enabled = true, changed_at = now()`);
    const rows = await within(20_000, labels, (r) => r.filter((x) => x.state === 'bought').length === 3);
    await floor.owner.query(`UPDATE ahead_settings SET enabled = false, changed_at = now()`);
    const first = rows.find((r) => r.order_key === 'Bottega #9201')!;
    const [m0, q0, p0] = [counts.made.length, counts.quotes, printed(two).length];
    const o1 = await orderByNumber(two.invoke, '#9201');
    const res = await two.invoke('shipping.shipOrder', { orderId: o1.id, weightKg: Number(first.weight_kg) });
    expect(res.shipment.trackingNumber).toBe(first.tracking_number);
    expect([counts.made.length - m0, counts.quotes - q0]).toEqual([0, 0]);
    expect(printed(two).length - p0).toBe(1);

    const second = rows.find((r) => r.order_key === 'Bottega #9202')!;
    const o2 = await orderByNumber(two.invoke, '#9202');
    const c0 = counts.cancels.length;
    const off = await two.invoke('shipping.shipOrder', { orderId: o2.id, weightKg: Number(second.weight_kg) + 3 });
    expect(off.shipment.trackingNumber).not.toBe(second.tracking_number);
    expect(off.shipment.reference).toBe('Bottega #9202-2');
    expect(counts.cancels.length - c0).toBe(1);
    expect((await labels()).map((r) => [r.order_key, r.state])).toEqual([
      ['Bottega #9201', 'used'],
      ['Bottega #9202', 'cancelled'],
      ['Bottega #9203', 'bought'],
    ]);
    expect(printed(two).length - p0).toBe(2);
  }, 60_000);
});
