/**
 * `npm start` (through build/start.mjs, which runs this file's bundle
 * dist/host/launch.mjs): the station in Electron when its binary is
 * installed, else the headless host in this same process (prints the URL to
 * open in a browser). Command-line options pass through unchanged
 * (`--data-dir`, `--printer`, `--platform-url`, `--auth-url`, `--client-id`,
 * `--port`; the client secret comes from the environment or the settings
 * screen, never the command line).
 *
 * The Electron binary is detected from `node_modules/electron/path.txt` and
 * `node_modules/electron/dist/` (or ELECTRON_OVERRIDE_DIST_PATH) without
 * `require('electron')`, which would try to download it.
 *
 * Process hygiene: SIGINT/SIGTERM/SIGHUP to this process reach the Electron child;
 * when this process is orphaned (npm got the signal and its `sh -c` died
 * without passing it on) it stops as if signalled (see `watchParent`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleName, isEntryPoint, watchParent } from './entry';

/** Repository (or unpacked app) root: electron/ in sources, dist/host/ in the bundle. */
const ROOT = bundleName() === null ? path.resolve(import.meta.dirname, '..') : path.resolve(import.meta.dirname, '..', '..');

/** Absolute path of the installed Electron executable, or null when none is installed. */
export function electronBinary(root: string = ROOT, env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathTxt = path.join(pkg, 'path.txt');
  if (!existsSync(pathTxt)) return null;
  const rel = readFileSync(pathTxt, 'utf8').trim();
  if (rel === '') return null;
  const dist = env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(pkg, 'dist');
  const bin = path.join(dist, rel);
  return existsSync(bin) ? bin : null;
}

/** The build helper (build/bundle.mjs, plain JavaScript outside the bundles). */
interface Bundler {
  ensureFresh(names: string[]): Promise<string[]>;
}

/**
 * glibc malloc settings the station runs with unless the environment sets
 * them (as build/run.sh exports them): two arenas, and blocks from 128 KiB
 * always mapped on their own, given back when freed (glibc would raise that
 * threshold as large blocks are freed, and keep them). Soak bench, 2,000
 * shipments: with glibc's defaults RSS grew ≈ 110 MB over the first 900
 * shipments (then held); with these it holds at ≈ 280 MB from the 500th
 * (trend ≈ 1 KB per shipment). A 16 KiB threshold held it ≈ 30 MB lower
 * but doubled a CSV import's time. Read by glibc at process start, so they
 * are given to the Electron child here.
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

/** Runs Electron on the built main bundle; resolves never (exits with Electron). */
async function runElectron(bin: string, args: readonly string[]): Promise<void> {
  const bundler = (await import(pathToFileURL(path.join(ROOT, 'build', 'bundle.mjs')).href)) as Bundler;
  await bundler.ensureFresh(['main', 'preload', 'renderer']);
  const child = spawn(bin, [ROOT, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...MALLOC_ENV, ...process.env } });
  // Every stop signal goes on to Electron, for as long as it runs (its main counts presses,
  // electron/shell/signals.ts); this process ends with it, never before.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig));
  watchParent(() => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * Starts the station: Electron when installed, else the headless host.
 * The renderer must already be built (build/start.mjs checks it).
 */
export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const bin = electronBinary();
  if (bin) return runElectron(bin, args);
  console.log('Shipping Station: no Electron binary installed (ELECTRON_SKIP_BINARY_DOWNLOAD); starting the headless host — open the address below in a browser.');
  if (bundleName() === null) {
    // From sources nobody checked the renderer yet (build/start.mjs does it for the bundle).
    const bundler = (await import(pathToFileURL(path.join(ROOT, 'build', 'bundle.mjs')).href)) as Bundler;
    await bundler.ensureFresh(['renderer']);
  }
  const { hostMain } = await import('./host/cli');
  await hostMain(args, process.env, { rendererDir: path.join(ROOT, 'dist', 'renderer') });
}

// From sources only (`node --import tsx electron/launch.ts`); the bundle is started by build/start.mjs.
if (isEntryPoint(import.meta.url)) void main();
