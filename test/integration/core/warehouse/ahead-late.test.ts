/**
 * A label ahead that comes too late (issue 43 item 3, schema 9): a packer's press waits for a purchase still on its
 * way only so long, then abandons it and ships the order with a label of its own under the order's next reference.
 * Whatever the late purchase bought is cancelled, its refund recorded: by its buyer when the platform's answer
 * comes, by the settling step when that buyer stopped, by the close of the day when the cancel did not go through.
 * Never two live labels for one order. A real PostgreSQL, the sandbox, one login per bench (./ahead-floor.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderByNumber } from '../helpers';
import { aheadFloor, printed, within } from './ahead-floor';

// The press waits 1.5 s here (20 s at a bench): the purchase's answer comes later than that.
const floor = aheadFloor('ahead_late', [9101, 9102, 9103, 9104, 9105], { pressWaitMs: 1500 });
const { counts } = floor;

beforeAll(() => floor.start(), 90_000);
afterAll(() => floor.stop());

/** The platform's live (not cancelled) shipments of `reference` and of its `-2`. */
async function liveOnPlatform(reference: string): Promise<string[]> {
  const client = floor.client();
  const out: string[] = [];
  for (const ref of [reference, `${reference}-2`]) {
    const list = await client.listShipments({ reference: ref, per_page: 50 });
    for (const s of list.data) if (s.reference === ref && s.cancelled !== true && !s.cancelledAt) out.push(`${ref} ${s.trackingNumber}`);
  }
  return out.sort();
}

/** POST /__sandbox/faults (test control of the platform). */
async function fault(body: unknown): Promise<void> {
  const res = await fetch(`${new URL(floor.sandbox().baseUrl).origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

/** The buyer's lease given to `benchId` for an hour, and labels ahead on for a rule no order has: it only settles. */
async function onlySettlingAt(benchId: string): Promise<void> {
  await floor.owner.query(`UPDATE ahead_buyer SET bench_id = $1, until = now() + interval '1 hour'`, [benchId]);
  await floor.owner.query(`UPDATE ahead_settings SET enabled = true, rules = ARRAY['no such rule'], changed_at = now()`);
}

describe('a label ahead that comes after the packer stopped waiting for it', () => {
  it('the press abandons the purchase and ships with its own label -2; the late answer is cancelled by its buyer, refunded', async () => {
    const { one, two } = floor;
    // Bench 1's buyer reserved #9101 and its POST reached the platform; the answer has not come back yet.
    const reserved = await floor.reserveAhead(one, '#9101');
    const o = await orderByNumber(two.invoke, '#9101');
    const [m0, p0] = [counts.made.length, printed(two).length];
    const res = await two.invoke('shipping.shipOrder', { orderId: o.id });
    // Its own label under the next reference, never the late one adopted by its reference.
    expect(res.shipment.reference).toBe(`${reserved.key}-2`);
    expect(res.shipment.trackingNumber).not.toBe(reserved.trackingNumber);
    expect(res.shippedElsewhere).toBeFalsy();
    expect(counts.made.slice(m0)).toEqual([`${reserved.key}-2`]);
    expect(printed(two).length - p0).toBe(1);
    expect(await floor.aheadRow(reserved.id)).toMatchObject({ state: 'abandoned' });
    expect(two.logs.some((l) => l.includes('#9101') && l.includes('is cancelled if it comes'))).toBe(true);
    // The buyer's answer comes now: kept, but as abandoned, never a label ahead.
    const { stored } = await reserved.store();
    expect(stored).toBe('abandoned');
    // Its buyer cancels it (the settling step of bench 1, the lease holder).
    const c0 = counts.cancels.length;
    await onlySettlingAt(one.id);
    const row = await within(10_000, () => floor.aheadRow(reserved.id), (r) => r.state !== 'abandoned');
    expect(row).toMatchObject({ state: 'cancelled', cancel_reason: 'late' });
    expect(Number(row.refund)).toBeGreaterThan(0);
    expect(counts.cancels.slice(c0)).toEqual([expect.stringContaining(reserved.trackingNumber)]);
    expect(one.logs).toContainEqual(`labels ahead: ${reserved.trackingNumber} for ${reserved.key} came after the packer stopped waiting for it: cancelled, ${Number(row.refund).toFixed(2)} EUR refunded`);
    // One live label for the order, the packer's; the warehouse's order shipped with it.
    expect(await liveOnPlatform(reserved.key)).toEqual([`${reserved.key}-2 ${res.shipment.trackingNumber}`]);
    await within(5000, () => floor.warehouseOrder(reserved.key), (w) => w.shipped && w.tracking_number === res.shipment.trackingNumber && w.claims === 0);
  }, 40_000);

  it('a buyer that stopped after its POST: the settling step finds the abandoned purchase by its reference and cancels it', async () => {
    const { one, two } = floor;
    await floor.owner.query(`UPDATE ahead_settings SET enabled = false, changed_at = now()`);
    // Bench 1's purchase of #9102 reached the platform, and bench 1 never hears its answer (it stopped).
    const reserved = await floor.reserveAhead(one, '#9102');
    const o = await orderByNumber(two.invoke, '#9102');
    const res = await two.invoke('shipping.shipOrder', { orderId: o.id });
    expect(res.shipment.reference).toBe(`${reserved.key}-2`);
    expect(await floor.aheadRow(reserved.id)).toMatchObject({ state: 'abandoned' });
    // Its reservation gets old (the floor settles after 5 s), then the lease holder settles it.
    await floor.owner.query(`UPDATE labels_ahead SET reserved_at = now() - interval '1 minute' WHERE id = $1`, [reserved.id]);
    await onlySettlingAt(one.id);
    const row = await within(10_000, () => floor.aheadRow(reserved.id), (r) => r.state !== 'abandoned');
    expect(row).toMatchObject({ state: 'cancelled', cancel_reason: 'late' });
    expect(await liveOnPlatform(reserved.key)).toEqual([`${reserved.key}-2 ${res.shipment.trackingNumber}`]);
  }, 40_000);

  it('a purchase abandoned that bought nothing ends failed; no label is bought for the order after it', async () => {
    const { one, two } = floor;
    await floor.owner.query(`UPDATE ahead_settings SET enabled = false, changed_at = now()`);
    // A reservation of #9103 whose POST never reached the platform.
    const o = await orderByNumber(two.invoke, '#9103');
    const key = 'Bottega #9103';
    const id = Number(
      (await one.db.query<{ id: string }>('SELECT reserve_label_ahead($1, $2, $2, $3, $4, 1.2, $5, NULL) AS id', [one.id, key, 'x', 'Italia', 'VASO'])).rows[0]!.id,
    );
    const res = await two.invoke('shipping.shipOrder', { orderId: o.id });
    expect(res.shipment.reference).toBe(`${key}-2`);
    await floor.owner.query(`UPDATE labels_ahead SET reserved_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    await onlySettlingAt(one.id);
    const row = await within(10_000, () => floor.aheadRow(id), (r) => r.state !== 'abandoned');
    expect(row).toMatchObject({ state: 'failed', error: 'no shipment found for the reservation' });
    expect(one.logs).toContainEqual(`labels ahead: ${key}, abandoned by a packer's press: nothing was bought, ended failed`);
    expect(await liveOnPlatform(key)).toEqual([`${key}-2 ${res.shipment.trackingNumber}`]);
  }, 40_000);

  it('a purchase an earlier press abandoned before sending anything: the next press keeps off it too, its own label -2', async () => {
    const { one, two } = floor;
    await floor.owner.query(`UPDATE ahead_settings SET enabled = false, changed_at = now()`);
    // The late purchase is at the platform under the order's reference; the press that abandoned it sent nothing.
    const reserved = await floor.reserveAhead(one, '#9105');
    await floor.owner.query(`UPDATE labels_ahead SET state = 'abandoned' WHERE id = $1`, [reserved.id]);
    const o = await orderByNumber(two.invoke, '#9105');
    const res = await two.invoke('shipping.shipOrder', { orderId: o.id });
    // Never the late label adopted by its reference: its buyer cancels it.
    expect(res.shipment.reference).toBe(`${reserved.key}-2`);
    expect(res.shippedElsewhere).toBeFalsy();
    expect(res.shipment.trackingNumber).not.toBe(reserved.trackingNumber);
  }, 40_000);

  it('the real buyer: its POST held by a congested platform, the press abandons it; the answer comes and the buyer cancels that label', async () => {
    const { one, two } = floor;
    await floor.owner.query(`UPDATE ahead_settings SET enabled = false, changed_at = now()`);
    // The next POST /shipments (the buyer's) waits 6 s at the platform before it is handled.
    await fault({ hold: { next: 1, ms: 6000, endpoints: ['POST /shipments'] } });
    await floor.owner.query(`UPDATE ahead_buyer SET bench_id = $1, until = now() + interval '1 hour'`, [one.id]);
    await floor.owner.query(`UPDATE ahead_settings SET enabled = true, rules = NULL, changed_at = now()`);
    const key = 'Bottega #9104';
    const reserved = await within(10_000, async () => (await floor.owner.query<{ id: string; state: string }>(`SELECT id, state FROM labels_ahead WHERE order_key = $1`, [key])).rows[0], (r) => r?.state === 'buying');
    const o = await orderByNumber(two.invoke, '#9104');
    const res = await two.invoke('shipping.shipOrder', { orderId: o.id });
    expect(res.shipment.reference).toBe(`${key}-2`);
    expect(res.shippedElsewhere).toBeFalsy();
    // The held purchase is answered, stored as abandoned and cancelled by its buyer.
    const row = await within(15_000, () => floor.aheadRow(Number(reserved!.id)), (r) => r.state !== 'buying' && r.state !== 'abandoned');
    expect(row).toMatchObject({ state: 'cancelled', cancel_reason: 'late' });
    expect(Number(row.refund)).toBeGreaterThan(0);
    expect(await liveOnPlatform(key)).toEqual([`${key}-2 ${res.shipment.trackingNumber}`]);
    expect(one.logs).toContainEqual(expect.stringMatching(new RegExp(`^labels ahead: \\S+ for ${key} came after the packer stopped waiting for it: cancelled, \\d+\\.\\d\\d EUR refunded$`)));
    await fault({ hold: null });
  }, 40_000);
});
