/**
 * The order list's cursors (electron/core/orders/page.ts): a page's `next`
 * continues the same sort from the store's sort index; another sort's cursor,
 * or text that is no cursor, is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderPage } from '../../../../electron/core/orders/page';
import type { Store } from '../../../../electron/core/store';
import { orderDraft as draft, tempStore } from '../store/helpers';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());


describe('orders.page: keyset pages by cursor (issue 27 item 3)', () => {
  it('walking every sort by cursor gives the same orders as by offset, and a cursor of another sort is refused', () => {
    const cities = ['Roma', 'Leeds', 'Milano'];
    for (let i = 0; i < 23; i++) {
      store.orders.insert(
        draft(`#${3000 + ((i * 7) % 23)}`, {
          createdAt: `2026-09-${String(10 + (i % 5)).padStart(2, '0')}T10:00:00.000Z`, // ties on created_at: the id decides
          recipient: { name: i % 2 ? 'Anna Verdi' : 'bruno neri', street: 'Via 1', city: cities[i % 3]!, postalCode: '00100', countryCode: (['IT', 'GB', 'FR'] as const)[i % 3]! },
        }),
      );
    }
    for (const sort of ['newest', 'oldest', 'number', 'name', 'country'] as const) {
      const byOffset = orderPage(store, { view: 'all', sort, limit: 500 }).orders.map((o) => o.id);
      const walked: number[] = [];
      let after: string | undefined;
      for (let guard = 0; guard < 20; guard++) {
        const p = orderPage(store, { view: 'all', sort, limit: 4, ...(after !== undefined ? { after } : {}) });
        walked.push(...p.orders.map((o) => o.id));
        if (p.next === undefined) break;
        after = p.next;
      }
      expect(walked, sort).toEqual(byOffset);
      expect(byOffset).toHaveLength(23);
    }
    const newest = orderPage(store, { view: 'all', sort: 'newest', limit: 4 }).next!;
    expect(() => orderPage(store, { view: 'all', sort: 'number', after: newest })).toThrow(expect.objectContaining({ code: 'invalid_input', details: { after: [expect.any(String)] } }));
    expect(() => orderPage(store, { view: 'all', sort: 'newest', after: 'not-a-cursor' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    // A search pages by cursor too.
    const q = orderPage(store, { view: 'all', q: 'verdi', limit: 5 });
    const rest = orderPage(store, { view: 'all', q: 'verdi', limit: 500, after: q.next! });
    expect([...q.orders, ...rest.orders].map((o) => o.id)).toEqual(orderPage(store, { view: 'all', q: 'verdi', limit: 500 }).orders.map((o) => o.id));
  });
});
