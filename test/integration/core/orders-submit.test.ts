/**
 * `orders.submit` against the sandbox over HTTP: POST /orders through the
 * outbox in batches of up to 100; a second submission finds everything
 * already there (`skipped`), two shops' #1001 are two platform orders, and
 * orders the platform would refuse are held back with the reason.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxListView } from '../../../shared/contract/views';
import { generateShopifyCsv, shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;

/** Waits until the given outbox rows are done or need attention (the worker sends them in the background). */
async function settled(ids: number[]): Promise<OutboxListView['done']> {
  for (let i = 0; i < 200; i++) {
    const list = await invoke('outbox.list', { doneLimit: 200 });
    const pending = list.pending.filter((r) => ids.includes(r.id) && r.state !== 'needs_attention');
    if (pending.length === 0) return [...list.done, ...list.pending].filter((r) => ids.includes(r.id));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('outbox rows did not settle');
}

describe('orders.submit (POST /orders via the outbox)', () => {
  it('sends 130 orders in batches of 100 and 30; again, all are already there', async () => {
    const report = await invoke('orders.importCsv', { fileName: 'a.csv', content: generateShopifyCsv(140, { seed: 5 }), shop: 'Bottega' });
    const page = await invoke('orders.page', { limit: 130 });
    expect(page.orders).toHaveLength(Math.min(130, report.imported));
    const ids = page.orders.map((o) => o.id);

    const first = await invoke('orders.submit', { ids });
    expect(first).toMatchObject({ queued: 130, refused: [] });
    expect(first.outboxIds).toHaveLength(2);
    const rows = await settled(first.outboxIds);
    expect(rows.map((r) => [r.state, r.kind])).toEqual([
      ['done', 'orders.submit'],
      ['done', 'orders.submit'],
    ]);
    expect(rows.map((r) => r.title).join(' ')).toMatch(/Send (100|30) orders to the platform \(Bottega #/);
    const account = fx.sb.state.accounts[0]!;
    expect(fx.sb.state.orderBook.findByNumber(account.accountId, `Bottega ${page.orders[0]!.orderNumber}`)).toBeDefined();

    // Sending again creates nothing: the platform lists them in `skipped` (already there).
    const again = await invoke('orders.submit', { ids: ids.slice(0, 10) });
    const [row] = await settled(again.outboxIds);
    expect(row).toMatchObject({ state: 'done', outcome: 'sent' });
  });

  it('two shops\u2019 #1001 become two platform orders; pickup and needs-fix orders are held back with the reason', async () => {
    await invoke('orders.importCsv', { fileName: 'b.csv', content: generateShopifyCsv(1, { seed: 9 }), shop: 'Outlet' });
    const both = await invoke('orders.page', { q: '#1001', view: 'all' });
    const shops = both.orders.filter((o) => o.orderNumber === '#1001');
    expect(shops.map((o) => o.shop).sort()).toEqual(['Bottega', 'Outlet']);
    const outlet = shops.find((o) => o.shop === 'Outlet')!;
    const bottega = shops.find((o) => o.shop === 'Bottega')!;
    const res = await invoke('orders.submit', { ids: [outlet.id, bottega.id] });
    expect(res.queued).toBe(2);
    await settled(res.outboxIds);
    const account = fx.sb.state.accounts[0]!;
    const a = fx.sb.state.orderBook.findByNumber(account.accountId, 'Bottega #1001');
    const b = fx.sb.state.orderBook.findByNumber(account.accountId, 'Outlet #1001');
    expect(a && b && a.id !== b.id).toBe(true);

    // #7001 has no postal code (needs a fix); #7002 is collected in store.
    const created = '2026-11-20 10:00:00 +0000';
    const csv = shopifyCsv([
      ...order({ name: '#7001', id: '7001', created, email: 'f@example.ae', ship: { name: 'Fatima Al Mansoori', a1: 'Sheikh Zayed Rd 1', city: 'Dubai', zip: '', country: 'AE' }, items: [{ q: '1', n: 'Candle', p: '20.00', sku: 'CANDLE' }], total: '20.00' }),
      ...order({ name: '#7002', id: '7002', created, email: 'g@example.it', method: 'Ritiro in negozio', ship: { name: 'Ida Verdi', a1: 'Via Verdi 3', city: 'Parma', zip: '43121', prov: 'PR', country: 'IT' }, items: [{ q: '1', n: 'Candle', p: '20.00', sku: 'CANDLE' }], total: '20.00' }),
    ]);
    await invoke('orders.importCsv', { fileName: 'c.csv', content: csv, shop: 'Fix' });
    const pickup = (await invoke('orders.page', { shop: 'Fix', view: 'pickup' })).orders;
    expect(pickup.map((o) => o.orderNumber)).toEqual(['#7002']);
    const fix = (await invoke('orders.page', { shop: 'Fix', needsFix: true })).orders;
    expect(fix.map((o) => o.orderNumber)).toEqual(['#7001']);
    const held = await invoke('orders.submit', { ids: [fix[0]!.id, pickup[0]!.id, 999_999] });
    expect(held.queued).toBe(0);
    expect(held.outboxIds).toEqual([]);
    expect(held.refused.map((r) => r.message)).toEqual([
      'Order #7001 needs a fix (postalCode)',
      'Order #7002 is collected in store',
      'No such order at this station',
    ]);
  });
});
