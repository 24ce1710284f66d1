/**
 * A batch of labels ahead printed at the bench the supervisor chose (issue 43 item 5): a real PostgreSQL, the
 * sandbox, one login per bench (./ahead-floor.ts). The batch is made as the warehouse's owner (its INSERT sends
 * NOTIFY warehouse_batches); the chosen bench prints its labels in the batch's order and says which it printed; the
 * other bench prints nothing; a packer shipping an order whose label waits in the batch waits for it and prints
 * nothing; a printer that refuses stops the batch with its error and its labels go back to waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aheadFloor, printed, within, type Ahead, type Bench } from './ahead-floor';

const floor = aheadFloor('ahead_batch', [9101, 9102, 9103, 9104, 9105, 9106]);
const { counts } = floor;

beforeAll(() => floor.start(), 90_000);
afterAll(() => floor.stop());

/** Makes a batch for `bench` of `labels` in this print order, as the supervisor's page does (one transaction). */
async function batch(bench: Bench, labels: readonly Ahead[]): Promise<number> {
  const db = floor.owner;
  await db.query('BEGIN');
  try {
    const made = await db.query<{ id: string }>(`INSERT INTO label_batches (bench_id, selection, face_down, labels) VALUES ($1, '{"sku":"VASO"}', false, $2) RETURNING id`, [bench.id, labels.length]);
    const id = Number(made.rows[0]!.id);
    for (const [i, a] of labels.entries()) await db.query(`UPDATE labels_ahead SET state = 'batched', batch_id = $2, batch_pos = $3 WHERE id = $1`, [a.id, id, i + 1]);
    await db.query('COMMIT');
    return id;
  } catch (e) {
    await db.query('ROLLBACK');
    throw e;
  }
}

async function batchRow(id: number) {
  return (await floor.owner.query<{ state: string; error: string | null }>('SELECT state, error FROM label_batches WHERE id = $1', [id])).rows[0]!;
}

describe('a batch of labels ahead printed at the chosen bench', () => {
  it('prints in the batch’s order at the chosen bench only, marks them printed; a packer whose label waits in it prints nothing', async () => {
    const { one, two } = floor;
    const labels = [await floor.labelAhead(one, '#9103'), await floor.labelAhead(one, '#9101'), await floor.labelAhead(one, '#9102'), await floor.labelAhead(one, '#9104')];
    const [p1, p2, m0, q0] = [printed(one).length, printed(two).length, counts.made.length, counts.quotes];
    const id = await batch(two, labels);
    // Bench 1 ships #9104 while its label waits in Bench 2's batch: it waits for the batch, then prints nothing.
    const last = labels[3]!;
    const res = await one.invoke('shipping.shipOrder', { orderId: last.order.id, weightKg: last.weightKg });
    expect(res.shipment.trackingNumber).toBe(last.trackingNumber);
    expect(res.printJob).toBeNull();
    expect((await within(5000, () => batchRow(id), (b) => b.state !== 'waiting')).state).toBe('printed');
    expect(printed(two).slice(p2)).toEqual(labels.map((a) => `${a.trackingNumber}.zpl`));
    expect(printed(one).length).toBe(p1);
    for (const a of labels.slice(0, 3)) expect(await floor.aheadRow(a.id)).toMatchObject({ state: 'printed', printed_by: two.id });
    expect(await floor.aheadRow(last.id)).toMatchObject({ state: 'used', printed_by: two.id, used_by: one.id });
    expect([counts.made.length - m0, counts.quotes - q0]).toEqual([0, 0]);
    expect(two.logs).toContain(`labels ahead: batch ${id} printed, 4 labels`);
  });

  it('a printer that refuses stops the batch with its error; its labels go back to waiting (bought)', async () => {
    const { one } = floor;
    // A bench whose label printer is a closed port.
    const three = await floor.bench('Bench 3', 'bench3', 'socket://127.0.0.1:9');
    const labels = [await floor.labelAhead(one, '#9105'), await floor.labelAhead(one, '#9106')];
    const id = await batch(three, labels);
    const row = await within(15_000, () => batchRow(id), (b) => b.state !== 'waiting');
    expect(row.state).toBe('failed');
    expect(row.error).toMatch(/^Batch \d+ stopped after 0 of 2 labels: .+\. The rest wait to be printed again$/);
    for (const a of labels) expect((await floor.aheadRow(a.id)).state).toBe('bought');
  }, 30_000);
});
