/**
 * Cold start of `npm start` (issue 15 "Precompiled runtime"): wall time from
 * spawning `node build/start.mjs` (what the npm script execs) with a fresh
 * data folder to its "Shipping Station ready … open <url>" line, headless
 * host in training mode. Median of RUNS. The floor is `node -e 0` measured in
 * the same run, median of RUNS: what no launcher can go below on this machine.
 * The bundles are brought up to date first, so a source edit is not counted.
 * Prints `{"bench":"cold-start","readyMs":…,"nodeFloorMs":…}` and a line for people.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);

/** One start: ms to the ready line; the station is then stopped with SIGTERM and awaited. */
async function oneStart(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-cold-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('STATION_')) delete env[k];
  try {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['build/start.mjs', '--data-dir', dataDir, '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let out = '';
    const ms = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line within 60 s:\n${out}`)), 60_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (/^Shipping Station ready .*open http/m.test(out)) {
          clearTimeout(timer);
          resolve(performance.now() - t0);
        }
      });
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      void exited.then(() => reject(new Error(`station exited before ready:\n${out}`)));
    });
    child.kill('SIGTERM');
    await exited;
    return ms;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function nodeFloor(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return performance.now() - t0;
}

/** Runs the cold-start bench and prints its two lines. */
export async function benchColdStart(): Promise<void> {
  const built = spawnSync(process.execPath, ['build/bundle.mjs', '--if-stale', 'launcher', 'renderer'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bundle build failed');
  const floors: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(nodeFloor());
    ready.push(await oneStart());
  }
  const readyMs = Math.round(median(ready));
  const nodeFloorMs = Math.round(median(floors));
  console.log(JSON.stringify({ bench: 'cold-start', readyMs, nodeFloorMs }));
  console.log(
    `cold start (node build/start.mjs, fresh data folder, training mode, ${RUNS} runs): ready line after ${readyMs} ms median ` +
      `(runs ${ready.map((x) => Math.round(x)).join(', ')} ms); node -e 0 floor ${nodeFloorMs} ms; target ≤ 500 ms`,
  );
}
