/**
 * The import's parse in a worker thread (electron/core/orders/csv-thread.ts,
 * csv-worker.ts; issue 21 item 7), run from the sources (the worker through
 * tsx): every sample file gives the same report and the same stored orders
 * as the import on the station's thread, a refused file throws the same
 * ShopifyImportError before anything is written, progress ends with one
 * `done`, and an aborted import leaves no thread running.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importShopifyCsv, ShopifyImportError } from '../../../../electron/core/orders';
import { importWorkersAlive } from '../../../../electron/core/orders/csv-thread';
import type { ShopifyImportOptions } from '../../../../electron/core/orders/shopify-csv';
import type { Store } from '../../../../electron/core/store';
import { generateShopifyCsv } from '../../../fixtures/shopify/generate-shopify-csv';
import { tempStore } from '../store/helpers';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', '..', 'fixtures', 'shopify');
/** Every sample export: the hand-made ones and the warehouse's real-format files. */
const SAMPLES = [
  ...readdirSync(FIXTURES).filter((f) => f.endsWith('.csv')),
  ...readdirSync(path.join(FIXTURES, 'warehouse'))
    .filter((f) => /\.(csv|txt)$/.test(f))
    .map((f) => `warehouse/${f}`),
];

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function store(): Store {
  const t = tempStore();
  cleanups.push(() => {
    t.store.close();
    t.cleanup();
  });
  return t.store;
}

/** What the store holds after an import: every order with its items, row ids left out. */
function stored(s: Store): unknown[] {
  const all = [];
  for (let offset = 0; ; offset += 1000) {
    const page = s.orders.list({ status: 'all', limit: 1000, offset });
    all.push(...page);
    if (page.length < 1000) break;
  }
  return all.map(({ id: _id, ...o }) => o).sort((a, b) => `${a.shop}${a.orderNumber}`.localeCompare(`${b.shop}${b.orderNumber}`));
}

/** Imports `input` on this thread and through the worker (each into a fresh store, twice: a re-import too); both must agree. */
async function bothWays(input: Uint8Array | string | { path: string }, opts: ShopifyImportOptions = {}) {
  const here = store();
  const there = store();
  const inThread = [await importShopifyCsv(here, input, { ...opts, worker: false }), await importShopifyCsv(here, input, { ...opts, worker: false })];
  const inWorker = [await importShopifyCsv(there, input, { ...opts, worker: true }), await importShopifyCsv(there, input, { ...opts, worker: true })];
  expect(inWorker).toEqual(inThread);
  expect(stored(there)).toEqual(stored(here));
  expect(importWorkersAlive()).toBe(0);
  return inThread[0]!;
}

describe('importShopifyCsv in a worker thread: the same import as on the station thread', () => {
  it.each(SAMPLES.filter((f) => f !== 'missing-columns.csv'))('%s', async (name) => {
    const report = await bothWays(readFileSync(path.join(FIXTURES, name)), { now: () => new Date('2026-10-01T08:00:00Z') });
    expect(report.imported + report.errors.length + report.skippedNotShippable).toBeGreaterThan(0);
  });

  it('a file read from disk, for a shop with its own pickup methods, many batches long', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'station-csv-worker-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'export.csv');
    writeFileSync(file, generateShopifyCsv(2_500, { seed: 31 }));
    const report = await bothWays({ path: file }, { shop: 'Outlet', pickupMethods: ['Express'] });
    expect(report).toMatchObject({ shop: 'Outlet', errors: [] });
    expect(report.imported).toBeGreaterThan(2_000);
  }, 60_000);
});

describe('importShopifyCsv in a worker thread: refused files', () => {
  it('throws the same ShopifyImportError (class, code, message, issues) and writes nothing', async () => {
    const cases: Array<[Uint8Array | string, ShopifyImportOptions]> = [
      [readFileSync(path.join(FIXTURES, 'missing-columns.csv')), {}],
      ['', {}],
      [Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) % 256)), {}],
      ['Name,"Email\n#1,a\n', {}],
      [generateShopifyCsv(200, { bom: false, seed: 4 }), { maxBytes: 1024 * 1024 / 8 }],
    ];
    for (const [input, opts] of cases) {
      const s = store();
      const here = await importShopifyCsv(s, input, { ...opts, worker: false }).catch((e: unknown) => e);
      const there = await importShopifyCsv(s, input, { ...opts, worker: true }).catch((e: unknown) => e);
      expect(here).toBeInstanceOf(ShopifyImportError);
      expect(there).toBeInstanceOf(ShopifyImportError);
      const fields = (e: ShopifyImportError) => ({ name: e.name, code: e.code, message: e.message, issues: e.issues });
      expect(fields(there as ShopifyImportError)).toEqual(fields(here as ShopifyImportError));
      expect(s.orders.count({ status: 'all' })).toBe(0);
    }
    expect(importWorkersAlive()).toBe(0);
  });

  it('any other error of the worker comes back with its message (a file that is not there)', async () => {
    const s = store();
    const missing = { path: path.join(tmpdir(), `no-such-export-${process.pid}.csv`) };
    const here = await importShopifyCsv(s, missing, { worker: false }).catch((e: unknown) => e);
    const there = await importShopifyCsv(s, missing, { worker: true }).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(Error);
    expect(there).toBeInstanceOf(Error);
    expect((there as Error).message).toBe((here as Error).message);
    expect((there as Error).message).toMatch(/ENOENT/);
    expect(importWorkersAlive()).toBe(0);
  });
});

describe('importShopifyCsv in a worker thread: progress and stopping', () => {
  it('reports progress while reading and `done` once, last, after every order is written', async () => {
    const csv = Buffer.from(generateShopifyCsv(3_000, { seed: 8, bom: false }));
    const s = store();
    // Each report with the orders stored when it came.
    const seen: Array<{ orders: number; done: boolean; bytesRead: number; stored: number }> = [];
    const report = await importShopifyCsv(s, csv, { worker: true, onProgress: (p) => seen.push({ ...p, stored: s.orders.count({ status: 'all' }) }) });
    expect(seen.filter((p) => p.done)).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ done: true, orders: 3_000, bytesRead: csv.length, stored: report.imported });
    expect(seen.length).toBeGreaterThan(1);
  }, 60_000);

  it('a progress listener that throws fails the import, and ends the worker', async () => {
    const csv = Buffer.from(generateShopifyCsv(3_000, { seed: 14, bom: false }));
    const failing = importShopifyCsv(store(), csv, {
      worker: true,
      onProgress: () => {
        throw new Error('listener broke');
      },
    });
    await expect(failing).rejects.toThrow('listener broke');
    expect(importWorkersAlive()).toBe(0);
  }, 60_000);

  it('an abort (the station closing) ends the worker: the import rejects, no thread is left, the orders written stay', async () => {
    const csv = Buffer.from(generateShopifyCsv(6_000, { seed: 12, bom: false }));
    const s = store();
    const stop = new AbortController();
    let progressAt: number | undefined;
    const importing = importShopifyCsv(s, csv, {
      worker: true,
      signal: stop.signal,
      onProgress: (p) => {
        // The first report comes while the file is still being read.
        if (p.done || progressAt !== undefined) return;
        progressAt = p.orders;
        expect(importWorkersAlive()).toBe(1);
        stop.abort();
      },
    });
    await expect(importing).rejects.toThrow(/station is closing/);
    expect(importWorkersAlive()).toBe(0);
    expect(progressAt).toBeLessThan(6_000);
    expect(s.orders.count({ status: 'all' })).toBeLessThan(6_000);
  }, 60_000);
});
