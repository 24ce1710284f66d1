/**
 * A large import parses in a worker thread (issue 21 item 7): closing the
 * station in the middle of one ends that thread. The import answers with
 * its error, no worker thread is left running, and the orders written before
 * the close are in the database when the station opens again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../shared/domain/order';
import { importWorkersAlive } from '../../../electron/core/orders/csv-thread';
import type { Station } from '../../../electron/core/station';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { startOfflineStation } from '../../support/offline-station';
import { invokerOf, tempDir } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A station whose platform is never reached (nothing here calls it). */
async function station(dataDir: string): Promise<Station> {
  const s = await startOfflineStation(dataDir);
  cleanups.push(() => s.close());
  return s;
}

describe('closing the station during a large import', () => {
  it('ends the import\u2019s worker thread; the orders already written stay, importing again completes it', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const first = await station(tmp.dir);
    // About 5 MB: parsed in a worker (over 2 MiB), many batches.
    const bytes = Buffer.from(generateShopifyCsv(6_000, { seed: 23, bom: false }), 'utf8');
    const { importId, chunkBytes } = await first.handlers['orders.importBegin']({ fileName: 'big.csv', size: bytes.length });
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      await first.handlers['orders.importChunk']({ importId, offset, dataBase64: bytes.subarray(offset, offset + chunkBytes).toString('base64') });
    }
    let closed: Promise<void> | undefined;
    let threadsAtClose = -1;
    first.events.on('imports.changed', (p) => {
      // The first report comes while the file is being read: close now.
      if (p.done || closed) return;
      threadsAtClose = importWorkersAlive();
      closed = first.close();
    });
    const outcome = await first.handlers['orders.importFinish']({ importId }).then(
      (report: ImportReport) => report,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    );
    expect(threadsAtClose).toBe(1);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/station is closing/);
    await closed;
    expect(importWorkersAlive()).toBe(0);

    // Opened again: what was written before the close is there, and importing the file again completes it.
    const again = await station(tmp.dir);
    const stored = (await invokerOf(() => again)('orders.page', { view: 'all', limit: 1 })).total;
    expect(stored).toBeLessThan(6_000);
    const report = await again.handlers['orders.importCsv']({ fileName: 'big.csv', contentBase64: bytes.toString('base64') });
    expect(report).toMatchObject({ unchanged: stored, errors: [] });
    expect(report.imported + report.unchanged + report.skippedNotShippable).toBe(6_000);
  }, 120_000);
});
