/**
 * Electron main without the Electron binary: `electron` is replaced by a
 * recording stub, the real station core runs (training sandbox, temp data
 * folder). Checks the security wiring the smoke tests check in a real window:
 * sender-frame check before any command, input parsed by the contract, errors
 * as data, events pushed on one channel, window preferences, navigation and
 * window.open denied, the app scheme confined to dist/renderer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;

const stub = vi.hoisted(() => {
  const appHandlers = new Map<string, Handler[]>();
  const state = {
    ipc: new Map<string, Handler>(),
    protocolHandler: null as null | ((req: Request) => Promise<Response>),
    windows: [] as Array<{ options: { webPreferences: Record<string, unknown> }; url: string | null; sent: unknown[][]; webContents: { mainFrame: { url: string }; send: (...a: unknown[]) => void } }>,
    fetched: [] as string[],
    permissionHandlers: new Map<string, Handler>(),
    quitCalls: 0,
    appHandlers,
    emitApp(name: string, ...args: unknown[]) {
      for (const h of appHandlers.get(name) ?? []) h(...args);
    },
  };
  class BrowserWindow {
    options: { webPreferences: Record<string, unknown> };
    url: string | null = null;
    sent: unknown[][] = [];
    webContents = { mainFrame: { url: '' }, send: (...a: unknown[]) => this.sent.push(a) };
    constructor(options: { webPreferences: Record<string, unknown> }) {
      this.options = options;
      state.windows.push(this);
    }
    loadURL(url: string) {
      this.url = url;
      this.webContents.mainFrame.url = url;
      return Promise.resolve();
    }
    once() {}
    on() {}
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
  }
  const electron = {
    app: {
      isPackaged: false,
      paths: new Map<string, string>(),
      setPath(name: string, value: string) {
        this.paths.set(name, value);
      },
      requestSingleInstanceLock: () => true,
      whenReady: () => Promise.resolve(),
      on: (name: string, h: Handler) => appHandlers.set(name, [...(appHandlers.get(name) ?? []), h]),
      quit: () => {
        state.quitCalls++;
      },
      exit: (code: number) => {
        throw new Error(`app.exit(${code})`);
      },
    },
    protocol: {
      registerSchemesAsPrivileged: () => undefined,
      handle: (_scheme: string, h: (req: Request) => Promise<Response>) => {
        state.protocolHandler = h;
      },
    },
    net: {
      fetch: async (url: string) => {
        state.fetched.push(url);
        return new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } });
      },
    },
    ipcMain: {
      handle: (channel: string, h: Handler) => state.ipc.set(channel, h),
      removeHandler: (channel: string) => state.ipc.delete(channel),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Handler) => state.permissionHandlers.set('request', h),
        setPermissionCheckHandler: (h: Handler) => state.permissionHandlers.set('check', h),
        setDevicePermissionHandler: (h: Handler) => state.permissionHandlers.set('device', h),
        on: (name: string, h: Handler) => state.permissionHandlers.set(name, h),
      },
    },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: (t: string) => Buffer.from(t), decryptString: (b: Buffer) => b.toString() },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => undefined },
    dialog: {
      showErrorBox: (title: string, msg: string) => {
        throw new Error(`${title}: ${msg}`);
      },
    },
    BrowserWindow,
  };
  return { state, electron };
});

vi.mock('electron', () => ({ ...stub.electron, default: stub.electron }));

const { state } = stub;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-main-'));
  vi.stubEnv('STATION_DATA_DIR', dataDir);
  vi.stubEnv('STATION_PRINTER', `file://${path.join(dataDir, 'labels')}`);
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  await import('../../../electron/main/index');
  await vi.waitFor(() => expect(state.ipc.has('station:invoke')).toBe(true), { timeout: 20_000 });
}, 30_000);

afterAll(async () => {
  // before-quit closes the station, then quits.
  const event = { prevented: false, preventDefault() { this.prevented = true; } };
  state.emitApp('before-quit', event);
  expect(event.prevented).toBe(true);
  await vi.waitFor(() => expect(state.quitCalls).toBe(1), { timeout: 10_000 });
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

const invoke = (frame: unknown, name: unknown, input: unknown) => state.ipc.get('station:invoke')!({ senderFrame: frame }, name, input) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;

describe('electron main', () => {
  it('keeps Chromium data and the single-instance lock in the station data folder', () => {
    expect(stub.electron.app.paths.get('userData')).toBe(path.join(dataDir, 'electron'));
  });

  it('opens one sandboxed, isolated window on the app scheme', () => {
    expect(state.windows).toHaveLength(1);
    const win = state.windows[0]!;
    expect(win.url).toBe('station://app/index.html');
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(String(win.options.webPreferences.preload)).toMatch(/preload\.cjs$/);
  });

  it('answers commands from its own main frame, as data', async () => {
    const frame = state.windows[0]!.webContents.mainFrame;
    const res = await invoke(frame, 'app.info', {});
    expect(res.ok).toBe(true);
    expect((res.value as { platform: { mode: string } }).platform.mode).toBe('sandbox');
  });

  it('refuses other frames and a missing frame before running anything', async () => {
    const foreign = await invoke({ url: 'station://app/index.html' }, 'app.info', {});
    expect(foreign).toEqual({ ok: false, error: { code: 'forbidden', message: 'Commands are accepted from the station window only' } });
    expect((await invoke(null, 'app.info', {})).error?.code).toBe('forbidden');
    const frame = state.windows[0]!.webContents.mainFrame;
    const saved = frame.url;
    frame.url = 'https://evil.example/';
    try {
      expect((await invoke(frame, 'app.info', {})).error?.code).toBe('forbidden');
    } finally {
      frame.url = saved;
    }
  });

  it('parses input with the contract schema and names unknown commands', async () => {
    const frame = state.windows[0]!.webContents.mainFrame;
    const bad = await invoke(frame, 'scan.resolve', { code: '' });
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatchObject({ code: 'invalid_input', details: { code: ['Scan or type a code'] } });
    expect((await invoke(frame, 'nope.nothing', {})).error?.code).toBe('unknown_command');
    expect((await invoke(frame, { toString: () => 'app.info' }, {})).error?.code).toBe('unknown_command');
  });

  it('pushes station events on the one event channel', async () => {
    const win = state.windows[0]!;
    const before = win.sent.length;
    const res = await invoke(win.webContents.mainFrame, 'printers.set', { uri: `file://${path.join(dataDir, 'labels2')}` });
    expect(res.ok).toBe(true);
    await vi.waitFor(() => expect(win.sent.slice(before).some((m) => m[0] === 'station:event' && m[1] === 'app.changed')).toBe(true));
  });

  it('blocks navigation, redirects, webviews and new windows in every web contents', () => {
    const listeners = new Map<string, (e: { preventDefault(): void }) => void>();
    let openHandler: (() => unknown) | null = null;
    const contents = {
      on: (name: string, l: (e: { preventDefault(): void }) => void) => listeners.set(name, l),
      setWindowOpenHandler: (h: () => unknown) => {
        openHandler = h;
      },
    };
    state.emitApp('web-contents-created', {}, contents);
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      let prevented = false;
      listeners.get(name)!({ preventDefault: () => (prevented = true) });
      expect(prevented, name).toBe(true);
    }
    expect(openHandler!()).toEqual({ action: 'deny' });
  });

  it('serves only files inside dist/renderer on the app scheme, with the CSP', async () => {
    const h = state.protocolHandler!;
    const ok = await h(new Request('station://app/index.html'));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain("default-src 'self'");
    // dist/renderer next to the bundle (dist/electron); from sources, renderer/ next to electron/main.
    expect(state.fetched.at(-1)).toMatch(/^file:\/\/.*\/renderer\/index\.html$/);
    // Encoded slashes survive URL normalisation and decode to ../../package.json: refused.
    expect((await h(new Request('station://app/%2F..%2F..%2Fpackage.json'))).status).toBe(404);
    expect((await h(new Request('station://app/..%2F..%2F..%2Fetc%2Fpasswd'))).status).toBe(404);
    expect((await h(new Request('station://other/index.html'))).status).toBe(404);
    // A malformed escape is a 400 answer, not a rejected promise.
    expect((await h(new Request('station://app/%E0%A4%A'))).status).toBe(400);
  });

  it('denies every permission request and check, every device, and cancels device pickers', () => {
    const p = state.permissionHandlers;
    let granted: boolean | null = null;
    p.get('request')!({}, 'media', (g: boolean) => (granted = g), {});
    expect(granted).toBe(false);
    expect(p.get('check')!({}, 'clipboard-read', 'station://app', {})).toBe(false);
    expect(p.get('device')!({ deviceType: 'usb', origin: 'station://app' })).toBe(false);
    for (const picker of ['select-usb-device', 'select-hid-device', 'select-serial-port']) {
      let prevented = false;
      let chosen: unknown = 'not called';
      p.get(picker)!({ preventDefault: () => (prevented = true) }, { deviceList: [{ deviceId: '1' }] }, (id?: string) => (chosen = id));
      expect([picker, prevented, chosen]).toEqual([picker, true, undefined]);
    }
  });
});
