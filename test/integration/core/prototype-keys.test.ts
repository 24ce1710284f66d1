/**
 * Issue 21 item 5 (audit row 5): a shop named `constructor`, `__proto__` or
 * `toString` answered 500, because keys taken from input met Object's own
 * properties. Every command that takes a shop name, on a training station:
 * import, settings keyed by shop, the list's filters, scan.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type StartedStation } from '../../../electron/shell/start';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { invokerOf, stationFailure } from './helpers';

const SHOPS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

let dataDir: string;
let station: StartedStation;
const invoke = invokerOf(() => station);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-proto-'));
  station = await startStation({ dataDir, platform: { mode: 'sandbox' }, printerUri: `file://${dataDir}/labels`, ignoredArgs: [] }, { log: () => undefined });
});

afterAll(async () => {
  await station?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('shops named like Object properties', () => {
  it('keeps per-shop pickup method names for each of them', async () => {
    const pickupMethods = Object.fromEntries(SHOPS.map((s) => [s, [`Ritiro ${s}`]]));
    await invoke('orders.settings.set', { allowUnpaid: false, pickupMethods });
    const saved = await invoke('orders.settings.get');
    for (const shop of SHOPS) expect(Object.getOwnPropertyDescriptor(saved.pickupMethods, shop)?.value).toEqual([`Ritiro ${shop}`]);
  });

  it('refuses the one name that cannot be a key, `__proto__`, naming the field, and keeps what was saved', async () => {
    // JSON.parse makes `__proto__` an own key, as a transport delivers it.
    const input = JSON.parse('{"allowUnpaid":true,"pickupMethods":{"__proto__":["Ritiro"]}}') as never;
    const err = await stationFailure(invoke('orders.settings.set', input));
    expect(err.code).toBe('invalid_input');
    expect(err.details).toEqual({ 'pickupMethods.__proto__': ['A field cannot be named __proto__'] });
    const shopErr = await stationFailure(invoke('orders.importCsv', { fileName: 'x.csv', content: generateShopifyCsv(1), shop: '__proto__' }));
    expect(shopErr.details).toEqual({ shop: ['A shop cannot be named __proto__'] });
    const saved = await invoke('orders.settings.get');
    expect(saved.allowUnpaid).toBe(false);
    expect(Object.keys(saved.pickupMethods)).toEqual([...SHOPS]);
  });

  it('imports, lists, filters and scans their orders', async () => {
    for (const [i, shop] of SHOPS.entries()) {
      const csv = generateShopifyCsv(2, { seed: 100 + i });
      const report = await invoke('orders.importCsv', { fileName: `${shop}.csv`, content: csv, shop });
      expect(report.imported).toBe(2);
      expect(report.shop).toBe(shop);
    }
    const facets = await invoke('orders.facets');
    for (const shop of SHOPS) expect(facets.shops).toContain(shop);
    for (const shop of SHOPS) {
      const page = await invoke('orders.page', { shop, view: 'all' });
      expect(page.orders.length).toBeGreaterThan(0);
      expect(page.orders.every((o) => o.shop === shop)).toBe(true);
    }
    const one = (await invoke('orders.page', { shop: 'constructor', view: 'all' })).orders[0]!;
    const scanned = await invoke('scan.resolve', { code: one.orderNumber });
    expect(['order', 'orders']).toContain(scanned.kind);
  });
});
