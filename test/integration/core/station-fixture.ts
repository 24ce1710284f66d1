/**
 * The one fixture of the core's integration tests: a sandbox on port 0, a
 * temp data folder, a label printer (a fake TCP printer that answers status,
 * or a `file://` folder in the data folder) and a station in platform mode
 * against the sandbox, started before the file's tests and closed after them
 * (vitest `beforeAll` / `afterAll`, registered where the fixture is called).
 * A test file's own `beforeAll` runs after the fixture's, so it can import
 * orders or save settings through `invoke`.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { startStation, type StartedStation } from '../../../electron/shell/start';
import type { StationConfig } from '../../../electron/core/config';
import { startFakePrinter, type FakePrinter } from './printing/fake-printer';
import { invokerOf, startSandbox, stationConfig, tempDir } from './helpers';

/** Options of {@link useStation}. */
export interface StationFixtureOptions {
  /** The label printer: a fake TCP printer in `ready` mode (default), or a `file://<dataDir>/labels` folder. */
  printer?: 'fake' | 'file';
  /** Options of the station's start (`startStation`), given once the sandbox and printer exist. */
  options?: Parameters<typeof startStation>[1] | ((sb: Sandbox) => Parameters<typeof startStation>[1]);
  /** Prefix of the temp data folder's name (default `station-core-`). */
  tempPrefix?: string;
}

/** What {@link useStation} gives: each part is there from the fixture's `beforeAll` on. */
export interface StationFixture {
  readonly sb: Sandbox;
  readonly station: StartedStation;
  /** The temp data folder. */
  readonly dir: string;
  /** The station's configuration (platform mode against {@link sb}, demo client 0). */
  readonly config: StationConfig;
  /** The fake TCP printer; throws when the fixture prints to a folder. */
  readonly printer: FakePrinter;
  /** Calls a command of the running station (the one after a {@link restart} too). */
  readonly invoke: ReturnType<typeof invokerOf>;
  /** Closes the station and starts it again on the same data folder (`options` default: the first start's). */
  restart(options?: Parameters<typeof startStation>[1]): Promise<StartedStation>;
}

/** Registers the fixture's `beforeAll` / `afterAll` in the calling test file and returns its handle. */
export function useStation(fixture: StationFixtureOptions = {}): StationFixture {
  let sb: Sandbox | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  let printer: FakePrinter | undefined;
  let station: StartedStation | undefined;
  let config: StationConfig | undefined;
  let options: Parameters<typeof startStation>[1];
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`station fixture: no ${what} (used before its beforeAll ran?)`);
    return value;
  };

  beforeAll(async () => {
    sb = await startSandbox();
    tmp = tempDir(fixture.tempPrefix);
    if ((fixture.printer ?? 'fake') === 'fake') printer = await startFakePrinter('ready');
    config = stationConfig(sb, tmp.dir, printer ? printer.uri : `file://${tmp.dir}/labels`);
    options = typeof fixture.options === 'function' ? fixture.options(sb) : fixture.options;
    station = await startStation(config, options);
  });

  afterAll(async () => {
    await station?.close();
    await printer?.close();
    await sb?.close();
    tmp?.cleanup();
  });

  return {
    get sb() {
      return need(sb, 'sandbox');
    },
    get station() {
      return need(station, 'station');
    },
    get dir() {
      return need(tmp, 'data folder').dir;
    },
    get config() {
      return need(config, 'configuration');
    },
    get printer() {
      return need(printer, 'fake printer (this fixture prints to a folder)');
    },
    invoke: invokerOf(() => need(station, 'station')),
    async restart(next = options) {
      await need(station, 'station').close();
      station = undefined;
      station = await startStation(need(config, 'configuration'), next);
      return station;
    },
  };
}
