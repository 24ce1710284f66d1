/**
 * Starts the station for a resolved configuration: the composition shared by
 * Electron main, the headless host, the tests and the bench. A configured
 * platform is used as is (its client id stands for the account name); with
 * none, training mode (electron/training) starts the embedded sandbox and
 * opens `training.sqlite` first. The core (electron/core/station.ts) wires the
 * rest.
 */
import pkg from '../../package.json' with { type: 'json' };
import type { StationConfig } from '../core/config';
import { createStation, type Station, type StationOptions, type StationSetup } from '../core/station';
import { openTraining } from '../training';

/**
 * Builds the station for `config`.
 *
 * @param options as for `createStation`; `log` also receives training's "moved aside" lines,
 *   which without a `log` go to stderr (moving a packer's files is never silent).
 * @throws what `openTraining` and `createStation` throw (StoreError, PrinterError, Error).
 */
export async function startStation(config: StationConfig, options: StationOptions = {}): Promise<Station> {
  const base = { dataDir: config.dataDir, version: pkg.version, ...(config.printerUri !== undefined ? { printerUri: config.printerUri } : {}) };
  if (config.platform.mode === 'platform') {
    const { baseUrl, authUrl, clientId, clientSecret } = config.platform;
    return createStation({ ...base, platform: { mode: 'platform', baseUrl, authUrl, clientId, clientSecret, accountName: clientId } }, options);
  }
  const warn = options.log ?? ((line: string) => process.stderr.write(`Shipping Station: ${line}\n`));
  const training = await openTraining(config.dataDir, warn);
  const setup: StationSetup = { ...base, platform: training.platform, store: training.store, afterSent: training.afterSent, release: training.release };
  return createStation(setup, options);
}
