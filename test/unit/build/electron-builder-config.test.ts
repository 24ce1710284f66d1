/**
 * The packaging configuration (build/electron-builder.yml), checked as far as
 * a machine without the Electron binary allows: electron-builder's own loader
 * and schema validation (the same calls `electron-builder` makes before it
 * packages), then the rules issue 15 and issue 7 set for it. Packaging for
 * real (`electron-builder --dir`) needs the binary: see the issue-15 note.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import { minimatch } from 'minimatch';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const CONFIG = path.join(ROOT, 'build', 'electron-builder.yml');

type Config = Awaited<ReturnType<typeof getConfig>>;
let config: Config;

/** The `files` patterns as strings (getConfig folds the list into one FileSet's `filter`). */
function filePatterns(): string[] {
  const out: string[] = [];
  for (const f of Array.isArray(config.files) ? config.files : [config.files]) {
    if (typeof f === 'string') out.push(f);
    else if (f && typeof f === 'object') {
      if (f.from !== undefined || f.to !== undefined) throw new Error('files: a FileSet with from/to is not expected here');
      const filter = f.filter;
      out.push(...(Array.isArray(filter) ? filter : filter ? [filter] : []));
    }
  }
  return out;
}

/**
 * Whether the files patterns keep `file` (relative path), electron-builder's
 * way: patterns in order, a later match wins, `!` excludes. `${platform}` and
 * `${arch}` are expanded for linux x64.
 */
function kept(file: string): boolean {
  let keep = false;
  for (const raw of filePatterns()) {
    const p = raw.replaceAll('${platform}', 'linux').replaceAll('${arch}', 'x64');
    const neg = p.startsWith('!');
    if (minimatch(file, neg ? p.slice(1) : p, { dot: true })) keep = !neg;
  }
  return keep;
}

beforeAll(async () => {
  config = await getConfig(ROOT, CONFIG, null);
}, 60_000);

describe('build/electron-builder.yml', () => {
  it("passes electron-builder's schema validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  }, 60_000);

  it('a config with a misspelt option is refused by the same validation (the check can fail)', async () => {
    await expect(validateConfiguration({ ...config, electronFuse: {} } as unknown as Config, new DebugLogger(false))).rejects.toThrow(/electronFuse/);
  });

  it('targets AppImage + deb, NSIS and dmg', () => {
    const names = (t: unknown) => (Array.isArray(t) ? t : [t]).map((x: unknown) => (typeof x === 'string' ? x : (x as { target: string }).target));
    expect(names(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(names(config.win?.target)).toEqual(['nsis']);
    expect(names(config.mac?.target)).toEqual(['dmg']);
  });

  it('sets the Electron fuses (issue 7 item 12)', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('ships the bundles and the run-time externals only, not the production node_modules', async () => {
    const { PACKAGED_EXTERNALS } = (await import(path.join(ROOT, 'build', 'bundle.mjs'))) as { PACKAGED_EXTERNALS: string[] };
    expect(kept('dist/electron/main.cjs')).toBe(true);
    expect(kept('dist/electron/preload.cjs')).toBe(true);
    // The worker threads' entries (build/bundle.mjs WORKER_ENTRIES), started from files beside main.cjs.
    const { WORKER_ENTRIES } = (await import(path.join(ROOT, 'build', 'bundle.mjs'))) as { WORKER_ENTRIES: Record<string, string> };
    for (const name of Object.keys(WORKER_ENTRIES)) expect(kept(`dist/electron/${name}.cjs`), name).toBe(true);
    expect(kept('dist/electron/main.cjs.map')).toBe(false);
    expect(kept('dist/renderer/index.html')).toBe(true);
    expect(kept('dist/host/launch.mjs')).toBe(false); // the headless launcher is not part of the desktop app
    expect(kept('electron/core/station.ts')).toBe(false);
    for (const bundled of ['fastify', 'zod', 'react', 'pdf-lib', 'bwip-js', 'tsx', 'esbuild', 'electron-updater']) {
      expect(kept(`node_modules/${bundled}/package.json`), bundled).toBe(false);
    }
    expect(kept('node_modules/better-sqlite3/lib/index.js')).toBe(true);
    expect(kept('node_modules/better-sqlite3/prebuilds/linux-x64.node')).toBe(true);
    expect(kept('node_modules/better-sqlite3/prebuilds/win32-x64.node')).toBe(false); // another system's binary
    expect(kept('node_modules/better-sqlite3/deps/sqlite3/sqlite3.c')).toBe(false);
    expect(kept('node_modules/zpl-renderer-js/dist/index.cjs.js')).toBe(true);
    // Every external that is installed has its package.json in the files (usb, node-hid, serialport when they arrive).
    for (const name of PACKAGED_EXTERNALS) {
      if (fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json'))) expect(kept(`node_modules/${name}/package.json`), name).toBe(true);
    }
    // The zpl-renderer-js entry the preview worker resolves is the file shipped.
    const zpl = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'zpl-renderer-js', 'package.json'), 'utf8')) as { main: string };
    expect(kept(path.posix.join('node_modules/zpl-renderer-js', zpl.main))).toBe(true);
  });

  it('does not rebuild native modules: better-sqlite3 is N-API with prebuilds for every target', () => {
    expect(config.npmRebuild).toBe(false);
    for (const target of ['linux-x64', 'win32-x64', 'darwin-x64', 'darwin-arm64']) {
      expect(fs.existsSync(path.join(ROOT, 'node_modules', 'better-sqlite3', 'prebuilds', `${target}.node`)), target).toBe(true);
    }
    const unpack = Array.isArray(config.asarUnpack) ? config.asarUnpack : [config.asarUnpack];
    expect(unpack).toContain('node_modules/better-sqlite3/**/*');
  });

  it('the deb installs the udev rule and reloads udev; the after-install script exists', () => {
    const deb = config.deb as { fpm?: string[]; afterInstall?: string };
    expect(deb.fpm).toContain('build/udev/60-shipping-station-printers.rules=/usr/lib/udev/rules.d/60-shipping-station-printers.rules');
    const after = fs.readFileSync(path.join(ROOT, deb.afterInstall ?? 'missing'), 'utf8');
    expect(after).toMatch(/udevadm control --reload-rules/);
    expect(after).toMatch(/chrome-sandbox/); // electron-builder's own after-install steps are kept
  });

  it('auto-updates from a feed configured by STATION_UPDATE_URL; signing secrets only from the environment', () => {
    expect(config.publish).toMatchObject({ provider: 'generic', url: '${env.STATION_UPDATE_URL}' });
    const text = fs.readFileSync(CONFIG, 'utf8');
    expect(text).not.toMatch(/^\s*(cscLink|cscKeyPassword|certificatePassword|certificateFile|appleId|appleIdPassword)\s*:/m);
  });

  it('ships the third-party notices generated at build time', () => {
    const extra = config.extraResources as Array<{ from: string; to: string }>;
    expect(extra).toContainEqual({ from: 'dist/THIRD_PARTY_NOTICES.txt', to: 'THIRD_PARTY_NOTICES.txt' });
  });
});
