/** `Store.bulkTx` and `Store.deferCheckpoints`, what the order import writes with (issue 21 item 7). */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempStore } from './helpers';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const walBytes = (file: string) => statSync(`${file}-wal`).size;
/** A valid order draft numbered `n`. */
const draft = (n: number) => ({
  orderNumber: `#${n}`,
  createdAt: '2026-10-01T08:00:00.000Z',
  source: 'shopify_csv' as const,
  recipient: { name: `Customer ${n}`, street: 'Via Roma 1', city: 'Roma', postalCode: '00184', countryCode: 'IT' },
  items: [{ name: 'Mug', quantity: 1, unitPrice: 9.5 }],
  currency: 'EUR',
  status: 'open' as const,
});

describe('bulk writes', () => {
  it('bulkTx commits each slice, and a slice that throws writes nothing', () => {
    const t = tempStore();
    cleanup = t.cleanup;
    for (let i = 0; i < 3; i++) t.store.bulkTx(() => t.store.orders.upsertImported(draft(i), `h${i}`, { indexLater: true }));
    expect(t.store.orders.pendingIndexCount()).toBe(3);
    expect(() =>
      t.store.bulkTx(() => {
        t.store.orders.upsertImported(draft(9), 'h9', { indexLater: true });
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(t.store.orders.pendingIndexCount()).toBe(3);
    const db = new Database(t.file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 3 });
    db.close();
  });

  it('deferCheckpoints lets the WAL grow past the usual 1,000 pages, then checkpoints once and empties it', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    let during = 0;
    const result = await t.store.deferCheckpoints(async () => {
      for (let slice = 0; slice < 40; slice++) {
        t.store.bulkTx(() => {
          for (let i = 0; i < 100; i++) t.store.orders.upsertImported(draft(slice * 100 + i), `h${slice}-${i}`, { indexLater: true });
        });
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      // Frames in the WAL now (a checkpoint by another connection answers [busy, frames in the log, frames copied]).
      const other = new Database(t.file);
      during = (other.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]?.log ?? 0;
      other.close();
      return 'done';
    });
    expect(result).toBe('done');
    // SQLite's automatic checkpoint at 1,000 frames would have restarted the WAL below this.
    expect(during).toBeGreaterThan(1500);
    expect(walBytes(t.file)).toBe(0);
    const db = new Database(t.file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 4000 });
    db.close();
  });

  it('deferCheckpoints rethrows the error of its work after the checkpoint', async () => {
    const t = tempStore();
    cleanup = t.cleanup;
    await expect(
      t.store.deferCheckpoints(async () => {
        t.store.bulkTx(() => t.store.orders.upsertImported(draft(1), 'h1', { indexLater: true }));
        throw new Error('file refused');
      }),
    ).rejects.toThrow('file refused');
    expect(walBytes(t.file)).toBe(0);
    expect(t.store.orders.pendingIndexCount()).toBe(1);
  });
});
