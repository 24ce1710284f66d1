/**
 * A bench child built the way the station ships (build/bundle.mjs: the
 * launcher's esbuild options, minified, the native addons left to `require`)
 * and run with plain Node: `npm start` and Electron run that bundle, never
 * the TypeScript sources, and compiling the sources at run time (tsx) adds
 * ≈ 90 MB of RSS and its own CPU time that no packer's station carries.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MALLOC_ENV } from '../../electron/launch';

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

/** The environment of a bench child: this one's, with the launcher's malloc settings where it sets none (build/run.sh, electron/launch.ts `MALLOC_ENV`). */
export const BENCH_CHILD_ENV: Readonly<NodeJS.ProcessEnv> = { ...MALLOC_ENV, ...process.env };

/**
 * Runs the bundled child `script` with Node options `node` and arguments
 * `args` (environment {@link BENCH_CHILD_ENV}, stderr passed through) and
 * resolves with the last line it printed that starts with `{` (its JSON result).
 * @throws Error when the child exits non-zero or prints no such line (with the end of its output).
 */
export function runBenchChild(script: string, args: readonly string[], node: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...node, script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: BENCH_CHILD_ENV });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`${path.basename(script)} exited ${code}: ${out.slice(-2000)}`));
      else resolve(line);
    });
  });
}
