// Builds the station's JavaScript ahead of time (issue 15 "Precompiled runtime"),
// so that `npm start` runs plain JavaScript instead of compiling TypeScript at
// every launch:
//
//   launcher  electron/launch.ts         -> dist/host/launch.mjs   (`npm start`: headless host or Electron launcher)
//   main      electron/main/index.ts     -> dist/electron/main.cjs (Electron main: the core, SQLite, printers)
//   workers   WORKER_ENTRIES             -> dist/host/<name>.mjs and dist/electron/<name>.cjs (worker threads)
//   preload   electron/preload/index.ts  -> dist/electron/preload.cjs (sandboxed preload: may require only 'electron')
//   renderer  renderer/ (Vite)           -> dist/renderer/
//
// Each build records its inputs (esbuild's metafile; for Vite the renderer/
// and shared/ folders) in dist/.build/<name>.json; `ensureFresh` rebuilds a
// target only when an input, this file, the lockfile or the output changed.
//
// In a bundle no module may decide "I am the entry point" from
// import.meta.url: every module of the bundle shares the bundle's URL, so
// launch.ts and host/cli.ts would both start a station. The bundles define
// __STATION_BUNDLE__ (see electron/entry.ts) and their entry is called
// explicitly (build/start.mjs, electron/main).
//
// Usage: node build/bundle.mjs [--watch] [--if-stale] [launcher|main|preload|renderer|electron|all ...]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMPS = path.join(ROOT, 'dist', '.build');

/**
 * Packages left to `require` at run time: native addons (better-sqlite3, and
 * `usb`, `node-hid`, `serialport` when their drivers arrive) and
 * zpl-renderer-js, which loads its WASM from its own folder, and
 * @napi-rs/canvas (Skia, an N-API addon: the day report's charts). Everything
 * else is inside the bundles: the Electron package ships these and nothing
 * else (build/electron-builder.yml `files`).
 */
export const PACKAGED_EXTERNALS = ['better-sqlite3', 'zpl-renderer-js', 'usb', '@hyzyla/pdfium', 'node-hid', 'serialport', '@napi-rs/canvas'];

/** PACKAGED_EXTERNALS plus the OS keyring binding, which only the headless host uses (Electron has safeStorage). */
export const RUNTIME_EXTERNALS = [...PACKAGED_EXTERNALS, '@napi-rs/keyring'];

/**
 * Worker threads started from a file (name -> source): an entry of the
 * launcher and of the Electron main bundle each, written next to that
 * bundle's entry with its extension (electron/core/orders/csv-thread.ts
 * finds it there).
 */
export const WORKER_ENTRIES = { 'csv-worker': 'electron/core/orders/csv-worker.ts' };

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Licences go to THIRD_PARTY_NOTICES (build/notices.mjs), not into the bundles.
  legalComments: 'none',
  metafile: true,
  // Less to read and parse at every launch (≈20 % of the launcher's load time); identifiers are kept so
  // stack traces in the station's log stay readable without the source map.
  minifyWhitespace: true,
  minifySyntax: true,
};

/**
 * esbuild plugin: `import … from 'node:http'` (and https) becomes a CommonJS require of the
 * built-in. Node 22's ESM facade of `node:http` reads every export, and its WebSocket /
 * MessageEvent getters load undici (≈30 ms at every launch); `require` reads none of them.
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?https?$/ }, (args) => (args.kind === 'import-statement' ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin-require' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({ contents: `module.exports = require('node:${args.path}');`, loader: 'js' }));
  },
};

/** esbuild options per JavaScript target. */
export const ESBUILD_TARGETS = {
  launcher: {
    ...common,
    entryPoints: { launch: 'electron/launch.ts', ...WORKER_ENTRIES },
    // Code splitting: what the station loads with `await import()` (the sandbox's PDF and barcode
    // renderers, pdf-lib, bwip-js) goes to chunks/ and is read only when first used, so a launch
    // reads, decodes and evaluates ≈2 MB less before its ready line.
    outdir: path.join(ROOT, 'dist', 'host'),
    splitting: true,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    target: 'node22',
    format: 'esm',
    external: RUNTIME_EXTERNALS,
    define: { __STATION_BUNDLE__: '"launcher"' },
    plugins: [builtinsByRequire],
    // CommonJS dependencies (fastify, better-sqlite3's loader) call require().
    banner: { js: "import { createRequire as __stationCreateRequire } from 'node:module'; const require = __stationCreateRequire(import.meta.url);" },
  },
  main: {
    ...common,
    // One CommonJS file per entry (no code splitting in CommonJS): main.cjs and the workers.
    entryPoints: { main: 'electron/main/index.ts', ...WORKER_ENTRIES },
    outdir: path.join(ROOT, 'dist', 'electron'),
    entryNames: '[name]',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['electron', ...RUNTIME_EXTERNALS],
    // ESM sources may read import.meta.url / import.meta.dirname; in the CJS bundle they mean this file.
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { __STATION_BUNDLE__: '"main"', 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  },
  preload: {
    ...common,
    entryPoints: ['electron/preload/index.ts'],
    outfile: path.join(ROOT, 'dist', 'electron', 'preload.cjs'),
    // Sandboxed preloads get a browser-like environment plus require('electron').
    platform: 'browser',
    target: 'chrome130',
    format: 'cjs',
    external: ['electron'],
    define: { __STATION_BUNDLE__: '"preload"' },
  },
};

const RENDERER_INPUT_DIRS = ['renderer', 'shared'];
const RENDERER_INDEX = path.join(ROOT, 'dist', 'renderer', 'index.html');
const ALL = ['launcher', 'main', 'preload', 'renderer'];

/**
 * Files whose change invalidates every target: the build definition and the installed packages
 * (npm rewrites node_modules/.package-lock.json at every install, so the ≈550 package files a
 * bundle reads need not be stat'ed one by one at each launch).
 */
const GLOBAL_INPUTS = ['build/bundle.mjs', 'package-lock.json', 'node_modules/.package-lock.json', 'build/vite.renderer.config.ts'];

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Infinity; // a missing input (deleted or renamed) means "rebuild"
  }
}

function walkNewest(dir) {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

function outputOf(name) {
  if (name === 'renderer') return RENDERER_INDEX;
  const t = ESBUILD_TARGETS[name];
  return t.outfile ?? path.join(t.outdir, `${Object.keys(t.entryPoints)[0]}${t.outExtension['.js']}`);
}

/**
 * True when target `name` must be rebuilt: no output or stamp, or an input
 * (file listed in its stamp, renderer/ and shared/ for the renderer, or a
 * GLOBAL_INPUTS file) modified after the build started.
 */
export function isStale(name) {
  const out = outputOf(name);
  const stampFile = path.join(STAMPS, `${name}.json`);
  if (!existsSync(out) || !existsSync(stampFile)) return true;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return true;
  }
  const builtAt = stamp.startedAt;
  if (typeof builtAt !== 'number' || !Array.isArray(stamp.inputs)) return true;
  for (const f of GLOBAL_INPUTS) if (mtime(path.join(ROOT, f)) > builtAt) return true;
  if (name === 'renderer') return RENDERER_INPUT_DIRS.some((d) => walkNewest(path.join(ROOT, d)) > builtAt);
  return stamp.inputs.some((f) => mtime(path.join(ROOT, f)) > builtAt);
}

function writeStamp(name, startedAt, inputs) {
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(path.join(STAMPS, `${name}.json`), JSON.stringify({ startedAt, inputs }));
}

/** Inputs of an esbuild result that are the station's own sources (packages are covered by GLOBAL_INPUTS). */
function inputsOf(metafile) {
  // Virtual modules (`<define:…>`, a plugin's `namespace:path`) are not files.
  return Object.keys(metafile.inputs).filter((f) => !f.startsWith('<') && !f.includes(':') && !path.isAbsolute(f) && !f.split('/').includes('node_modules'));
}

/** Builds one target now. @throws Error when the build fails (esbuild/Vite messages already printed). */
export async function buildTarget(name) {
  // Stamp time is taken before reading sources: an edit during the build makes the next start rebuild.
  const startedAt = Date.now();
  if (name === 'renderer') {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'build/vite.renderer.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`renderer build failed (exit ${r.status ?? r.signal})`);
    writeStamp(name, startedAt, []);
    return;
  }
  const { build } = await import('esbuild');
  const target = ESBUILD_TARGETS[name];
  // Chunk names carry a content hash: drop the previous build's so they do not pile up.
  if (target.splitting) rmSync(path.join(target.outdir, 'chunks'), { recursive: true, force: true });
  const result = await build(target);
  writeStamp(name, startedAt, inputsOf(result.metafile));
}

/** Rebuilds the named targets that are stale; returns the names rebuilt. */
export async function ensureFresh(names, log = (line) => process.stderr.write(`${line}\n`)) {
  const rebuilt = [];
  for (const name of names) {
    if (!isStale(name)) continue;
    log(`Shipping Station: building ${name} (sources changed)…`);
    await buildTarget(name);
    rebuilt.push(name);
  }
  return rebuilt;
}

/** Watch mode for development: esbuild contexts for the JavaScript targets, Vite's watcher for the renderer. */
async function watch(names) {
  const { context } = await import('esbuild');
  for (const name of names.filter((n) => n !== 'renderer')) {
    const ctx = await context({
      ...ESBUILD_TARGETS[name],
      plugins: [
        ...(ESBUILD_TARGETS[name].plugins ?? []),
        {
          name: 'stamp',
          setup(b) {
            let startedAt = Date.now();
            b.onStart(() => {
              startedAt = Date.now();
            });
            b.onEnd((r) => {
              if (r.errors.length === 0 && r.metafile) {
                writeStamp(name, startedAt, inputsOf(r.metafile));
                console.log(`bundle: ${name} rebuilt`);
              }
            });
          },
        },
      ],
    });
    await ctx.watch();
  }
  if (names.includes('renderer')) {
    const vite = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--watch', '--config', 'build/vite.renderer.config.ts'], { cwd: ROOT, stdio: 'inherit' });
    for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => vite.kill(sig));
  }
  console.log(`bundle: watching ${names.join(', ')}`);
}

function expand(args) {
  const out = new Set();
  for (const a of args.length ? args : ['all']) {
    if (a === 'all') ALL.forEach((n) => out.add(n));
    else if (a === 'electron') ['main', 'preload'].forEach((n) => out.add(n));
    else if (ALL.includes(a)) out.add(a);
    else throw new Error(`bundle: unknown target "${a}" (targets: ${ALL.join(', ')}, electron, all)`);
  }
  return [...out];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
  const names = expand(process.argv.slice(2).filter((a) => !a.startsWith('--')));
  if (flags.includes('--watch')) await watch(names);
  else if (flags.includes('--if-stale')) await ensureFresh(names, (l) => console.log(l));
  else for (const n of names) await buildTarget(n);
}
