import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  importShopifyCsv,
  parseShopifyCsv,
  parseShopifyTime,
  ShopifyImportError,
} from '../../../../electron/core/orders';
import { generateShopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import type { Store } from '../../../../electron/core/store';
import { tempStore } from '../store/helpers';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/shopify/${name}`, import.meta.url));

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

describe('importShopifyCsv: a clean Italian export (orders-it.csv)', () => {
  it('imports every shippable order, skipping the digital-only one', async () => {
    const bytes = fixture('orders-it.csv');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the fixture really has a BOM
    const report = await importShopifyCsv(store, bytes);
    expect(report).toEqual({
      imported: 7,
      updated: 0,
      unchanged: 0,
      skippedDuplicates: 0,
      skippedNotShippable: 1,
      errors: [],
      warnings: [],
      skipped: [],
      cancelled: 1,
      shop: 'main',
      encoding: 'utf-8-bom',
      delimiter: ',',
    });
    expect(store.orders.list({ status: 'all' }).map((o) => o.orderNumber).sort()).toEqual(
      ['#1001', '#1002', '#1003', '#1004', '#1006', '#1007', '#1008'],
    );
    expect(store.orders.getByNumber('#1005')).toBeUndefined();
  });

  it('maps the first row of an order and every line item, keeping multi-line quoted notes', async () => {
    await importShopifyCsv(store, fixture('orders-it.csv'));
    const o = store.orders.getByNumber('#1001');
    expect(o).toEqual({
      id: expect.any(Number),
      shop: 'main',
      shopOrderId: expect.stringMatching(/^\d+$/),
      paymentStatus: 'paid',
      delivery: 'ship',
      shippingMethod: 'Spedizione standard',
      needsFix: [],
      orderNumber: '#1001',
      email: 'giulia.rossi@example.it',
      createdAt: '2026-09-28T07:14:03.000Z',
      source: 'shopify_csv',
      recipient: {
        name: 'Giulia Rossi',
        street: 'Via Merulana 141',
        city: 'Roma',
        province: 'RM',
        postalCode: '00184', // written as '00184 by Shopify
        countryCode: 'IT',
        phone: '+39 333 1234567',
        email: 'giulia.rossi@example.it',
      },
      items: [
        { sku: 'TAZ-CER-BLU', name: 'Tazza in ceramica - Blu', quantity: 2, unitPrice: 12.5 },
        { sku: 'OLIO-EVO-500', name: "Olio extravergine d'oliva 500 ml", quantity: 1, unitPrice: 9.9 },
      ],
      total: 34.9,
      currency: 'EUR',
      notes: 'Citofono "Rossi G." - secondo piano, scala B.\nSe assente, lasciare al portiere, grazie!',
      status: 'open',
    });
  });

  it('repairs Italian zips, upper-cases province and country, keeps company and street 2', async () => {
    await importShopifyCsv(store, fixture('orders-it.csv'));
    const viterbo = store.orders.getByNumber('#1003')!;
    expect(viterbo.recipient).toMatchObject({ postalCode: '01100', province: 'VT', countryCode: 'IT' }); // "1100", "vt", "it"
    expect(viterbo.items.map((i) => i.name)).toEqual([
      'Pasta di Gragnano, trafilata al bronzo 1 kg',
      'Caffè macinato per moka 250 g',
      'Quaderno A5 "righe"',
    ]);
    expect(viterbo.items[2]).toEqual({ name: 'Quaderno A5 "righe"', quantity: 2, unitPrice: 5.9 }); // no SKU
    expect(store.orders.getByNumber('#1004')!.recipient.postalCode).toBe('09124'); // "9124"
    expect(store.orders.getByNumber('#1002')!.recipient).toMatchObject({
      company: 'Bianchi & Figli S.r.l.',
      street: 'Corso Buenos Aires 54',
      street2: 'Scala C, interno 7',
      postalCode: '20124',
    });
    // Non-Italian zip untouched, province absent.
    const berlin = store.orders.getByNumber('#1008')!.recipient;
    expect(berlin).toMatchObject({ postalCode: '10119', countryCode: 'DE', street: 'Torstraße 49' });
    expect('province' in berlin).toBe(false);
  });

  it('leaves items that need no shipping off the pick list', async () => {
    await importShopifyCsv(store, fixture('orders-it.csv'));
    expect(store.orders.getByNumber('#1004')!.items).toEqual([
      { sku: 'SAP-OLIVA-100', name: "Sapone all'olio d'oliva 100 g", quantity: 4, unitPrice: 3.5 },
    ]);
  });

  it('maps Cancelled at and Fulfillment Status to the station status', async () => {
    await importShopifyCsv(store, fixture('orders-it.csv'));
    expect(store.orders.getByNumber('#1006')!.status).toBe('cancelled');
    expect(store.orders.getByNumber('#1007')!.status).toBe('shipped');
    expect(store.orders.list({ status: 'open' })).toHaveLength(5);
  });

  it('is idempotent: the same file twice adds no order and no item', async () => {
    const first = await importShopifyCsv(store, fixture('orders-it.csv'));
    const itemsBefore = store.orders.list({ status: 'all' }).reduce((n, o) => n + o.items.length, 0);
    const second = await importShopifyCsv(store, fixture('orders-it.csv'));
    expect(second).toEqual({ ...first, imported: 0, unchanged: 7 });
    expect(store.orders.count({ status: 'all' })).toBe(7);
    expect(store.orders.list({ status: 'all' }).reduce((n, o) => n + o.items.length, 0)).toBe(itemsBefore);
    // Same text given as a string instead of bytes: same content, still unchanged.
    expect((await importShopifyCsv(store, fixture('orders-it.csv').toString('utf8'))).unchanged).toBe(7);
  });

  it('a later export updates changed open orders, adds new ones, and never overrides a shipped one', async () => {
    await importShopifyCsv(store, fixture('orders-it.csv'));
    const o1001 = store.orders.getByNumber('#1001')!;
    store.orders.markShipped(o1001.id, 'LDV123456789');
    const report = await importShopifyCsv(store, fixture('orders-it-reexport.csv'));
    expect(report).toMatchObject({ imported: 1, updated: 1, unchanged: 6, skippedDuplicates: 0, skippedNotShippable: 1, errors: [], skipped: [] });
    expect(store.orders.getByNumber('#1002')!.recipient).toMatchObject({ street: 'Via Paolo Sarpi 10', postalCode: '20154' });
    expect(store.orders.getByNumber('#1009')!.recipient.city).toBe('Genova');
    expect(store.orders.getByNumber('#1001')).toMatchObject({ status: 'shipped', shipmentTrackingNumber: 'LDV123456789' });
  });
});

describe('importShopifyCsv: a hand-made export (orders-minimal-crlf.csv)', () => {
  it('reads CRLF files without a BOM, with fewer columns in another order and a blank line', async () => {
    const report = await importShopifyCsv(store, fixture('orders-minimal-crlf.csv'));
    expect(report).toMatchObject({ imported: 2, errors: [] });
    const a = store.orders.getByNumber('#3001')!;
    // CRLF inside a quoted note is read as LF: a re-save by Excel is not a change.
    expect(a.notes).toBe('Consegna al mattino\n(prima delle 12), grazie');
    expect(a.items).toEqual([
      { sku: 'PASTA-GRA-1K', name: 'Pasta di Gragnano, trafilata al bronzo 1 kg', quantity: 2, unitPrice: 4.2 },
      { name: 'Quaderno A5 "righe"', quantity: 1, unitPrice: 10 },
    ]);
    const b = store.orders.getByNumber('#3002')!;
    expect(b.recipient).toEqual({
      name: 'Francesca Ricci',
      company: 'Ricci Design',
      street: 'Piazza Navona 2',
      city: 'Roma',
      province: 'RM',
      postalCode: '00184',
      countryCode: 'IT',
      phone: '+39 06 9876543',
      email: 'francesca.ricci@example.it',
    });
  });
});

describe('importShopifyCsv: broken files', () => {
  it('reports each bad row with its physical line and column, and keeps every good order', async () => {
    const report = await importShopifyCsv(store, fixture('orders-broken.csv'));
    // #2003 has no zip: imported as "needs fix", not an error.
    expect(report.imported).toBe(5);
    expect(store.orders.list({ status: 'all' }).map((o) => o.orderNumber).sort()).toEqual(['#2001', '#2003', '#2006', '#2008', '#2010']);
    expect(store.orders.getByNumber('#2003')!.needsFix).toEqual(['postalCode']);
    expect(report.warnings.map((w) => `${w.line} ${w.column} ${w.order}`)).toEqual(['6 Shipping Zip #2003']);
    const at = report.errors.map((e) => `${e.line} ${e.column}`);
    expect([...at].sort()).toEqual(
      [
        '5 Lineitem quantity', // "due"
        '8 Shipping Country', // "Italia"
        '10 Lineitem price', // "12,5O" (letter O)
        '10 Shipping Province', // "Roma" instead of RM
        '16 Shipping Address1', // broken quote: a CSV syntax error
        '17 Name', // #2007 left out because its first row could not be read
        '21 Lineitem taxable', // truncated row: 22 of 79 fields, the first missing one named
      ].sort(),
    );
    const msg = (line: number, column: string) => report.errors.find((e) => e.line === line && e.column === column)?.message;
    expect(msg(5, 'Lineitem quantity')).toMatch(/whole number.*"due"/);
    expect(msg(8, 'Shipping Country')).toMatch(/2-letter code/);
    expect(msg(10, 'Shipping Province')).toMatch(/2 letters/);
    expect(msg(10, 'Lineitem price')).toMatch(/"12,5O"/);
    expect(msg(16, 'Shipping Address1')).toMatch(/cannot be read/);
    expect(msg(17, 'Name')).toMatch(/#2007.*row \d+/);
    // Every problem names its order and its spreadsheet row (a multi-line note is one row).
    for (const e of report.errors) expect(e).toMatchObject({ order: expect.stringMatching(/^#20\d\d$/), row: expect.any(Number) });
    expect(report.errors.find((e) => e.line === 21)!.row).toBeLessThan(21);
    expect(msg(21, 'Lineitem taxable')).toMatch(/has 22 fields but the header has 79/);
    // Multi-line notes before the broken rows did not shift the line count.
    expect(store.orders.getByNumber('#2006')!.notes).toBe('Prima riga delle note,\nseconda riga "importante",\nterza riga');
    expect(store.orders.getByNumber('#2010')!.recipient.postalCode).toBe('00153');
  });

  it('does not import a partial order: the good item of a bad order is not kept', async () => {
    await importShopifyCsv(store, fixture('orders-broken.csv'));
    expect(store.orders.getByNumber('#2002')).toBeUndefined();
    expect(store.orders.getByNumber('#2009')).toBeUndefined();
  });

  it('refuses a file missing required columns, naming each one', async () => {
    let err: unknown;
    try {
      await importShopifyCsv(store, fixture('missing-columns.csv'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ShopifyImportError);
    const e = err as ShopifyImportError;
    expect(e.code).toBe('missing_columns');
    expect(e.message).toContain('"Lineitem quantity"');
    expect(e.issues).toEqual([
      { line: 1, column: 'Lineitem quantity', message: 'Required column "Lineitem quantity" is missing' },
      { line: 1, column: 'Shipping Zip', message: 'Required column "Shipping Zip" is missing' },
    ]);
    expect(store.orders.count()).toBe(0);
  });

  it('refuses an empty file and binary bytes', async () => {
    await expect(importShopifyCsv(store, '')).rejects.toThrow(expect.objectContaining({ code: 'empty_file' }));
    await expect(importShopifyCsv(store, '\uFEFF\n\n')).rejects.toThrow(expect.objectContaining({ code: 'empty_file' }));
    await expect(importShopifyCsv(store, Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) % 256)))).rejects.toThrow(
      expect.objectContaining({ code: 'not_text' }),
    );
  });

  it('rejects an order number longer than a shipment reference allows', async () => {
    const csv = generateShopifyCsv(2, { bom: false }).replace(/#1002,/g, `#${'9'.repeat(60)},`);
    const report = await importShopifyCsv(store, csv);
    expect(report.imported).toBe(1);
    expect(report.errors).toEqual([
      { line: expect.any(Number), row: expect.any(Number), order: `#${'9'.repeat(60)}`, column: 'Name', message: 'Order number is too long (max 50 characters)' },
    ]);
  });

  it('refuses a header that cannot be read', async () => {
    await expect(importShopifyCsv(store, 'Name,"Email\n#1,a\n')).rejects.toThrow(expect.objectContaining({ code: 'unreadable_header' }));
  });

  it('an unclosed quote near the end loses only that order and what follows it on the same record', async () => {
    const csv = generateShopifyCsv(3, { bom: false, seed: 7 });
    const lines = csv.split('\n');
    // Break the first field of #1003's first row: an opening quote that never closes.
    const idx = lines.findIndex((l) => l.startsWith('#1003,'));
    lines[idx] = lines[idx]!.replace('#1003,', '#1003,"');
    const report = await importShopifyCsv(store, lines.join('\n'));
    expect(report.imported).toBe(2);
    expect(report.errors[0]).toMatchObject({ line: idx + 1, message: expect.stringMatching(/never closed/) });
    expect(store.orders.getByNumber('#1003')).toBeUndefined();
  });

  it('counts a second block of the same order as a duplicate instead of merging or doubling it', async () => {
    const csv = generateShopifyCsv(2, { bom: false });
    const [header, ...rows] = csv.trimEnd().split('\n');
    const o1001 = rows.filter((r) => r.startsWith('#1001,'));
    const pasted = [header, ...rows, ...o1001].join('\n');
    const report = await importShopifyCsv(store, pasted);
    expect(report).toMatchObject({ imported: 2, skippedDuplicates: 1, errors: [] });
    expect(report.skipped).toEqual([{ order: '#1001', row: rows.length + 2, reason: 'repeated_in_file', message: expect.stringMatching(/again further down/) }]);
    expect(store.orders.getByNumber('#1001')!.items).toHaveLength(o1001.length);
  });

  it('a row without an order number is reported and its neighbour order is not imported incomplete', async () => {
    const csv = generateShopifyCsv(2, { bom: false, seed: 3 });
    const lines = csv.trimEnd().split('\n');
    const second = lines.findIndex((l, i) => i > 0 && l.startsWith('#1001,') && lines[i - 1]!.startsWith('#1001,'));
    const target = second > 0 ? second : lines.findIndex((l) => l.startsWith('#1002,'));
    lines.splice(target + 1, 0, `,,${lines[target]!.split(',').slice(2).join(',')}`);
    const report = await importShopifyCsv(store, lines.join('\n'));
    expect(report.errors.map((e) => [e.line, e.column])).toEqual(
      expect.arrayContaining([[target + 2, 'Name']]),
    );
    expect(report.errors.some((e) => /was not imported because row/.test(e.message))).toBe(true);
    expect(report.imported).toBe(1);
  });
});

describe('parseShopifyTime', () => {
  it('reads Shopify times with offset and ISO 8601', async () => {
    expect(parseShopifyTime('2026-09-28 14:05:33 +0200')).toBe('2026-09-28T12:05:33.000Z');
    expect(parseShopifyTime('2026-01-15 09:00:00 +0100')).toBe('2026-01-15T08:00:00.000Z');
    expect(parseShopifyTime('2026-09-28T14:05:33+02:00')).toBe('2026-09-28T12:05:33.000Z');
    expect(parseShopifyTime('28/09/2026 14:05')).toBeUndefined();
    expect(parseShopifyTime('')).toBeUndefined();
  });
});

describe('generateShopifyCsv + import at scale', () => {
  it('imports 10,000 generated orders in batched transactions and re-imports them as unchanged', async () => {
    const csv = generateShopifyCsv(10_000);
    const expected = await parseShopifyCsv(csv);
    expect(expected.errors).toEqual([]);
    const report = await importShopifyCsv(store, csv);
    expect(report.errors).toEqual([]);
    expect(report.imported + report.skippedNotShippable).toBe(10_000);
    expect(report.imported).toBe(expected.orders.length);
    expect(store.orders.count({ status: 'all' })).toBe(report.imported);
    // Speed is measured by `npm run bench`, not asserted here (no timed tests).
    expect(await importShopifyCsv(store, csv)).toMatchObject({ imported: 0, unchanged: report.imported });
  }, 60_000);

  it('is deterministic per seed and writes zips the way Shopify and spreadsheets do', async () => {
    expect(generateShopifyCsv(20, { seed: 5 })).toBe(generateShopifyCsv(20, { seed: 5 }));
    expect(generateShopifyCsv(20, { seed: 5 })).not.toBe(generateShopifyCsv(20, { seed: 6 }));
    const csv = generateShopifyCsv(300);
    expect(csv.startsWith('\uFEFFName,Email,Financial Status')).toBe(true);
    expect(csv).toMatch(/,'\d{5},/); // '00184 style
    const { orders } = await parseShopifyCsv(csv);
    expect(orders.every((o) => /^\d{5}$/.test(o.order.recipient.postalCode))).toBe(true);
    expect(orders.some((o) => o.order.items.length > 1)).toBe(true);
    expect(orders.some((o) => o.order.notes?.includes('\n'))).toBe(true);
    expect(() => generateShopifyCsv(-1)).toThrow(RangeError);
  });
});

describe('importShopifyCsv: read as a stream (issue 21 item 6)', () => {
  it('refuses a file over the limit naming it, before writing anything', async () => {
    await importShopifyCsv(store, fixture('orders-it.csv'));
    const before = store.orders.count({ status: 'all' });
    const csv = generateShopifyCsv(200, { bom: false, seed: 4 });
    await expect(importShopifyCsv(store, csv, { maxBytes: 1024 * 1024 / 8 })).rejects.toThrow(
      expect.objectContaining({ code: 'too_large', message: expect.stringMatching(/at most 0\.1 MiB/) }),
    );
    expect(store.orders.count({ status: 'all' })).toBe(before);
  });

  it('a broken quote deep in a file of many chunks loses only its order; progress counts rows and orders', async () => {
    const csv = generateShopifyCsv(1_500, { bom: false, seed: 9 });
    const lines = csv.split('\n');
    const idx = lines.findIndex((l) => l.startsWith('#2200,'));
    lines[idx] = lines[idx]!.replace('#2200,', '#2200,"');
    const broken = lines.join('\n');
    expect(Buffer.byteLength(broken)).toBeGreaterThan(4 * 64 * 1024);
    const clean = await parseShopifyCsv(csv);
    const seen: Array<{ rows: number; orders: number; done: boolean }> = [];
    const report = await importShopifyCsv(store, Buffer.from(broken), { onProgress: (p) => seen.push(p) });
    expect(report.errors[0]).toMatchObject({ line: idx + 1, order: '#2200', message: expect.stringMatching(/cannot be read/) });
    expect(store.orders.getByNumber('#2200')).toBeUndefined();
    expect(store.orders.getByNumber('#2199')).toBeDefined();
    expect(store.orders.getByNumber('#2201')).toBeDefined();
    expect(report.imported).toBe(clean.orders.length - 1);
    expect(seen.at(-1)).toMatchObject({ done: true, orders: 1_500, bytesRead: Buffer.byteLength(broken) });
    expect(seen.filter((p) => p.done)).toHaveLength(1);
  });
});
