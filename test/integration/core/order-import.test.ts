/**
 * The order import in pieces (issue 21 item 6): orders.importBegin /
 * importChunk / importFinish import a file as a stream; a scan answers while
 * a big import is still reading; a file over the limit is refused naming the
 * limit, and nothing already saved is lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportProgressView } from '../../../shared/contract/views';
import { MAX_IMPORT_BYTES } from '../../../electron/core/orders';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ printer: 'file', options: () => ({ platformRateLimits: false }) });
const invoke = fx.invoke;

/** Uploads `bytes` in pieces of the size the station asks for; returns the upload's id. */
async function upload(fileName: string, bytes: Buffer, shop?: string): Promise<string> {
  const { importId, chunkBytes } = await invoke('orders.importBegin', { fileName, size: bytes.length, ...(shop ? { shop } : {}) });
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    await invoke('orders.importChunk', { importId, offset, dataBase64: bytes.subarray(offset, offset + chunkBytes).toString('base64') });
  }
  return importId;
}

describe('orders.importBegin / importChunk / importFinish', () => {
  it('imports a file sent in pieces like orders.importCsv, then forgets the upload', async () => {
    const csv = Buffer.from(generateShopifyCsv(40, { seed: 21 }), 'utf8');
    const importId = await upload('small.csv', csv, 'pieces');
    const report = await invoke('orders.importFinish', { importId });
    expect(report).toMatchObject({ shop: 'pieces', errors: [], updated: 0, unchanged: 0 });
    expect(report.imported).toBeGreaterThan(30);
    const again = await invoke('orders.importCsv', { fileName: 'small.csv', contentBase64: csv.toString('base64'), shop: 'pieces' });
    expect(again).toMatchObject({ imported: 0, unchanged: report.imported });
    expect((await stationFailure(invoke('orders.importFinish', { importId }))).code).toBe('not_found_locally');
    expect(fs.readdirSync(path.join(fx.dir, 'imports'))).toEqual([]);
  });

  it('refuses a piece out of order, naming offset', async () => {
    const { importId } = await invoke('orders.importBegin', { fileName: 'x.csv', size: 10 });
    const refused = await stationFailure(invoke('orders.importChunk', { importId, offset: 5, dataBase64: Buffer.from('abcde').toString('base64') }));
    expect(refused.code).toBe('invalid_input');
    expect(Object.keys(refused.details ?? {})).toEqual(['offset']);
  });

  it('a scan answers while a big import is still reading the file', async () => {
    const small = await invoke('orders.importCsv', { fileName: 'one.csv', content: generateShopifyCsv(3, { seed: 5, firstNumber: 90_001 }), shop: 'scan' });
    expect(small.imported).toBeGreaterThan(0);
    // About 5 MB: many slices of work, each followed by a turn of the event loop.
    const big = Buffer.from(generateShopifyCsv(6_000, { seed: 22 }), 'utf8');
    const importId = await upload('big.csv', big, 'big');
    const firstProgress = new Promise<ImportProgressView>((resolve) => {
      const off = fx.station.events.on('imports.changed', (p) => {
        if (p.importId !== importId || p.done) return;
        off();
        resolve(p);
      });
    });
    let finished = false;
    const importing = invoke('orders.importFinish', { importId }).finally(() => {
      finished = true;
    });
    const progress = await firstProgress;
    expect(progress).toMatchObject({ fileName: 'big.csv', bytesTotal: big.length, done: false });
    const scanned = await invoke('scan.resolve', { code: '#90001' });
    // The scan has its answer, and the import is not over: it did not wait for the file.
    expect(scanned).toMatchObject({ kind: 'order', order: { orderNumber: '#90001', shop: 'scan' } });
    expect(finished).toBe(false);
    expect(progress.bytesRead).toBeLessThan(big.length);
    const report = await importing;
    expect(report.errors).toEqual([]);
    expect(report.imported + report.skippedNotShippable).toBe(6_000);
  }, 120_000);

  it('refuses a file over the limit, naming the limit, and loses nothing already saved', async () => {
    const before = await invoke('orders.page', { view: 'all', limit: 1 });
    const refused = await stationFailure(invoke('orders.importBegin', { fileName: 'huge.csv', size: MAX_IMPORT_BYTES + 1 }));
    expect(refused.code).toBe('import_failed');
    expect(refused.message).toContain('at most 256 MiB');
    expect(Object.keys(refused.details ?? {})).toEqual(['size']);
    expect((await invoke('orders.page', { view: 'all', limit: 1 })).total).toBe(before.total);
    expect(await invoke('scan.resolve', { code: '#90001' })).toMatchObject({ kind: 'order' });
  });
});
