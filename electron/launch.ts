/**
 * `npm start`: the station in Electron when its binary is installed, else the
 * headless host (prints the URL to open in a browser). Command-line options
 * pass through unchanged (`--data-dir`, `--printer`, `--platform-url`,
 * `--auth-url`, `--client-id`, `--client-secret`, `--port`).
 *
 * The Electron binary is detected from `node_modules/electron/path.txt` and
 * `node_modules/electron/dist/` (or ELECTRON_OVERRIDE_DIST_PATH) without
 * `require('electron')`, which would try to download it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');

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

/** Newest modification time (ms) of any file under `dir`, 0 when the folder is missing. */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

/** True when dist/renderer is missing or older than renderer/ or shared/. */
export function rendererIsStale(root: string = ROOT): boolean {
  const index = path.join(root, 'dist', 'renderer', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return Math.max(newest(path.join(root, 'renderer')), newest(path.join(root, 'shared'))) > built;
}

/** Runs a node script to completion in ROOT; exits the process when it fails. */
function runNode(args: string[], what: string): void {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`Shipping Station: ${what} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

function buildRenderer(): void {
  runNode([path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'build/vite.renderer.config.ts', '--logLevel', 'warn'], 'renderer build');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const bin = electronBinary();
  if (bin) {
    buildRenderer();
    runNode([path.join(ROOT, 'build', 'build-electron.mjs')], 'Electron bundle build');
    const child = spawn(bin, [ROOT, ...args], { cwd: ROOT, stdio: 'inherit' });
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    return;
  }
  console.log('Shipping Station: no Electron binary installed (ELECTRON_SKIP_BINARY_DOWNLOAD); starting the headless host — open the address below in a browser.');
  if (rendererIsStale()) buildRenderer();
  const { hostMain } = await import('./host/cli');
  await hostMain(args, process.env);
}

// Run only as the entry point (test/electron imports electronBinary from here).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
