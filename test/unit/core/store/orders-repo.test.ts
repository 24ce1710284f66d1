import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../electron/core/store';
import type { OrderDraft } from '../../../../electron/core/store';
import { ORDER_PARAM_COLUMNS, orderParams } from '../../../../electron/core/store/orders-rows';
import { orderDraft as draft, tempStore, testClock } from './helpers';

let store: Store;
let file: string;
let cleanup: () => void;
beforeEach(() => ({ store, file, cleanup } = tempStore()));
afterEach(() => cleanup());


describe('orders repository', () => {
  it('inserts and reads back an order with items in order, optional fields absent', () => {
    const o = store.orders.insert(draft('#1001'));
    expect(o.id).toBeGreaterThan(0);
    expect(o).toEqual({ id: o.id, shop: 'main', paymentStatus: 'unknown', delivery: 'ship', needsFix: [], ...draft('#1001') });
    expect('notes' in o).toBe(false);
    expect('company' in o.recipient).toBe(false);
    expect(o.items[1]).toEqual({ name: 'Biglietto', quantity: 1, unitPrice: 0 });
    expect(store.orders.getByNumber('#1001')).toEqual(o);
    expect(store.orders.getById(o.id)).toEqual(o);
    expect(store.orders.getById(o.id + 100)).toBeUndefined();
  });

  it('refuses a duplicate order number with a conflict naming the field', () => {
    store.orders.insert(draft('#1001'));
    expect(() => store.orders.insert(draft('#1001'))).toThrow(
      expect.objectContaining({ code: 'conflict', details: { orderNumber: ['Order #1001 of shop main already exists'] } }),
    );
    expect(store.orders.count()).toBe(1);
  });

  it('upsertImported: imported, unchanged, updated (items replaced), skipped when manual or shipped', () => {
    const up = (d: OrderDraft, h: string) => store.orders.upsertImported(d, h);
    expect(up(draft('#1001'), 'h1').outcome).toBe('imported');
    expect(up(draft('#1001'), 'h1').outcome).toBe('unchanged');
    const newItems = [
      { sku: 'PIATTO', name: 'Piatto', quantity: 3, unitPrice: 4 },
      { sku: 'TAZZA-BLU', name: 'Tazza blu', quantity: 2, unitPrice: 9.5, fulfilled: true },
    ];
    const changed = draft('#1001', { recipient: { ...draft('#1001').recipient, street: 'Via Nazionale 3' }, items: newItems });
    expect(up(changed, 'h2').outcome).toBe('updated');
    const after = store.orders.getByNumber('#1001');
    expect(after?.recipient.street).toBe('Via Nazionale 3');
    expect(after?.items).toEqual(newItems);

    // A cut-short file (fewer lines) never lowers the order's lines.
    const partial = draft('#1001', { items: [{ name: 'Piatto', quantity: 3, unitPrice: 4 }] });
    expect(up(partial, 'h2b')).toEqual({ outcome: 'skipped', reason: 'fewer_lines', id: after!.id });
    expect(store.orders.getByNumber('#1001')?.items).toEqual(newItems);

    // Shipped at the station: the file no longer wins.
    store.orders.markShipped(after!.id, 'LDV000000001');
    expect(up(draft('#1001'), 'h3')).toMatchObject({ outcome: 'skipped', reason: 'already_shipped' });
    expect(store.orders.getByNumber('#1001')?.recipient.street).toBe('Via Nazionale 3');

    store.orders.insert(draft('M-1', { source: 'manual' }));
    expect(up(draft('M-1'), 'h4')).toMatchObject({ outcome: 'skipped', reason: 'manual' });
    expect(store.orders.getByNumber('M-1')?.source).toBe('manual');
  });

  it('lists open first then newest, filters by status, pages', () => {
    store.orders.insert(draft('#1', { createdAt: '2026-09-01T00:00:00.000Z' }));
    store.orders.insert(draft('#2', { createdAt: '2026-09-03T00:00:00.000Z', status: 'shipped' }));
    store.orders.insert(draft('#3', { createdAt: '2026-09-02T00:00:00.000Z' }));
    store.orders.insert(draft('#4', { createdAt: '2026-09-04T00:00:00.000Z', status: 'cancelled' }));
    expect(store.orders.list().map((o) => o.orderNumber)).toEqual(['#3', '#1', '#4', '#2']);
    expect(store.orders.list({ status: 'open' }).map((o) => o.orderNumber)).toEqual(['#3', '#1']);
    expect(store.orders.list({ status: ['shipped', 'cancelled'] }).map((o) => o.orderNumber)).toEqual(['#4', '#2']);
    expect(store.orders.list({ status: [] })).toEqual([]);
    expect(store.orders.list({ limit: 2, offset: 1 }).map((o) => o.orderNumber)).toEqual(['#1', '#4']);
    expect(store.orders.count({ status: 'open' })).toBe(2);
    expect(store.orders.count({ status: 'all' })).toBe(4);
  });

  it('searches number, recipient, city, postal code and item SKU/name; LIKE wildcards are literal', () => {
    store.orders.insert(draft('#1001'));
    store.orders.insert(
      draft('#1002', {
        recipient: { name: 'Marco Bianchi', street: 'Corso Buenos Aires 5', city: 'Milano', province: 'MI', postalCode: '20124', countryCode: 'IT' },
        items: [{ sku: 'SAPONE_100%', name: 'Sapone al 100% olio', quantity: 1, unitPrice: 6 }],
      }),
    );
    const nums = (q: string) => store.orders.search(q).map((o) => o.orderNumber);
    expect(nums('1002')).toEqual(['#1002']);
    expect(nums('bianchi')).toEqual(['#1002']);
    expect(nums('Roma')).toEqual(['#1001']);
    expect(nums('20124')).toEqual(['#1002']);
    expect(nums('tazza-blu')).toEqual(['#1001']);
    expect(nums('100%')).toEqual(['#1002']);
    expect(nums('_')).toEqual(['#1002']); // only the SKU has a literal underscore
    expect(nums('%')).toEqual(['#1002']);
    expect(nums('   ')).toEqual([]);
    expect(store.orders.search('Rossi', { status: 'shipped' })).toEqual([]);
  });

  it('findByScan accepts the number with or without # and in any case', () => {
    const o = store.orders.insert(draft('#1001'));
    const m = store.orders.insert(draft('M-20261001-001', { source: 'manual' }));
    expect(store.orders.findByScan('#1001')?.id).toBe(o.id);
    expect(store.orders.findByScan(' 1001 ')?.id).toBe(o.id);
    expect(store.orders.findByScan('m-20261001-001')?.id).toBe(m.id);
    expect(store.orders.findByScan('9999')).toBeUndefined();
    expect(store.orders.findByScan('')).toBeUndefined();
  });

  it('writes every column of an order: the positional insert lists every key of orderParams, in its order', () => {
    expect(Object.keys(orderParams(draft('#1001')))).toEqual([...ORDER_PARAM_COLUMNS]);
    const full = draft('#1002', {
      shop: 'UK', shopOrderId: '5551', paymentStatus: 'paid', delivery: 'pickup', shippingMethod: 'Collect', needsFix: ['postalCode'],
      recipient: { name: 'Ona K', company: 'Ona UAB', street: 'Gedimino 1', street2: 'b. 4', city: 'Vilnius', province: 'VL', postalCode: '01103', countryCode: 'LT', phone: '+370 600', email: 'ona@example.lt' },
      notes: 'Fragile', shipmentTrackingNumber: 'LDV9', status: 'shipped',
    });
    const { id, ...stored } = store.orders.insert(full);
    expect(id).toBeGreaterThan(0);
    expect(stored).toEqual(full);
  });

  it('getByNumber and getByShopNumber match the exact number (case kept), from the number index, not by reading every order', () => {
    const a = store.orders.insert(draft('#A100', { shop: 'UK' }));
    const b = store.orders.insert(draft('#A100', { shop: 'Istanbul' }));
    store.orders.insert(draft('#a100', { shop: 'Istanbul' }));
    expect(store.orders.getByNumber('#A100')?.id).toBe(a.id);
    expect(store.orders.getByNumber('#a100')?.shop).toBe('Istanbul');
    expect(store.orders.getByNumber('#A1')).toBeUndefined();
    expect(store.orders.getByShopNumber('Istanbul', '#A100')?.id).toBe(b.id);
    expect(store.orders.getByShopNumber('UK', '#a100')).toBeUndefined();
    // The plans of the statements these two run (recorded as executed), on this store's file.
    const probe = new Database(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { get: (...a: unknown[]) => unknown };
    probe.close();
    const get = proto.get;
    const ran: Array<{ source: string; args: unknown[] }> = [];
    proto.get = function (this: { source: string }, ...args: unknown[]) {
      ran.push({ source: this.source, args });
      return get.apply(this, args);
    };
    try {
      store.orders.getByNumber('M-20261126-001');
      store.orders.getByShopNumber('UK', 'M-20261126-001');
    } finally {
      proto.get = get;
    }
    const db = new Database(file, { readonly: true });
    try {
      const plans = ran.map((r) => (db.prepare(`EXPLAIN QUERY PLAN ${r.source}`).all(...r.args) as Array<{ detail: string }>).map((p) => p.detail).join('; '));
      expect(plans).toEqual([
        expect.stringMatching(/^SEARCH orders USING INDEX orders_number_shop \(order_number=\?\)/),
        expect.stringMatching(/^SEARCH orders USING INDEX orders_number_shop \(order_number=\? AND shop=\?\)/),
      ]);
    } finally {
      db.close();
    }
  });

  it('setStatus and markShipped; reopening clears the tracking number; unknown id is not_found', () => {
    const o = store.orders.insert(draft('#1001'));
    expect(store.orders.markShipped(o.id, 'LDV1').shipmentTrackingNumber).toBe('LDV1');
    const reopened = store.orders.setStatus(o.id, 'open');
    expect(reopened.status).toBe('open');
    expect(reopened.shipmentTrackingNumber).toBeUndefined();
    expect(() => store.orders.setStatus(999, 'cancelled')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});

describe('orders repository: the list page (issue 12)', () => {
  it('searches number, name, city and SKU through the trigram index; filters and sorts; pages with a total', () => {
    store.orders.insert(draft('#1001', { createdAt: '2026-09-01T00:00:00.000Z' }));
    store.orders.insert(
      draft('#1002', {
        shop: 'UK',
        createdAt: '2026-09-02T00:00:00.000Z',
        recipient: { name: 'Tom Hughes', street: '10 Downing Lane', city: 'Leeds', postalCode: 'LS1 4AP', countryCode: 'GB' },
        items: [{ sku: 'UK-MUG-XL', name: 'Mug', quantity: 1, unitPrice: 8 }],
        shippingMethod: 'Royal Mail',
        paymentStatus: 'unpaid',
      }),
    );
    store.orders.insert(draft('#1003', { createdAt: '2026-09-03T00:00:00.000Z', status: 'shipped' }));
    const nums = (q: Parameters<typeof store.orders.page>[0]) => store.orders.page(q).orders.map((o) => o.orderNumber);
    expect(nums({})).toEqual(['#1002', '#1001']); // to ship, newest first
    expect(nums({ q: 'mug-x' })).toEqual(['#1002']); // SKU substring, any case
    expect(nums({ q: 'HUGH' })).toEqual(['#1002']);
    expect(nums({ q: 'leeds' })).toEqual(['#1002']);
    expect(nums({ q: '1001' })).toEqual(['#1001']);
    expect(nums({ q: '10' })).toEqual(['#1002', '#1001']); // short: start of the number
    expect(nums({ q: '"; DROP' })).toEqual([]); // no FTS syntax is interpreted
    expect(nums({ shop: 'UK' })).toEqual(['#1002']);
    expect(nums({ country: 'IT' })).toEqual(['#1001']);
    expect(nums({ carrier: 'Royal Mail' })).toEqual(['#1002']);
    expect(nums({ unpaid: true })).toEqual(['#1002']);
    expect(nums({ sort: 'oldest' })).toEqual(['#1001', '#1002']);
    expect(nums({ sort: 'name' })).toEqual(['#1001', '#1002']); // Giulia before Tom
    expect(nums({ view: 'shipped' })).toEqual(['#1003']);
    expect(store.orders.page({ view: 'all', limit: 1, offset: 1 })).toMatchObject({ total: 3, offset: 1, orders: [{ orderNumber: '#1002' }] });
    expect(store.orders.facets()).toEqual({ shops: ['UK', 'main'], countries: ['GB', 'IT'], carriers: ['Royal Mail'] });
    // An updated order is re-indexed.
    store.orders.upsertImported(draft('#1004', { items: [{ sku: 'OLD-SKU', name: 'a', quantity: 1, unitPrice: 1 }] }), 'h1');
    store.orders.upsertImported(draft('#1004', { items: [{ sku: 'NEW-SKU', name: 'a', quantity: 1, unitPrice: 1 }] }), 'h2');
    expect(nums({ q: 'old-sku' })).toEqual([]);
    expect(nums({ q: 'new-sku' })).toEqual(['#1004']);
  });
});

describe('orders repository: search index written after a bulk import (issue 21 item 7)', () => {
  const later = { indexLater: true };

  it('finds orders waiting for their index row by substring, in both searches, then from the index once written', () => {
    store.orders.upsertImported(draft('#2001'), 'h1', later);
    store.orders.upsertImported(
      draft('#2002', { recipient: { name: 'Tom Price', street: '1 Kirkgate', city: 'Leeds', postalCode: 'LS1 6BH', countryCode: 'GB', company: 'Acme Ltd' },
        items: [{ sku: 'MUG-RED', name: 'Red mug', quantity: 1, unitPrice: 8 }],
      }),
      'h2',
      later,
    );
    expect(store.orders.pendingIndexCount()).toBe(2);
    const list = (q: string) => store.orders.search(q).map((o) => o.orderNumber);
    const page = (q: string) => store.orders.page({ view: 'all', q }).orders.map((o) => o.orderNumber);
    // Waiting: found by the same fields the index holds.
    expect(list('leeds')).toEqual(['#2002']);
    expect(list('acme')).toEqual(['#2002']); // details: company, only in orders.list's search
    expect(page('acme')).toEqual([]); // the page's search does not read details
    expect(page('tazza-blu')).toEqual(['#2001']);
    expect(page('2002')).toEqual(['#2002']);
    // Written in slices: at least one order a call, then nothing is left.
    expect(store.orders.indexPending(0)).toBe(1);
    expect(store.orders.indexPending(1000)).toBe(0);
    expect(store.orders.pendingIndexCount()).toBe(0);
    expect(list('leeds')).toEqual(['#2002']);
    expect(list('acme')).toEqual(['#2002']);
    expect(page('tazza-blu')).toEqual(['#2001']);
  });

  it('an order updated by a later import is found by its new text only, before and after indexing', () => {
    store.orders.upsertImported(draft('#2003', { items: [{ sku: 'OLD-SKU', name: 'a', quantity: 1, unitPrice: 1 }] }), 'h1');
    expect(store.orders.pendingIndexCount()).toBe(0); // without indexLater: indexed at once
    store.orders.upsertImported(draft('#2003', { items: [{ sku: 'NEW-SKU', name: 'a', quantity: 1, unitPrice: 1 }] }), 'h2', later);
    const page = (q: string) => store.orders.page({ view: 'all', q }).orders.map((o) => o.orderNumber);
    expect(page('old-sku')).toEqual([]);
    expect(page('new-sku')).toEqual(['#2003']);
    store.orders.indexPending(1000);
    expect(page('old-sku')).toEqual([]);
    expect(page('new-sku')).toEqual(['#2003']);
  });
});

describe('orders repository: keyset pages (issue 27 item 3; the cursors are orders/page.ts)', () => {
  it('a full page gives the sort key of its last order, and the page after that key starts right after it', () => {
    for (let i = 0; i < 5; i++) store.orders.insert(draft(`#${4000 + i}`, { createdAt: `2026-09-1${i}T10:00:00.000Z` }));
    const first = store.orders.page({ view: 'all', sort: 'newest', limit: 2 });
    expect(first.orders.map((o) => o.orderNumber)).toEqual(['#4004', '#4003']);
    expect(first.nextKey).toEqual(['2026-09-13T10:00:00.000Z', first.orders[1]!.id]);
    const second = store.orders.page({ view: 'all', sort: 'newest', limit: 2, afterKey: first.nextKey! });
    expect(second.orders.map((o) => o.orderNumber)).toEqual(['#4002', '#4001']);
    expect(store.orders.page({ view: 'all', sort: 'newest', limit: 2, afterKey: second.nextKey! })).toMatchObject({ total: 5, orders: [{ orderNumber: '#4000' }] });
    expect(store.orders.page({ view: 'all', sort: 'newest', limit: 2, afterKey: second.nextKey! }).nextKey).toBeUndefined();
    expect(() => store.orders.page({ view: 'all', sort: 'number', afterKey: first.nextKey! })).toThrow(/sort number has 3 values, not 2/);
  });
});

describe('orders repository: a search with more matches than one page reads the sort index (issue 27)', () => {
  it('gives the same pages, totals and open-first order as the few-matches path', () => {
    store.tx(() => {
      for (let i = 0; i < 2050; i++) {
        store.orders.insert(
          draft(`#${5000 + i}`, {
            createdAt: new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 2050) * 3_600_000).toISOString(),
            status: i % 10 === 0 ? 'open' : 'shipped',
            recipient: { name: `Anna Verdi ${i}`, street: 'Via 1', city: i % 2 ? 'Roma' : 'Lecce', postalCode: '00100', countryCode: i % 3 ? 'IT' : 'FR' },
          }),
        );
      }
      store.orders.insert(draft('#9999', { recipient: { name: 'Solo Uno', street: 'Via 2', city: 'Bari', postalCode: '70100', countryCode: 'IT' } }));
    });
    const ids = (os: Array<{ id: number }>) => os.map((o) => o.id);
    // Expected: all orders sorted in JS, filtered by the same text.
    const all = store.orders.page({ view: 'all', limit: 500, sort: 'newest' });
    expect(all.total).toBe(2051);
    const many = store.orders.page({ view: 'all', q: 'verdi', sort: 'newest', limit: 100 });
    expect(many.total).toBe(2050);
    expect(ids(many.orders)).toEqual(ids(all.orders.filter((o) => o.recipient.name.includes('Verdi')).slice(0, 100)));
    const byCountry = store.orders.page({ view: 'shipped', q: 'verdi', sort: 'country', limit: 100 });
    expect(byCountry.total).toBe(1845);
    expect(byCountry.orders.every((o) => o.status === 'shipped')).toBe(true);
    expect(byCountry.orders.map((o) => o.recipient.countryCode).slice(0, 3)).toEqual(['FR', 'FR', 'FR']);
    const createdDesc = byCountry.orders.map((o) => o.createdAt);
    expect(createdDesc).toEqual([...createdDesc].sort().reverse());
    // A rare word stays on the few-matches path and is found as well.
    expect(store.orders.page({ view: 'all', q: 'solo uno' })).toMatchObject({ total: 1, orders: [{ orderNumber: '#9999' }] });
    // orders.list's search: open first (205 of the matches), then the rest, newest first each.
    const listed = store.orders.search('verdi', { limit: 300 });
    expect(listed).toHaveLength(300);
    expect(listed.slice(0, 205).every((o) => o.status === 'open')).toBe(true);
    expect(listed.slice(205).every((o) => o.status === 'shipped')).toBe(true);
    const openCreated = listed.slice(0, 205).map((o) => o.createdAt);
    expect(openCreated).toEqual([...openCreated].sort().reverse());
  });
});

describe('orders changed since a cursor (the warehouse catch-up, issue 35)', () => {
  it('lists shop-imported orders by change time then id, after the cursor and before `before`, with their import hash', () => {
    const clock = testClock();
    const t = tempStore(clock);
    try {
      const a = t.store.orders.upsertImported(draft('#1'), 'h1').id;
      t.store.orders.upsertImported(draft('#2'), 'h2');
      t.store.orders.insert(draft('M-1', { source: 'manual' }));
      clock.advance(1000);
      t.store.orders.markShipped(a, 'LDV1');
      const all = t.store.orders.changedSince({ at: '', id: 0 }, null, 100);
      // The manual order is never listed; #1 comes last, changed a second later.
      expect(all.map((c) => [c.order.orderNumber, c.importHash, c.order.status])).toEqual([['#2', 'h2', 'open'], ['#1', 'h1', 'shipped']]);
      expect(t.store.orders.changedSince(all[0]!.cursor, null, 100).map((c) => c.order.orderNumber)).toEqual(['#1']);
      expect(t.store.orders.changedSince(all[1]!.cursor, null, 100)).toEqual([]);
      // Changes at or after `before` wait for a later read.
      expect(t.store.orders.changedSince({ at: '', id: 0 }, all[1]!.cursor.at, 100).map((c) => c.order.orderNumber)).toEqual(['#2']);
      expect(t.store.orders.changedSince({ at: '', id: 0 }, null, 1)).toHaveLength(1);
    } finally {
      t.cleanup();
    }
  });
});
