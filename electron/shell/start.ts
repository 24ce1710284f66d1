/**
 * Starts the station for a resolved configuration: the composition shared by
 * Electron main, the headless host, the tests and the bench. A configured
 * platform is used as is (its client id stands for the account name); with
 * none, training mode (electron/training) starts the embedded sandbox and
 * opens `training.sqlite` first. The core (electron/core/station.ts) wires the
 * rest.
 */
import { randomBytes } from 'node:crypto';
import pkg from '../../package.json' with { type: 'json' };
import type { StationConfig } from '../core/config';
import { ensurePrivateDataDir } from '../core/data-dir';
import { createStation, type Station, type StationOptions, type StationSetup } from '../core/station';
import { lockDataFolder } from '../core/store';
import { openTraining } from '../training';

/** A started station and its per-launch token. */
export interface StartedStation extends Station {
  /**
   * Per-launch secret (32 random bytes, base64url): the embedded training
   * sandbox's admin prefix requires it (`x-station-token`), and the headless
   * host uses it as its own token, so the URL it prints opens both.
   */
  token: string;
}

/**
 * Builds the station for `config`. First locks the data folder for this
 * process's life (core/store/lock.ts): a second station on the same folder
 * stops here with StoreError `already_running`; `close()` releases it.
 *
 * @param options as for `createStation`; `log` also receives training's "moved aside" lines,
 *   which without a `log` go to stderr (moving a packer's files is never silent).
 * @throws StoreError `already_running`, `permission_denied` (folder), and what `openTraining`
 *   and `createStation` throw (StoreError, PrinterError, Error).
 */
export async function startStation(config: StationConfig, options: StationOptions = {}): Promise<StartedStation> {
  // The lock creates the folder (0700) and words a folder that cannot be created; then the
  // folder is private before training or the store write anything in it.
  const lock = lockDataFolder(config.dataDir);
  let loosened: string[];
  try {
    loosened = ensurePrivateDataDir(config.dataDir);
  } catch (e) {
    lock.release();
    throw e;
  }
  if (loosened.length) (options.log ?? ((line: string) => process.stderr.write(`Shipping Station: ${line}\n`)))(`data folder: made private (0700/0600): ${loosened.join(', ')}`);
  const token = randomBytes(32).toString('base64url');
  try {
    const base = {
      dataDir: config.dataDir,
      version: pkg.version,
      ...(config.printerUri !== undefined ? { printerUri: config.printerUri } : {}),
      ...(config.warehouseUrl !== undefined ? { warehouseUrl: config.warehouseUrl } : {}),
    };
    let station: Station;
    if (config.platform.mode === 'platform') {
      const { baseUrl, authUrl, clientId, clientSecret } = config.platform;
      const release = async () => lock.release();
      station = await createStation({ ...base, platform: { mode: 'platform', baseUrl, authUrl, clientId, clientSecret, accountName: clientId }, release }, options);
    } else {
      const warn = options.log ?? ((line: string) => process.stderr.write(`Shipping Station: ${line}\n`));
      const training = await openTraining(config.dataDir, warn, token);
      const release = async () => {
        try {
          await training.release();
        } finally {
          lock.release();
        }
      };
      const setup: StationSetup = { ...base, platform: training.platform, store: training.store, afterSent: training.afterSent, release };
      station = await createStation(setup, options);
    }
    return Object.assign(station, { token });
  } catch (e) {
    // Idempotent: createStation may already have released it through the setup.
    lock.release();
    throw e;
  }
}
