/**
 * A bench child built the way the station ships (build/bundle.mjs: the
 * launcher's esbuild options, minified, the native addons left to `require`)
 * and run with plain Node: `npm start` and Electron run that bundle, never
 * the TypeScript sources, and compiling the sources at run time (tsx) adds
 * ≈ 90 MB of RSS and its own CPU time that no packer's station carries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** esbuild options of one target, as build/bundle.mjs exports them (plain JavaScript, read at run time). */
interface Bundler {
  ESBUILD_TARGETS: { launcher: Record<string, unknown> & { define: Record<string, string> } };
  WORKER_ENTRIES: Record<string, string>;
}

/**
 * Bundles the bench child `entry` (a path under test/bench/) with the
 * launcher's options into `.cache/bench/dist/<name>/<name>.mjs` (the worker
 * threads' entries, build/bundle.mjs `WORKER_ENTRIES`, beside it); returns that file.
 * @throws Error when esbuild fails (its messages are printed).
 */
export async function bundleBenchChild(entry: string): Promise<string> {
  const { ESBUILD_TARGETS, WORKER_ENTRIES } = (await import(pathToFileURL(path.join(ROOT, 'build', 'bundle.mjs')).href)) as Bundler;
  const { build } = await import('esbuild');
  const name = path.basename(entry).replace(/\.ts$/, '');
  const outdir = path.join(ROOT, '.cache', 'bench', 'dist', name);
  // Chunk names carry a content hash: the previous build's go first.
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    ...ESBUILD_TARGETS.launcher,
    // The worker threads' entries too, next to the child's, as in dist/host/.
    entryPoints: { [name]: path.join(ROOT, entry), ...WORKER_ENTRIES },
    outdir,
    metafile: false,
    define: { ...ESBUILD_TARGETS.launcher.define, __STATION_BUNDLE__: '"bench"' },
  });
  return path.join(outdir, `${name}.mjs`);
}
