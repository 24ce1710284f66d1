/**
 * The one way an e2e spec gets its station (issue 22 item 6). A spec sets its
 * options once at the top and asks for the fixtures it needs:
 *
 *     test.use({ stationOptions: { name: 'verify', labelPrinter: 'folder' } });
 *     test('…', async ({ page, station, rpc, labelPrinter }) => { await page.goto(station.url); … });
 *
 * - `station`: the station as `npm run host` runs it (station-process.ts: core
 *   + training sandbox + headless host on port 0) on a data folder of its own
 *   in a temp folder, printing labels to a fake Zebra listener on TCP
 *   (`socket://127.0.0.1:<port>`, fake-printer.ts) or to a folder
 *   (`file://<workDir>/labels`), with the spec's extra CLI arguments;
 * - `rpc`: station commands over the host, typed by the contract (rpc.ts);
 * - `labelPrinter`: the listener, for the labels it received.
 *
 * They are worker-scoped: one station per spec file, shared by its tests in
 * order, as a bench's day is. Each spec sets its options with `test.use` in
 * its own file, so Playwright gives each spec file a worker, hence a station
 * and a data folder, of its own; a worker that would carry one station into a
 * second spec file (two specs sharing one `test.extend` of options) fails the
 * test loudly.
 * Once the spec's tests are done the station gets SIGTERM and must exit with
 * code 0 (host, core and sandbox closed cleanly), the listener is closed and
 * the temp folder removed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import type { Invoke } from '../support/commands';
import { startFakePrinter, type FakePrinter } from './fake-printer';
import { rpcFor } from './rpc';
import { startStationProcess, type StationProcess } from './station-process';

export { expect } from '@playwright/test';

/** Where specs save their screenshots (`test-results/screens/`); created before any station starts. */
export const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'screens');

/** How a spec's station is started; set with `test.use({ stationOptions: {...} })` at the top of the spec. */
export interface StationOptions {
  /** The spec's own name, lower-case letters, digits and `-` (e.g. `verify`): the temp folder's prefix (`station-e2e-<name>-`) and the name in failure messages. */
  name: string;
  /** The label printer: a fake Zebra listening on TCP (`socket://`, see `labelPrinter`) or a folder (`file://<workDir>/labels`). */
  labelPrinter: 'listener' | 'folder';
  /** More arguments for the host CLI (electron/host/cli.ts), after `--data-dir` and `--printer` (`--port 0` is always added). */
  args?: readonly string[];
}

/** A running station of one spec: its process (url, ready line, output, stop) and where it keeps its files. */
export interface Station extends StationProcess {
  /** The spec's temp folder (removed afterwards): scratch files such as CSVs go here. */
  workDir: string;
  /** The station's data folder (`<workDir>/station`): database, training secrets. */
  dataDir: string;
  /** The label printer's device URI the station was started with. */
  printerUri: string;
}

interface WorkerFixtures {
  stationOptions: StationOptions;
  station: Station;
  rpc: Invoke;
  labelPrinter: FakePrinter;
  /** The fake printer when the options ask for one (started before the station, closed after it); null otherwise. */
  labelListener: FakePrinter | null;
}

interface TestFixtures {
  /** Checks, for every test, that the worker's station was started for this test's spec file. */
  oneStationPerSpec: void;
}

/** The spec file whose tests this worker process ran first (module state lives per worker process). */
let specOfWorker: string | undefined;
/** Set once this worker process has started a station. */
let stationStarted = false;

/** `options` checked: a clear error naming the field rather than a station started the wrong way. */
function checked(options: StationOptions): StationOptions {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(options.name)) {
    throw new Error(`stationOptions.name must be lower-case letters, digits and "-" (got ${JSON.stringify(options.name)}): set it with test.use({ stationOptions: { name: '<spec>', ... } })`);
  }
  if (options.labelPrinter !== 'listener' && options.labelPrinter !== 'folder') {
    throw new Error(`stationOptions.labelPrinter must be "listener" or "folder" (got ${JSON.stringify(options.labelPrinter)})`);
  }
  return options;
}

/** Playwright's `test` with the station fixtures; use it (and `expect` from here) in every e2e spec. */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  stationOptions: [{ name: '', labelPrinter: 'folder' }, { scope: 'worker', option: true }],

  labelListener: [
    async ({ stationOptions }, use) => {
      if (checked(stationOptions).labelPrinter !== 'listener') return use(null);
      const printer = await startFakePrinter();
      try {
        await use(printer);
      } finally {
        await printer.close();
      }
    },
    { scope: 'worker' },
  ],

  station: [
    async ({ stationOptions, labelListener }, use) => {
      const options = checked(stationOptions);
      mkdirSync(SHOTS, { recursive: true });
      const workDir = mkdtempSync(path.join(os.tmpdir(), `station-e2e-${options.name}-`));
      try {
        const dataDir = path.join(workDir, 'station');
        const printerUri = labelListener ? `socket://127.0.0.1:${labelListener.port}` : `file://${path.join(workDir, 'labels')}`;
        const proc = await startStationProcess(['--data-dir', dataDir, '--printer', printerUri, ...(options.args ?? [])]);
        stationStarted = true;
        let code: number | null;
        try {
          await use({ ...proc, workDir, dataDir, printerUri });
        } finally {
          // SIGTERM closes host, core and sandbox cleanly: exit code 0. A spec may stop it earlier (its own devices after it).
          code = await proc.stop();
        }
        if (code !== 0) throw new Error(`station of spec "${options.name}" exited with code ${code}, expected 0:\n${proc.output()}`);
      } finally {
        rmSync(workDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  rpc: [async ({ station }, use) => use(rpcFor(() => station)), { scope: 'worker' }],

  labelPrinter: [
    async ({ stationOptions, labelListener }, use) => {
      if (!labelListener) throw new Error(`spec "${stationOptions.name}" prints labels to a folder: set stationOptions.labelPrinter to "listener" to use labelPrinter`);
      await use(labelListener);
    },
    { scope: 'worker' },
  ],

  oneStationPerSpec: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads what a fixture needs from this destructuring; it needs no other fixture
    async ({}, use, testInfo) => {
      specOfWorker ??= testInfo.file;
      if (stationStarted && specOfWorker !== testInfo.file) {
        throw new Error(`${path.basename(testInfo.file)} would share the station of ${path.basename(specOfWorker)}: set stationOptions with test.use({ stationOptions }) in each spec`);
      }
      await use();
    },
    { auto: true },
  ],
});
