/**
 * Station configuration from the command line and the environment
 * (command line wins). Used by Electron main and the headless host alike.
 *
 * | Option            | Environment             | Default                                   |
 * |-------------------|-------------------------|-------------------------------------------|
 * | `--data-dir`      | `STATION_DATA_DIR`      | `~/.shipping-station`                     |
 * | `--platform-url`  | `STATION_PLATFORM_URL`  | none: training mode on the embedded sandbox |
 * | `--auth-url`      | `STATION_AUTH_URL`      | platform URL without `/api/<version>`     |
 * | `--client-id`     | `STATION_CLIENT_ID`     | required with a platform URL              |
 * | (none)            | `STATION_CLIENT_SECRET` | required with a platform URL, unless saved in Settings |
 * | `--printer`       | `STATION_PRINTER`       | settings table, else `file://<dataDir>/labels` |
 *
 * Without a platform URL at launch, the account saved in Settings
 * (`account.json` + the OS secret store, see account.ts) is used, else
 * training mode. The client secret is never accepted on the command line:
 * every user of the machine can read a process's arguments (`ps`).
 *
 * Values are given as `--name value` or `--name=value`. Arguments this module
 * does not know (Electron/Chromium switches, a host's own `--port`) are left
 * to their owners and listed in {@link StationConfig.ignoredArgs}.
 */
import os from 'node:os';
import path from 'node:path';
import { DEVICE_URI_PREFIXES, isDeviceUriScheme } from '../../shared/print/device-uri-schemes';
import { warehouseUrlProblem } from '../../shared/domain/warehouse-url';

/**
 * The platform account saved in the data folder (account/saved-account.ts reads and writes it):
 * what the configuration needs of it.
 */
interface SavedPlatformAccount {
  platformUrl: string;
  authUrl?: string | undefined;
  clientId: string;
}

/** Key of an account's secret in the secret store: the client id at its auth server. */
export function secretAccountKey(account: { platformUrl: string; authUrl?: string; clientId: string }): string {
  return `${account.clientId}@${account.authUrl ?? account.platformUrl}`;
}

/** Platform to talk to: the embedded sandbox (training mode) or a real one. */
type PlatformConfig =
  | { mode: 'sandbox' }
  | {
      mode: 'platform';
      /** `{base_url}`, e.g. `https://acme.example.com/api/2026-09`. */
      baseUrl: string;
      /** `{auth_url}`; the token endpoint is `{auth_url}/oauth/token` (spec: What the service does). */
      authUrl: string;
      clientId: string;
      /** Never logged nor sent to the renderer. */
      clientSecret: string;
    };

/** Resolved configuration of one station. */
export interface StationConfig {
  /** Absolute data folder: SQLite file, label previews. */
  dataDir: string;
  platform: PlatformConfig;
  /**
   * Label printer device URI given explicitly (`socket://host:9100`,
   * `usb://vid:pid`, `file:///dir`); undefined = use the settings table, else
   * the training default `file://<dataDir>/labels`.
   */
  printerUri?: string;
  /** The warehouse database this bench joins (`postgres://user@host:5432/db`, no password; issue 35); undefined: alone. */
  warehouseUrl?: string;
  /** Command-line arguments not recognised here. */
  ignoredArgs: string[];
}

/** A bad option value; `option` names it as the user typed it (`--platform-url` or `STATION_PLATFORM_URL`). */
export class ConfigError extends Error {
  constructor(
    public readonly option: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

interface OptionDef {
  flag: string;
  env: string;
}

const OPTIONS = {
  dataDir: { flag: '--data-dir', env: 'STATION_DATA_DIR' },
  platformUrl: { flag: '--platform-url', env: 'STATION_PLATFORM_URL' },
  authUrl: { flag: '--auth-url', env: 'STATION_AUTH_URL' },
  clientId: { flag: '--client-id', env: 'STATION_CLIENT_ID' },
  clientSecret: { flag: '--client-secret', env: 'STATION_CLIENT_SECRET' },
  printer: { flag: '--printer', env: 'STATION_PRINTER' },
  warehouse: { flag: '--warehouse', env: 'STATION_WAREHOUSE_URL' },
} as const satisfies Record<string, OptionDef>;

/** The station's command-line flags (`--data-dir`, `--platform-url`, ...), for usage and unknown-option messages. */
export function stationOptionFlags(): string[] {
  return Object.values(OPTIONS)
    .map((o) => o.flag)
    .filter((f) => f !== OPTIONS.clientSecret.flag);
}

/** What Settings saved, for {@link resolveConfig}. */
export interface SavedSettings {
  /** The saved account (`account.json`), or null. */
  account?: SavedPlatformAccount | null;
  /** The secret the OS secret store holds for a key ({@link secretAccountKey}), or null. */
  secret?: (key: string) => string | null;
}

type OptionKey = keyof typeof OPTIONS;

/** Hosts on which plain http is accepted for a platform (a local sandbox or proxy). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The data folder the command line or environment names (`--data-dir`,
 * `--data-dir=`, `STATION_DATA_DIR`), else the default; what resolveConfig
 * would return, without checking anything else. For reading what Settings
 * saved there before the rest of the configuration is resolved.
 */
export function dataDirOption(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === OPTIONS.dataDir.flag) value = argv[i + 1];
    else if (a.startsWith(`${OPTIONS.dataDir.flag}=`)) value = a.slice(OPTIONS.dataDir.flag.length + 1);
  }
  value ??= env[OPTIONS.dataDir.env]?.trim() || undefined;
  return value && value.trim() !== '' && !value.startsWith('--') ? path.resolve(expandHome(value.trim())) : defaultDataDir();
}

/** Default data folder, `~/.shipping-station`. */
function defaultDataDir(home: string = os.homedir()): string {
  return path.join(home, '.shipping-station');
}

/** Training-default label printer for a data folder: a `file://` URI of `<dataDir>/labels`. */
export function defaultPrinterUri(dataDir: string): string {
  return `file://${path.join(dataDir, 'labels')}`;
}

/**
 * Reads the station configuration.
 *
 * @param argv command-line arguments without node/script (`process.argv.slice(2)`)
 * @param env environment (`process.env`)
 * @throws ConfigError naming the option for: an option without a value, an empty
 *   data folder, a platform/auth URL that is not an absolute https URL (http only
 *   on localhost), credentials without a platform URL or a platform URL without
 *   both credentials, `--client-secret` on the command line, a printer URI
 *   that is not `socket://`, `usb://` or `file://`.
 * @param saved what Settings saved (account and secret store); default nothing
 */
export function resolveConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, saved: SavedSettings = {}): StationConfig {
  const fromArgs = new Map<OptionKey, string>();
  const ignoredArgs: string[] = [];
  const byFlag = new Map<string, OptionKey>(Object.entries(OPTIONS).map(([k, d]) => [d.flag, k as OptionKey]));

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const key = byFlag.get(flag);
    if (key === 'clientSecret') {
      throw new ConfigError(
        flag,
        `${flag} is not accepted on the command line: every user of this machine can read it in the process list. ` +
          `Set ${OPTIONS.clientSecret.env} in the station's environment, or save the account once in Settings (F8)`,
      );
    }
    if (!key) {
      ignoredArgs.push(arg);
      continue;
    }
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new ConfigError(flag, `${flag} needs a value`);
      value = next;
      i++;
    }
    fromArgs.set(key, value);
  }

  /** Value and the name to blame for it: the flag when given there, else the env variable. */
  const get = (key: OptionKey): { value: string; source: string } | undefined => {
    const a = fromArgs.get(key);
    if (a !== undefined) return { value: a.trim(), source: OPTIONS[key].flag };
    const e = env[OPTIONS[key].env];
    if (e !== undefined && e.trim() !== '') return { value: e.trim(), source: OPTIONS[key].env };
    return undefined;
  };

  // Data folder
  const dd = get('dataDir');
  if (dd && dd.value === '') throw new ConfigError(dd.source, `${dd.source} must not be empty`);
  const dataDir = dd ? path.resolve(expandHome(dd.value)) : defaultDataDir();

  // Platform: from the launch, else the account saved in Settings, else training mode.
  let url = get('platformUrl');
  let auth = get('authUrl');
  let id = get('clientId');
  let secret = get('clientSecret');
  if (!url && !auth && !id && saved.account) {
    const a = saved.account;
    url = { value: a.platformUrl, source: 'the account saved in Settings (platform URL)' };
    if (a.authUrl) auth = { value: a.authUrl, source: 'the account saved in Settings (auth URL)' };
    id = { value: a.clientId, source: 'the account saved in Settings (client id)' };
  }
  if (url && id && !secret && saved.secret) {
    const stored = saved.secret(secretAccountKey({ platformUrl: url.value.replace(/\/+$/, ''), ...(auth ? { authUrl: auth.value.replace(/\/+$/, '') } : {}), clientId: id.value }));
    if (stored) secret = { value: stored, source: 'the OS secret store' };
  }
  let platform: PlatformConfig;
  if (!url) {
    const stray = auth ?? id ?? secret;
    if (stray) {
      throw new ConfigError(stray.source, `${stray.source} was given without ${OPTIONS.platformUrl.flag} (${OPTIONS.platformUrl.env}); give the platform URL too, or none of them for training mode`);
    }
    platform = { mode: 'sandbox' };
  } else {
    const baseUrl = checkUrl(url.value, url.source).replace(/\/+$/, '');
    const authUrl = auth ? checkUrl(auth.value, auth.source).replace(/\/+$/, '') : deriveAuthUrl(baseUrl);
    if (!id || id.value === '') throw new ConfigError(OPTIONS.clientId.flag, `${OPTIONS.clientId.flag} (${OPTIONS.clientId.env}) is required with ${url.source}`);
    if (!secret || secret.value === '') {
      throw new ConfigError(
        OPTIONS.clientSecret.env,
        `${OPTIONS.clientSecret.env} is required with ${url.source}: set it in the station's environment, or save the account with its secret in Settings (F8)`,
      );
    }
    platform = { mode: 'platform', baseUrl, authUrl, clientId: id.value, clientSecret: secret.value };
  }

  // Printer
  const printer = get('printer');
  const config: StationConfig = { dataDir, platform, ignoredArgs };
  if (printer) config.printerUri = checkPrinterUri(printer.value, printer.source);
  const warehouse = get('warehouse');
  if (warehouse) config.warehouseUrl = checkWarehouseUrl(warehouse.value, warehouse.source);
  return config;
}

function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return p;
}

function checkUrl(value: string, source: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(source, `${source} must be an absolute URL such as https://acme.example.com/api/2026-09, got "${value}"`);
  }
  if (u.protocol === 'https:') return value;
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return value;
  throw new ConfigError(source, `${source} must use https (plain http is accepted for localhost only), got "${value}"`);
}

/** `{auth_url}` is the platform host without the `/api/<version>` prefix (spec: What the service does). */
function deriveAuthUrl(baseUrl: string): string {
  const u = new URL(baseUrl);
  const p = u.pathname.replace(/\/+$/, '').replace(/\/api\/[^/]+$/, '');
  return `${u.origin}${p}`;
}

/**
 * A warehouse URL as the command line may give it: PostgreSQL's, and never with the password (every user of the
 * machine reads a process's arguments and environment listing); electron/core/warehouse/connection.ts reads the rest.
 */
function checkWarehouseUrl(value: string, source: string): string {
  const problem = warehouseUrlProblem(value);
  if (problem !== null) throw new ConfigError(source, `${source} ${problem}`);
  return value;
}

function checkPrinterUri(value: string, source: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(source, `${source} must be a device URI such as socket://10.0.0.5:9100, usb://0a5f:0164 or file:///path/to/folder, got "${value}"`);
  }
  // The schemes the printers open, from their one table (shared/print/device-uri-schemes.ts); printer:<queue> included.
  if (!isDeviceUriScheme(u.protocol.slice(0, -1).toLowerCase())) {
    throw new ConfigError(source, `${source} must start with ${DEVICE_URI_PREFIXES}, got "${value}"`);
  }
  return value;
}
