/**
 * Issue 12 (orders as a warehouse receives them) and issue 7 item 9 (CSV
 * encodings, separators, truncated files), on Shopify "Export orders" files
 * of the real format (test/fixtures/shopify/warehouse, made by make-warehouse-fixtures.ts).
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importShopifyCsv, parseShopifyCsv } from '../../../../electron/core/orders';
import type { Store } from '../../../../electron/core/store';
import { linesToShip } from '../../../../shared/domain/order';
import { orderReference } from '../../../../shared/domain/order-reference';
import { tempStore } from '../store/helpers';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/shopify/warehouse/${name}`, import.meta.url));

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

describe('two shops with colliding order numbers', () => {
  it('keeps both shops\u2019 #2236 side by side, identified by shop and Shopify Id; a scan finds both', async () => {
    const a = await importShopifyCsv(store, fixture('shop-uk.csv'), { shop: 'UK' });
    const b = await importShopifyCsv(store, fixture('shop-tr.csv'), { shop: 'Istanbul' });
    expect(a).toMatchObject({ imported: 2, skippedDuplicates: 0, errors: [], skipped: [] });
    expect(b).toMatchObject({ imported: 2, skippedDuplicates: 0, errors: [], skipped: [], shop: 'Istanbul' });
    const both = store.orders.findAllByScan('2236');
    expect(both.map((o) => [o.shop, o.shopOrderId, o.recipient.countryCode]).sort()).toEqual([
      ['Istanbul', '7200000002236', 'TR'],
      ['UK', '6100000002236', 'LT'],
    ]);
    expect(store.orders.getByShopNumber('UK', '#2236')!.recipient.name).toBe('Ona Kazlauskienė');
    expect(store.orders.getByShopNumber('Istanbul', '#2236')!.recipient.name).toBe('Ayşe Yılmaz');
    // Re-importing either shop changes nothing of the other.
    expect(await importShopifyCsv(store, fixture('shop-tr.csv'), { shop: 'Istanbul' })).toMatchObject({ unchanged: 2, updated: 0 });
    expect(store.orders.getByShopNumber('UK', '#2236')!.recipient.city).toBe('Vilnius');
    // The label reference tells the shops apart.
    expect(orderReference(store.orders.getByShopNumber('Istanbul', '#2236')!)).toBe('Istanbul #2236');
    expect(orderReference({ shop: 'main', orderNumber: '#2236' })).toBe('#2236');
  });

  it('the same file imported for another shop is another shop\u2019s orders, not an overwrite', async () => {
    await importShopifyCsv(store, fixture('shop-uk.csv'), { shop: 'UK' });
    await importShopifyCsv(store, fixture('shop-uk.csv'), { shop: 'UK outlet' });
    expect(store.orders.count()).toBe(4);
  });
});

describe('partial fulfilment', () => {
  it('keeps fulfilled lines as sent and offers only the rest; a fully fulfilled order is shipped', async () => {
    await importShopifyCsv(store, fixture('partial.csv'));
    const o = store.orders.getByNumber('#3001')!;
    expect(o.status).toBe('open');
    expect(o.items.map((i) => [i.sku, i.fulfilled === true])).toEqual([
      ['LAMP', true],
      ['BULB', false],
      ['SHADE', false],
    ]);
    expect(linesToShip(o).map((i) => i.sku)).toEqual(['BULB', 'SHADE']);
    expect(store.orders.getByNumber('#3002')!.status).toBe('shipped');
  });
});

describe('store pickup', () => {
  it('recognises collect-in-store and local pickup and keeps them off the to-ship list', async () => {
    const report = await importShopifyCsv(store, fixture('pickup.csv'));
    // The local pickup has no address at all: not an error, it is not sent by carrier.
    expect(report).toMatchObject({ imported: 3, errors: [] });
    expect(store.orders.getByNumber('#4001')).toMatchObject({ delivery: 'pickup', shippingMethod: 'Collect from Kadıköy Store' });
    expect(store.orders.getByNumber('#4002')!.delivery).toBe('pickup');
    expect(store.orders.page({ view: 'to_ship' }).orders.map((o) => o.orderNumber)).toEqual(['#4003']);
    expect(store.orders.page({ view: 'pickup' }).orders.map((o) => o.orderNumber).sort()).toEqual(['#4001', '#4002']);
  });

  it('uses the shop\u2019s own pickup method names when given', async () => {
    await importShopifyCsv(store, fixture('pickup.csv'), { pickupMethods: ['CTT Expresso'] });
    expect(store.orders.getByNumber('#4003')!.delivery).toBe('pickup');
    expect(store.orders.getByNumber('#4001')!.delivery).toBe('ship');
  });
});

describe('unpaid orders', () => {
  it('reads pending, authorized and partially paid as unpaid and filters them', async () => {
    await importShopifyCsv(store, fixture('unpaid.csv'));
    const pay = (n: string) => store.orders.getByNumber(n)!.paymentStatus;
    expect([pay('#5001'), pay('#5002'), pay('#5003'), pay('#5004')]).toEqual(['unpaid', 'unpaid', 'paid', 'unpaid']);
    expect(store.orders.page({ unpaid: true }).total).toBe(3);
  });
});

describe('missing postal codes (AE, HK)', () => {
  it('imports them as needing a fix, never drops them, and the fix completes them', async () => {
    const report = await importShopifyCsv(store, fixture('no-zip.csv'));
    expect(report).toMatchObject({ imported: 3, errors: [] });
    expect(report.warnings.map((w) => [w.order, w.column, w.row])).toEqual([
      ['#6001', 'Shipping Zip', 2],
      ['#6002', 'Shipping Zip', 3],
    ]);
    const dubai = store.orders.getByNumber('#6001')!;
    expect(dubai).toMatchObject({ status: 'open', needsFix: ['postalCode'], recipient: { postalCode: '', countryCode: 'AE', city: 'Dubai' } });
    expect(store.orders.page({ needsFix: true }).orders.map((o) => o.orderNumber).sort()).toEqual(['#6001', '#6002']);
    expect(store.orders.page({ view: 'to_ship' }).total).toBe(3);
    const fixed = store.orders.fix(dubai.id, { postalCode: '00000' });
    expect(fixed).toMatchObject({ needsFix: [], recipient: { postalCode: '00000' } });
    // A later export that still lacks the zip keeps the packer's fix.
    const again = await importShopifyCsv(store, Buffer.from(fixture('no-zip.csv').toString('utf8').replace('Candle,20.00', 'Candle (red),20.00')));
    expect(again.updated).toBeGreaterThan(0);
    expect(store.orders.getById(dubai.id)).toMatchObject({ needsFix: [], recipient: { postalCode: '00000' } });
  });
});

describe('notes and re-saved files', () => {
  it('keeps multi-line notes and flags a note over 255 characters at import', async () => {
    const report = await importShopifyCsv(store, fixture('notes.csv'));
    expect(report).toMatchObject({ imported: 2, errors: [] });
    expect(store.orders.getByNumber('#7001')!.notes).toBe('Citofono "Gialli", secondo piano,\nse assente lasciare al bar di fronte.\nGrazie!');
    expect(report.warnings).toEqual([
      expect.objectContaining({ order: '#7002', column: 'Notes', row: 4, message: expect.stringMatching(/characters; the platform takes 255/) }),
    ]);
    expect(store.orders.getByNumber('#7002')!.needsFix).toEqual(['notes']);
  });

  it('the same file re-saved by Excel (CRLF, BOM) changes nothing', async () => {
    await importShopifyCsv(store, fixture('notes.csv'));
    const excel = fixture('notes-excel.csv');
    expect([...excel.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(excel.includes('\r\n')).toBe(true);
    const report = await importShopifyCsv(store, excel);
    expect(report).toMatchObject({ imported: 0, updated: 0, unchanged: 2, encoding: 'utf-8-bom' });
  });

  it('gives problems the spreadsheet row, not the file line, after a multi-line note', async () => {
    const text = fixture('notes.csv').toString('utf8').replace('Via Manzoni 8', '').replace(/Via Manzoni 8/g, '');
    const report = await importShopifyCsv(store, text);
    const e = report.errors.find((x) => x.column === 'Shipping Address1')!;
    expect(e).toMatchObject({ order: '#7002', row: 4 });
    expect(e.line).toBe(6); // the note of #7001 spans three lines
  });
});

describe('two exports pasted together', () => {
  it('reports the repeated header once, takes an order in both once, and does not report the cancelled one', async () => {
    const report = await importShopifyCsv(store, fixture('pasted.csv'));
    const header = report.errors.filter((e) => /repeats the header row/.test(e.message));
    expect(header).toHaveLength(1);
    expect(report.errors).toHaveLength(1);
    expect(report).toMatchObject({ imported: 3, cancelled: 1 });
    expect(report.skipped).toEqual([expect.objectContaining({ order: '#8002', reason: 'repeated_in_file' })]);
    expect(store.orders.getByNumber('#8003')!.status).toBe('open');
    expect(store.orders.getByNumber('#8004')).toBeUndefined(); // cancelled with no address: not a problem, not imported
  });

  it('a cancelled order closes its open copy at the station', async () => {
    await importShopifyCsv(store, fixture('shop-uk.csv'));
    const cancelled = fixture('shop-uk.csv').toString('utf8').replace(/(#2236,ona@example\.lt,)paid/, '$1voided');
    const withCancel = cancelled.replace(/Shopify Payments/, 'Shopify Payments').replace(/,Vilnius,LT-01103,,LT,,,,(,)/, ',Vilnius,LT-01103,,LT,,,,2026-11-21 09:00:00 +0000$1');
    const r = await importShopifyCsv(store, withCancel);
    expect(r.cancelled).toBe(1);
    expect(r.errors).toEqual([]);
    expect(store.orders.getByNumber('#2236')!.status).toBe('cancelled');
  });
});

describe('encodings and separators (issue 7 item 9)', () => {
  it('reads a Windows-1252, semicolon-separated Excel export without mojibake', async () => {
    const bytes = fixture('pt-1252.csv');
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow(); // really not UTF-8
    const report = await importShopifyCsv(store, bytes);
    expect(report).toMatchObject({ imported: 2, errors: [], encoding: 'windows-1252', delimiter: ';' });
    const o = store.orders.getByNumber('#9001')!;
    expect(o.recipient).toMatchObject({ name: 'João Gonçalves', street: 'Praça do Comércio 3, 2º Esq.' });
    expect(o.items[1]).toMatchObject({ name: 'Pastéis de nata (6)', unitPrice: 9 });
    expect(o.notes).toBe('Entregar à vizinha; obrigado!');
  });

  it('a Windows-1252 copy of an imported UTF-8 file is unchanged, not an overwrite with mojibake', async () => {
    await importShopifyCsv(store, fixture('pt-utf8.csv'));
    expect(await importShopifyCsv(store, fixture('pt-1252.csv'))).toMatchObject({ unchanged: 2, updated: 0 });
    expect(store.orders.getByNumber('#9002')!.recipient.name).toBe('Inês Araújo');
  });

  it('reads UTF-16 LE tab-separated text (Excel "Unicode text")', async () => {
    const report = await importShopifyCsv(store, fixture('utf16-tab.txt'));
    expect(report).toMatchObject({ imported: 2, errors: [], encoding: 'utf-16le', delimiter: '\t' });
    expect(store.orders.getByNumber('#9002')!.recipient.name).toBe('Inês Araújo');
  });

  it('reads UTF-16 without a BOM, from its zero bytes', async () => {
    const noBom = fixture('utf16-tab.txt').subarray(2);
    expect(await parseShopifyCsv(noBom)).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', errors: [] });
  });

  it('reads a UTF-8 semicolon-separated file', async () => {
    const report = await importShopifyCsv(store, fixture('semicolon.csv'));
    expect(report).toMatchObject({ imported: 2, errors: [], encoding: 'utf-8', delimiter: ';' });
    expect(store.orders.getByNumber('#2236')!.recipient.city).toBe('İstanbul');
  });
});

describe('truncated file', () => {
  it('never replaces a complete order with a partial one, and says so', async () => {
    await importShopifyCsv(store, fixture('shop-uk.csv'));
    expect(store.orders.getByNumber('#2237')!.items).toHaveLength(3);
    const report = await importShopifyCsv(store, fixture('truncated.csv'));
    expect(report.skipped).toEqual([
      { order: '#2237', row: 3, reason: 'fewer_lines', message: expect.stringMatching(/only 1 line in this file but more at the station/) },
    ]);
    expect(report.warnings.some((w) => /does not end with a line break/.test(w.message))).toBe(true);
    expect(store.orders.getByNumber('#2237')!.items).toHaveLength(3);
    expect(store.orders.getByNumber('#2236')!.recipient.city).toBe('Vilnius');
  });

  it('never changes an order already shipped at the station', async () => {
    await importShopifyCsv(store, fixture('shop-uk.csv'));
    const o = store.orders.getByNumber('#2236')!;
    store.orders.markShipped(o.id, 'LDV000000042');
    const moved = fixture('shop-uk.csv').toString('utf8').replace(/Gedimino pr\. 9/g, 'Pilies g. 1');
    const report = await importShopifyCsv(store, moved);
    expect(report.skipped).toEqual([expect.objectContaining({ order: '#2236', reason: 'already_shipped' })]);
    expect(store.orders.getById(o.id)).toMatchObject({ status: 'shipped', recipient: { street: 'Gedimino pr. 9' } });
  });
});
