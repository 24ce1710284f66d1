/**
 * Electron main: a thin shell around the station core (DESIGN.md "The pieces").
 * Builds the core once, serves the renderer from the privileged `station://app`
 * scheme, answers one IPC channel (sender frame checked, then the input parsed
 * by `invokeCommand` with the contract schema) and pushes StationEvents on one
 * channel. The window is sandboxed and context-isolated, cannot navigate nor
 * open windows, and gets a strict CSP. Credentials stay in this process.
 *
 * Bundled by build/bundle.mjs to dist/electron/main.cjs (CommonJS,
 * so `__dirname` is the bundle's folder).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BrowserWindow, Menu, app, dialog, ipcMain, net, protocol, safeStorage, session, type WebContents, type WebFrameMain } from 'electron';
import { StationError, isStationErrorShape, type StationErrorShape } from '../../shared/contract';
import { readSavedAccount, type SavedAccount } from '../core/account/saved-account';
import type { SecretStore } from '../core/common/services';
import { ConfigError, dataDirOption, resolveConfig, type StationConfig } from '../core/config';
import { invokeCommand } from '../core/station';
import { handleStopSignals } from '../shell/signals';
import { startStation } from '../shell/start';
import { STATION_EVENT_NAMES } from '../shell/events';
import { APP_HOST, APP_SCHEME, APP_URL, IPC_EVENT, IPC_INVOKE, type IpcResult } from './channels';
import { denyAllPermissions } from './permissions';
import { serveAppRequest } from './protocol';
import { safeStorageSecrets } from './secret-store';
import { startUpdateCheck } from './updates';

type Station = Awaited<ReturnType<typeof startStation>>;

// Must run before `ready`: the app scheme behaves like https (standard, secure origin).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** Folder of the built renderer: dist/renderer next to dist/electron. */
const RENDERER_DIR = path.resolve(__dirname, '..', 'renderer');

/** True when `frame` is the main frame of our window showing our own page. */
export function isAppFrame(frame: WebFrameMain | null | undefined, win: BrowserWindow | null): boolean {
  if (!frame || !win || win.isDestroyed() || frame !== win.webContents.mainFrame) return false;
  try {
    const u = new URL(frame.url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Serialisable error for the renderer; unexpected errors are logged here, not shown raw. */
function toShape(e: unknown): StationErrorShape {
  if (e instanceof StationError) return e.toJSON();
  if (isStationErrorShape(e)) return { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
  console.error('[main] unexpected error:', e);
  return { code: 'internal_error', message: 'Station error' };
}

/** Serves `station://app/<path>` from RENDERER_DIR (400 bad escape, 404 outside or missing: see protocol.ts). */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, RENDERER_DIR, (url) => net.fetch(url)));
}

/** Locks down every web contents: no navigation, no new windows, no webviews, no permissions. */
function hardenWebContents(): void {
  app.on('web-contents-created', (_e, contents: WebContents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 960,
    minWidth: 1000,
    minHeight: 700,
    title: 'Shipping Station',
    backgroundColor: '#eef1f5',
    show: false,
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_URL);
  return win;
}

/** Bench menu: no accelerators on F1..F6 or Alt+letters (the screens use them). */
function setMenu(): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      { label: 'Station', submenu: [{ role: 'quit' }] },
      { label: 'View', submenu: [{ role: 'togglefullscreen' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'resetZoom' }, ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' } as const])] },
    ]),
  );
}

async function start(): Promise<void> {
  // Everything the station writes (databases, training state, label previews) is the user's alone.
  if (process.platform !== 'win32') process.umask(0o077);
  // `electron . --printer ...` in development, `station --printer ...` packaged.
  const argv = process.argv.slice(app.isPackaged ? 1 : 2);
  let config: StationConfig | null = null;
  let configError: unknown = null;
  const dataDir = dataDirOption(argv, process.env);
  // Chromium's profile and the single-instance lock live in the data folder (set before ready): one window per station database.
  app.setPath('userData', path.join(dataDir, 'electron'));
  // The account saved in Settings; its secret is decrypted with safeStorage once the app is ready.
  const secrets: SecretStore = safeStorageSecrets(safeStorage, dataDir);
  let account: SavedAccount | null = null;
  try {
    account = readSavedAccount(dataDir);
  } catch (e) {
    configError = new ConfigError('account.json', e instanceof Error ? e.message : String(e));
  }
  if (!app.requestSingleInstanceLock()) {
    // A second station on the same data folder would fight over the database and the printer.
    app.quit();
    return;
  }
  hardenWebContents();

  // Stop signals (Ctrl+C in the terminal, kill, the terminal closing) quit through `before-quit`, which
  // closes the station; a repeat says it is closing, a deliberate third forces (electron/shell/signals.ts).
  let quitWhenStarted = false;
  let started = false;
  handleStopSignals({
    onStop: () => {
      if (started) app.quit();
      else quitWhenStarted = true;
    },
    onForce: () => app.exit(1),
    say: (line) => console.log(line),
  });

  let station: Station;
  try {
    await app.whenReady();
    if (configError) throw configError;
    config = resolveConfig(argv, process.env, { account, secret: (key) => secrets.get(key) });
    station = await startStation(config, { secrets, log: (line) => console.error(`station: ${line}`) });
    console.log(`Shipping Station (Electron) ready (${config.platform.mode === 'sandbox' ? 'training mode: embedded sandbox' : `platform: ${config.platform.baseUrl}`})`);
  } catch (e) {
    const msg = e instanceof ConfigError ? e.message : e instanceof Error ? e.message : String(e);
    dialog.showErrorBox('Shipping Station could not start', msg);
    app.exit(e instanceof ConfigError ? 2 : 1);
    return;
  }

  denyAllPermissions(session.defaultSession);
  serveRenderer();
  setMenu();
  let win: BrowserWindow | null = createWindow();
  // Packaged apps carry app-update.yml (the feed built in) in their resources folder.
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  void startUpdateCheck(app.isPackaged, typeof resources === 'string' && existsSync(path.join(resources, 'app-update.yml')), (line) => console.error(`station: ${line}`));
  win.on('closed', () => (win = null));

  ipcMain.handle(IPC_INVOKE, async (event, name: unknown, input: unknown): Promise<IpcResult> => {
    if (!isAppFrame(event.senderFrame, win)) {
      return { ok: false, error: { code: 'forbidden', message: 'Commands are accepted from the station window only' } };
    }
    try {
      return { ok: true, value: await invokeCommand(station.handlers, typeof name === 'string' ? name : '', input) };
    } catch (e) {
      return { ok: false, error: toShape(e) };
    }
  });

  const unsubscribe = STATION_EVENT_NAMES.map((name) =>
    station.events.on(name, (payload) => {
      if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, name, payload);
    }),
  );

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('window-all-closed', () => app.quit());

  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    for (const off of unsubscribe) off();
    ipcMain.removeHandler(IPC_INVOKE);
    Promise.resolve(station.close())
      .catch((e: unknown) => console.error('[main] error while closing the station:', e))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
  started = true;
  if (quitWhenStarted) app.quit();
}

void start();
