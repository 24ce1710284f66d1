/**
 * Issue 21 item 8, "One Ctrl+C closes cleanly": `npm start` in a terminal
 * gets Ctrl+C as SIGINT to its whole process group, so the station receives
 * it twice (from the group, and forwarded by npm). The station must finish
 * its close: exit 0, the SQLite WAL merged into the database (no `-wal` file,
 * or an empty one) and the lock's holder note removed. Also twice in a row
 * (the duplicate of a press is not a second press), and SIGTERM and SIGHUP
 * to the group. (The press counting itself, a deliberate third forcing the
 * end, is tested in test/unit/shell/signals.test.ts.)
 *
 * Deterministic: each step waits on an output line (ready, closing), with
 * generous time limits; nothing waits on a sleep.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../../electron/core/station';
import { tempDir } from '../core/helpers';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const LOCK_NOTE = 'station.lock.json';

interface Run {
  child: ChildProcess;
  output(): string;
  /** Resolves when `re` matches the output so far (stdout and stderr), rejects after `ms`. */
  waitFor(re: RegExp, ms?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * `npm start` (or, `via: 'node'`, what it runs: `node build/start.mjs`) in its own process group, as a
 * terminal runs it, training mode on `dataDir`.
 */
function start(dataDir: string, via: 'npm' | 'node'): Run {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('STATION_')) delete env[k];
  const args = ['--data-dir', dataDir, '--port', '0'];
  const [cmd, argv] = via === 'npm' ? ['npm', ['start', '--silent', '--', ...args]] : [process.execPath, ['build/start.mjs', ...args]];
  const child = spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const waiters = new Set<() => void>();
  const add = (c: Buffer) => {
    out += c.toString('utf8');
    for (const w of [...waiters]) w();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  cleanups.push(() => {
    // Whatever is left of the group (a failed test): gone.
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  const waitFor = (re: RegExp, ms = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (re.test(out)) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${re} within ${ms} ms:\n${out}`));
      }, ms);
      waiters.add(check);
      void exited.then(() => {
        if (waiters.has(check)) {
          waiters.delete(check);
          clearTimeout(timer);
          if (re.test(out)) resolve();
          else reject(new Error(`npm start ended before ${re}:\n${out}`));
        }
      });
      check();
    });
  return { child, output: () => out, waitFor, exited };
}

/** The group is gone: no process of it is left (kill 0 probes). */
function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

function expectClosedCleanly(dir: string): void {
  const wal = `${databaseFile(dir, 'sandbox')}-wal`;
  if (fs.existsSync(wal)) expect(fs.statSync(wal).size, 'WAL left unmerged').toBe(0);
  expect(fs.existsSync(path.join(dir, LOCK_NOTE)), 'lock note left behind').toBe(false);
  expect(fs.existsSync(databaseFile(dir, 'sandbox'))).toBe(true);
}

async function stopWith(signals: NodeJS.Signals[], via: 'npm' | 'node' = 'npm'): Promise<{ dir: string; run: Run; exit: { code: number | null; signal: NodeJS.Signals | null } }> {
  const tmp = tempDir('station-ctrlc-');
  cleanups.push(tmp.cleanup);
  const run = start(tmp.dir, via);
  await run.waitFor(/^Shipping Station ready .*$/m);
  // Running: the database is open in WAL mode (its -wal file is there) and the lock note is there.
  expect(fs.existsSync(`${databaseFile(tmp.dir, 'sandbox')}-wal`)).toBe(true);
  expect(fs.existsSync(path.join(tmp.dir, LOCK_NOTE))).toBe(true);
  for (const s of signals) process.kill(-run.child.pid!, s);
  const exit = await run.exited;
  // npm ends when the station does; wait for the rest of the group too (kill 0 probes, every 50 ms, 20 s at most).
  const until = Date.now() + 20_000;
  while (!groupGone(run.child.pid!) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(groupGone(run.child.pid!), `group left:\n${run.output()}`).toBe(true);
  return { dir: tmp.dir, run, exit };
}

describe('npm start: stop signals to the whole process group close the station cleanly', () => {
  it('one Ctrl+C (SIGINT to the group, so twice to the station): exit 0, WAL merged, lock note gone', async () => {
    const { dir, run, exit } = await stopWith(['SIGINT']);
    expect(exit, run.output()).toEqual({ code: 0, signal: null });
    expect(run.output()).toMatch(/Shipping Station: SIGINT, closing…/);
    expectClosedCleanly(dir);
  }, 120_000);

  it('two SIGINT in a row to the group: still one clean close', async () => {
    const { dir, run, exit } = await stopWith(['SIGINT', 'SIGINT']);
    expect(exit, run.output()).toEqual({ code: 0, signal: null });
    expectClosedCleanly(dir);
  }, 120_000);

  it('SIGTERM to the group closes cleanly too', async () => {
    const { dir, run, exit } = await stopWith(['SIGTERM']);
    expect(exit, run.output()).toEqual({ code: 0, signal: null });
    expectClosedCleanly(dir);
  }, 120_000);

  // npm itself dies of SIGHUP (it forwards only SIGINT and SIGTERM): the station, run as npm runs it, must not.
  it('SIGHUP (the terminal closing) to node build/start.mjs and its group: exit 0, closed cleanly', async () => {
    const { dir, run, exit } = await stopWith(['SIGHUP'], 'node');
    expect(exit, run.output()).toEqual({ code: 0, signal: null });
    expect(run.output()).toMatch(/Shipping Station: SIGHUP, closing…/);
    expectClosedCleanly(dir);
  }, 120_000);

  it('node build/start.mjs: two SIGINT in a row to its group, one clean close', async () => {
    const { dir, run, exit } = await stopWith(['SIGINT', 'SIGINT'], 'node');
    expect(exit, run.output()).toEqual({ code: 0, signal: null });
    expectClosedCleanly(dir);
  }, 120_000);
});
