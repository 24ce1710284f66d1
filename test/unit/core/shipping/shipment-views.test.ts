/**
 * End of day's list of shipments read in a few queries (issue 26 bench:
 * 2,000 shipments in the day): `shipmentViews` gives exactly the views
 * `shipmentView` gives one by one, on a seeded folder (orders with items,
 * labels, print jobs, manifests) plus a shipment without an order and one
 * with two labels and a reprint.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shipmentView, shipmentViews } from '../../../../electron/core/shipping/views';
import { openStore, type Store } from '../../../../electron/core/store';
import { seedBigFolder } from '../../../bench/big-folder-seed';
import { tempDir } from '../store/helpers';

let dir: ReturnType<typeof tempDir>;
let store: Store;
beforeEach(() => {
  dir = tempDir();
  const file = join(dir.dir, 'station.sqlite');
  openStore(file).close();
  seedBigFolder(file, { now: new Date('2026-11-26T18:00:00Z'), shipments: 120, days: 3, labelBytes: 64 });
  store = openStore(file);
  // Adopted from the platform, no order of ours, no label, a platform answer that does not parse.
  store.shipments.recordPlatform({ trackingNumber: 'LOOSE1', carrierCode: 'BRT', platform: { odd: true } });
});
afterEach(() => {
  store.close();
  dir.cleanup();
});

describe('shipmentViews', () => {
  it('gives the same views as shipmentView, row by row', () => {
    const recs = store.shipments.listRecent({ limit: 200 });
    expect(recs.length).toBeGreaterThanOrEqual(100);
    const i = recs.findIndex((r) => r.trackingNumber?.startsWith('LDV'));
    const tn = recs[i]!.trackingNumber!;
    store.labels.save(tn, 'PDF', new Uint8Array([37, 80, 68, 70]));
    const label = store.labels.getLatest(tn, 'ZPL')!;
    store.printJobs.enqueue({ labelId: label.id, printerUri: 'file:///tmp/x', requestedBy: 'reprint' });
    const views = shipmentViews(store, recs);
    expect(views).toEqual(recs.map((r) => shipmentView(store, r)));
    expect(views[i]!.labelFormats).toEqual(['ZPL', 'PDF']);
    expect(views[i]!.printJobs.length).toBe(2);
    expect(views.find((v) => v.trackingNumber === 'LOOSE1')).toMatchObject({ orderNumber: null, labelFormats: [], printJobs: [] });
  });
});
