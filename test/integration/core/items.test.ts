/**
 * Scan to verify in the core (issue 14 item 5): items with alias barcodes and
 * unit weights saved and found by SKU or barcode; a barcode of another SKU is
 * refused naming `barcodes` and nothing is lost; a skipped verification is
 * logged with its reason and what was missing; settings refuse a bad tolerance.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/core/store';
import { databaseFile } from '../../../electron/core/station';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ printer: 'file', options: () => ({ platformRateLimits: false }) });
const invoke = fx.invoke;

describe('items and scan-to-verify settings', () => {
  it('saves items, finds them by SKU or barcode, refuses a barcode of another SKU naming the field', async () => {
    expect(await invoke('items.save', { sku: 'TAZ-1', barcodes: ['8001234567890', '8001234567890', '012345678905'], unitWeightKg: 0.3 })).toMatchObject({ sku: 'TAZ-1', barcodes: ['012345678905', '8001234567890'], unitWeightKg: 0.3 });
    await invoke('items.save', { sku: 'PIA-2', barcodes: [], unitWeightKg: null });
    const refused = await stationFailure(invoke('items.save', { sku: 'PIA-2', barcodes: ['8001234567890'], unitWeightKg: 0.1 }));
    expect(refused.code).toBe('invalid_input');
    expect(Object.keys(refused.details ?? {})).toEqual(['barcodes']);
    expect(refused.message).toContain('TAZ-1');
    // Nothing of PIA-2 changed, nothing of TAZ-1 lost.
    expect(await invoke('items.get', { skus: ['PIA-2', 'TAZ-1', 'NOPE'] })).toEqual(
      expect.arrayContaining([expect.objectContaining({ sku: 'PIA-2', barcodes: [], unitWeightKg: null }), expect.objectContaining({ sku: 'TAZ-1', barcodes: ['012345678905', '8001234567890'] })]),
    );
    expect((await invoke('items.list', { q: '80012' })).map((i) => i.sku)).toEqual(['TAZ-1']);
    const badWeight = await stationFailure(invoke('items.save', { sku: 'X', barcodes: ['has space'], unitWeightKg: 0 }));
    expect(Object.keys(badWeight.details ?? {}).sort()).toEqual(['barcodes.0', 'unitWeightKg']);
    // Saving again replaces the barcode list.
    expect((await invoke('items.save', { sku: 'TAZ-1', barcodes: ['8001234567890'], unitWeightKg: 0.31 })).barcodes).toEqual(['8001234567890']);
    expect(await invoke('items.delete', { sku: 'PIA-2' })).toEqual({ deleted: true });
    expect(await invoke('items.get', { skus: ['PIA-2'] })).toEqual([]);
  });

  it('settings: off by default, a bad tolerance refused by field', async () => {
    expect(await invoke('verify.settings.get', {})).toEqual({ enabled: false, tolerancePct: 10, toleranceKg: 0.05 });
    const bad = await stationFailure(invoke('verify.settings.set', { enabled: true, tolerancePct: 0, toleranceKg: -1 }));
    expect(Object.keys(bad.details ?? {}).sort()).toEqual(['toleranceKg', 'tolerancePct']);
    expect((await invoke('verify.settings.get', {})).enabled).toBe(false);
    expect(await invoke('verify.settings.set', { enabled: true, tolerancePct: 5, toleranceKg: 0.02 })).toEqual({ enabled: true, tolerancePct: 5, toleranceKg: 0.02 });
  });

  it('logs a skipped verification with its reason and the missing lines', async () => {
    await invoke('orders.importCsv', {
      fileName: 'v.csv',
      content: shopifyCsv(order({ name: '#8001', id: '8800000008001', created: '2026-11-20 10:00:00 +0000', email: 'a@example.it', ship: { name: 'A B', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' }, items: [{ q: '2', n: 'Tazza', p: '12.00', sku: 'TAZ-1' }], total: '24.00' })),
    });
    const o = (await invoke('orders.page', { q: '#8001', view: 'all' })).orders[0]!;
    const short = await stationFailure(invoke('verify.skip', { orderId: o.id, reason: ' ', missing: [] }));
    expect(Object.keys(short.details ?? {})).toEqual(['reason']);
    const { id } = await invoke('verify.skip', { orderId: o.id, reason: 'Label of the mug torn', missing: [{ sku: 'TAZ-1', name: 'Tazza', missing: 1 }] });
    expect(id).toBeGreaterThan(0);
    await fx.station.close();
    const store = openStore(databaseFile(fx.dir, 'platform'));
    try {
      expect(store.items.skipsOf(o.id)).toEqual([{ id, reason: 'Label of the mug torn', missing: [{ sku: 'TAZ-1', name: 'Tazza', missing: 1 }], createdAt: expect.any(String) }]);
    } finally {
      store.close();
    }
    await fx.restart({ platformRateLimits: false });
  });
});
