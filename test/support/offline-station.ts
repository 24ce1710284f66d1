/**
 * A station started as `npm start` starts it (electron/shell/start.ts), on a
 * platform address nothing listens on (port 9, discard): for tests and benches
 * whose commands never reach the platform (imports, scans of local orders).
 */
import { startStation, type StartedStation } from '../../electron/shell/start';

/**
 * Starts a station on the data folder `dataDir` (labels to `<dataDir>/labels`),
 * without platform rate limits and with no OS print queues. The caller closes it.
 * @throws what startStation throws (a data folder in use, an unreadable database).
 */
export function startOfflineStation(dataDir: string): Promise<StartedStation> {
  return startStation(
    {
      dataDir,
      platform: { mode: 'platform', baseUrl: 'http://127.0.0.1:9/api', authUrl: 'http://127.0.0.1:9/oauth/token', clientId: 'offline', clientSecret: 'offline' },
      printerUri: `file://${dataDir}/labels`,
      ignoredArgs: [],
    },
    { platformRateLimits: false, listQueues: () => Promise.resolve([]) },
  );
}
