/** `Store.bulkTx`, what the order import writes with (issue 21 item 7): one transaction per call, rolled back whole on an error. */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempStore } from './helpers';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

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
});
