/**
 * Child of test/integration/host/bundled-import-worker.test.ts, run BUNDLED
 * (the launcher's or the Electron main's esbuild options, with the bundles'
 * worker entries beside it) with plain Node: imports one export into a fresh
 * store through the import's worker thread, then into another on this
 * thread, and prints one JSON line `{viaWorker, inThread, workersAlive}`.
 * CommonJS-safe (no top-level await): the main target's format is CommonJS.
 *
 * Usage: node <bundle>/bundled-import-child.(mjs|cjs) <csv file> <data folder>
 */
import path from 'node:path';
import { importShopifyCsv } from '../../electron/core/orders';
import { importWorkersAlive } from '../../electron/core/orders/csv-thread';
import { openStore } from '../../electron/core/store';

async function main(): Promise<void> {
  const [csv, dir] = process.argv.slice(2);
  if (!csv || !dir) throw new Error('usage: bundled-import-child <csv file> <data folder>');
  const run = async (name: string, worker: boolean) => {
    const store = openStore(path.join(dir, `${name}.sqlite`));
    try {
      return await importShopifyCsv(store, { path: csv }, { worker, shop: 'bundled' });
    } finally {
      store.close();
    }
  };
  const viaWorker = await run('worker', true);
  const inThread = await run('thread', false);
  console.log(JSON.stringify({ viaWorker, inThread, workersAlive: importWorkersAlive() }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
