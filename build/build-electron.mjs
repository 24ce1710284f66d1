// Bundles the Electron shell with esbuild (DESIGN.md "The pieces"):
//   electron/main/index.ts    -> dist/electron/main.cjs    (Node side: the core, SQLite, printers)
//   electron/preload/index.ts -> dist/electron/preload.cjs (sandboxed preload: may require only 'electron')
// `electron` is provided by the runtime; better-sqlite3 is a native addon
// loaded from node_modules (rebuilt for Electron's ABI by electron-builder).
// Usage: node build/build-electron.mjs [--watch]
import { build, context } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'electron');
const watch = process.argv.includes('--watch');

/** Modules left to `require` at run time. zpl-renderer-js loads its WASM next to itself. */
const NODE_EXTERNALS = ['electron', 'better-sqlite3', 'zpl-renderer-js', 'usb'];

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  sourcemap: true,
  logLevel: 'info',
  legalComments: 'none',
};

const targets = [
  {
    ...common,
    entryPoints: ['electron/main/index.ts'],
    outfile: path.join(outdir, 'main.cjs'),
    platform: 'node',
    target: 'node22',
    external: NODE_EXTERNALS,
    // ESM sources may read import.meta.url / import.meta.dirname; in the CJS bundle they mean this file.
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  },
  {
    ...common,
    entryPoints: ['electron/preload/index.ts'],
    outfile: path.join(outdir, 'preload.cjs'),
    // Sandboxed preloads get a browser-like environment plus require('electron').
    platform: 'browser',
    target: 'chrome130',
    external: ['electron'],
  },
];

if (watch) {
  for (const t of targets) await (await context(t)).watch();
  console.log('build-electron: watching');
} else {
  await Promise.all(targets.map((t) => build(t)));
}
