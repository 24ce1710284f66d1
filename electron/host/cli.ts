/**
 * `npm run host` (and `npm start` without an Electron binary): resolves the
 * configuration (command line, then environment), builds the station core,
 * starts the headless host on 127.0.0.1 and prints the address to open.
 * `--port N` / `STATION_PORT` choose the port (default 0: any free one).
 * SIGINT/SIGTERM/SIGHUP close the host, then the station (database, sandbox);
 * the handlers are in place before the station starts, so a signal during the
 * start is honoured once it is done, and the process ends with its parent.
 * A repeated signal during the close says it is closing; a deliberate third
 * forces (electron/shell/signals.ts).
 */
import { readSavedAccount } from '../core/account/saved-account';
import type { SecretStore } from '../core/common/services';
import { ConfigError, dataDirOption, resolveConfig, stationOptionFlags, type StationConfig } from '../core/config';
import { isEntryPoint, watchParent } from '../entry';
import { handleStopSignals } from '../shell/signals';
import { startStation } from '../shell/start';
import { keyringSecrets } from './keyring';
import { startHost, type RunningHost } from './server';

/** Reads `--port N` / `--port=N`, else `STATION_PORT`; 0 when absent. @throws ConfigError for a value that is not 0..65535. */
export function portOption(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): number {
  let raw: string | undefined;
  let source = '--port';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--port') raw = argv[i + 1];
    else if (a.startsWith('--port=')) raw = a.slice('--port='.length);
  }
  if (raw === undefined && env.STATION_PORT !== undefined && env.STATION_PORT.trim() !== '') {
    raw = env.STATION_PORT.trim();
    source = 'STATION_PORT';
  }
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 65535) throw new ConfigError(source, `${source} must be a port number from 0 to 65535, got "${raw}"`);
  return n;
}

/**
 * Arguments the host does not know: resolveConfig's leftovers less `--port`
 * and its value. A mistyped option (`--printer-uri`, `--data_dir`) must stop
 * the start, not run training mode with defaults.
 */
export function unknownHostArgs(ignored: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ignored.length; i++) {
    const a = ignored[i] ?? '';
    if (a === '--port') i++;
    else if (!a.startsWith('--port=')) out.push(a);
  }
  return out;
}

/** One line saying which platform the station talks to (the packer must know when money is real). */
export function platformLabel(config: StationConfig): string {
  return config.platform.mode === 'sandbox' ? 'training mode: embedded sandbox' : `platform: ${config.platform.baseUrl}`;
}

/**
 * Starts station + host. Resolves with a `stop()` that closes both.
 * @throws ConfigError for bad options; whatever createStation/startHost throw.
 */
export async function runHost(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void = (l) => console.log(l),
  options: HostMainOptions = {},
): Promise<{ host: RunningHost; stop(): Promise<void> }> {
  // The account saved in Settings, used when none is given at launch; its secret from the OS keyring.
  const secrets: SecretStore = options.secrets ?? keyringSecrets();
  let account;
  try {
    account = readSavedAccount(dataDirOption(argv, env));
  } catch (e) {
    throw new ConfigError('account.json', e instanceof Error ? e.message : String(e));
  }
  const config = resolveConfig(argv, env, { account, secret: (key) => secrets.get(key) });
  const port = portOption(argv, env);
  const [unknown] = unknownHostArgs(config.ignoredArgs);
  if (unknown !== undefined) {
    throw new ConfigError(unknown, `Unknown option "${unknown}" (options: ${[...stationOptionFlags(), '--port'].join(', ')})`);
  }
  // Core diagnostics (outbox, printer, training recovery) go to stderr; stdout keeps the ready line.
  const station = await startStation(config, { secrets, log: (line) => process.stderr.write(`station: ${line}\n`) });
  let host: RunningHost;
  try {
    // One per-launch token for the host and the embedded sandbox's admin prefix.
    host = await startHost({ station, port, token: station.token, ...(options.rendererDir ? { rendererDir: options.rendererDir } : {}) });
  } catch (e) {
    await station.close();
    throw e;
  }
  log(`Shipping Station ready (${platformLabel(config)}) — open ${host.url}`);
  let stopping: Promise<void> | null = null;
  return {
    host,
    stop() {
      stopping ??= (async () => {
        await host.close();
        await station.close();
      })();
      return stopping;
    },
  };
}

/** Where the host finds what it serves. */
export interface HostMainOptions {
  /** Built renderer folder (`dist/renderer`); default: found from the host's sources. */
  rendererDir?: string;
  /** Secret store for Settings; default the OS keyring (electron/host/keyring.ts). */
  secrets?: SecretStore;
}

/**
 * What the packer reads when the station cannot start: the message alone for
 * errors written for them (the store's: already running, locked, read-only,
 * damaged) and for file-system errors (EACCES and the like: the path and the
 * reason, without a stack); the stack for anything else, which is a bug to report.
 */
export function startFailureText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  if (e.name === 'StoreError' || e.name === 'PrinterError' || (typeof code === 'string' && /^E[A-Z]+$/.test(code))) return e.message;
  return e.stack ?? e.message;
}

/**
 * Process entry: runs the host until SIGINT/SIGTERM/SIGHUP (or until the parent
 * process is gone), then closes and exits 0 (1 when a third signal forced the
 * end, or the close failed). The signal handlers are
 * installed before the station starts: a signal during the start stops the
 * station as soon as it is up, never leaving it running unattended.
 * Exits 2 on a configuration error (message names the option), 1 on any other start failure.
 */
export async function hostMain(
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: HostMainOptions = {},
): Promise<void> {
  let running: Awaited<ReturnType<typeof runHost>> | null = null;
  let stopRequested: string | null = null;
  const stopNow = (why: string, r: Awaited<ReturnType<typeof runHost>>) => {
    console.log(`Shipping Station: ${why}, closing…`);
    r.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('Shipping Station: error while closing:', e);
        process.exit(1);
      },
    );
  };
  const request = (why: string) => {
    if (stopRequested !== null) return;
    stopRequested = why;
    if (running) stopNow(why, running);
    // else: runHost is still starting; it stops right after (below).
  };
  // Everything the station writes (databases, training state, label previews) is the user's alone.
  if (process.platform !== 'win32') process.umask(0o077);
  // Every stop signal, for the whole close (a Ctrl+C arrives twice under npm); a deliberate third forces.
  handleStopSignals({
    onStop: (signal) => request(signal),
    onForce: () => process.exit(1),
    say: (line) => console.log(line),
  });
  watchParent(() => request('parent process gone'));
  try {
    running = await runHost(argv, env, undefined, options);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Shipping Station: ${e.message}`);
      process.exit(2);
    }
    console.error(`Shipping Station could not start: ${startFailureText(e)}`);
    process.exit(1);
  }
  if (stopRequested !== null) stopNow(stopRequested, running);
}

// Run when executed directly (`node --import tsx electron/host/cli.ts`), not when imported by launch.ts, tests or a bundle.
if (isEntryPoint(import.meta.url)) void hostMain();
