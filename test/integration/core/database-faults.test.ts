/**
 * Fault injection, issue 7 item 8: a healthy database that is only locked or
 * read-only must not be taken for a damaged one (training mode used to move
 * such files aside), a damaged one is kept in place with instructions, and a
 * second station on the same data folder is told one is already running.
 *
 * Each case asserts what the packer is told (the host CLI's one line, with
 * no stack), that the files are byte-for-byte where they were and that
 * nothing was moved aside as `*.broken-*`. Permission cases run the host CLI
 * in a child process as an unprivileged user (as `nobody` when the suite
 * runs as root, which file modes do not stop).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { recipientToParty } from '../../../shared/domain/order';
import { resolveConfig } from '../../../electron/core/config';
import { databaseFile, type Station } from '../../../electron/core/station';
import { invokerOf } from '../../support/commands';
import { startStation } from '../../../electron/shell/start';
import { trainingSandboxFile } from '../../../electron/training';
import { LOCK_FILE, StoreError, openStore } from '../../../electron/core/store';
import { startStationProcess, type StationProcess } from '../../e2e/station-process';
import { parcel, rejection, startSandbox, stationConfig } from './helpers';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const IS_ROOT = process.getuid?.() === 0;
/** The unprivileged user a root run drops to (Debian's `nobody`). */
const NOBODY = 65534;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A temporary folder the unprivileged user can reach: under os.tmpdir() when
 * every folder above it lets others pass (x bit), else under /tmp (a TMPDIR
 * inside a private home would hide the data folder from `nobody`).
 */
function reachableTempBase(): string {
  const base = os.tmpdir();
  if (!IS_ROOT) return base;
  for (let p = path.resolve(base); ; p = path.dirname(p)) {
    if ((fs.statSync(p).mode & 0o001) === 0) return '/tmp';
    if (path.dirname(p) === p) return base;
  }
}

function folder(): string {
  const dir = fs.mkdtempSync(path.join(reachableTempBase(), 'station-dbfault-'));
  // mkdtemp makes it 0700: the unprivileged child must at least pass through it.
  fs.chmodSync(dir, 0o711);
  const t = { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
  cleanups.push(() => {
    // A test may leave a folder read-only: give it back before removing it.
    chmodTree(t.dir, 0o755);
    t.cleanup();
  });
  return t.dir;
}

function chmodTree(dir: string, mode: number): void {
  if (!fs.existsSync(dir)) return;
  fs.chmodSync(dir, mode);
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isDirectory()) chmodTree(p, mode);
  }
}

/** sha256 of every file in `dir` (name -> hash) but the station's own lock files, to prove nothing changed or moved. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).sort()) {
    if (f.startsWith(LOCK_FILE)) continue;
    const p = path.join(dir, f);
    if (fs.statSync(p).isFile()) out[f] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

const brokenFiles = (dir: string) => fs.readdirSync(dir).filter((f) => f.includes('.broken-'));

/** A training data folder with a day in it (an order shipped: database and sandbox state), closed cleanly. */
async function trainingDay(): Promise<string> {
  const dir = folder();
  const station = await startStation(resolveConfig(['--data-dir', dir], {}));
  try {
    const invoke = invokerOf(() => station);
    const order = await invoke('orders.create', {
      recipient: { name: 'Anna Neri', street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' },
      items: [{ name: 'Tazza', quantity: 1 }],
    });
    await invoke('shipping.shipOrder', { orderId: order.id, request: { recipient: recipientToParty(order.recipient), packages: [parcel()] } });
  } finally {
    await station.close();
  }
  expect(fs.existsSync(trainingSandboxFile(dir))).toBe(true);
  return dir;
}

/** Runs the host CLI on `dir` (training mode) until it exits; `unprivileged`: as `nobody` when the suite is root. */
function runHostUntilExit(dir: string, unprivileged: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const asUser = unprivileged && IS_ROOT ? NOBODY : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('STATION_')) delete env[k];
  const hostArgs = ['--data-dir', dir, '--port', '0'];
  // As another user: started as root, the code loaded, then dropped (test/support/host-as-user.ts), so the
  // clone may lie where that user cannot enter; a spawn with `uid` could not even load tsx from there.
  const script =
    asUser !== undefined
      ? [path.join(ROOT, 'test', 'support', 'host-as-user.ts'), String(asUser), String(asUser), ...hostArgs]
      : [path.join(ROOT, 'electron', 'host', 'cli.ts'), ...hostArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...script], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      // A station that starts is a failed test: stop it rather than wait forever.
      if (stdout.includes('Shipping Station ready')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Hands a folder to the unprivileged user the child runs as (root runs only). */
function giveToChild(dir: string): void {
  if (!IS_ROOT) return;
  const own = (p: string) => {
    fs.chownSync(p, NOBODY, NOBODY);
    if (fs.statSync(p).isDirectory()) for (const f of fs.readdirSync(p)) own(path.join(p, f));
  };
  own(dir);
}

/** The host's start failure: exit 1, one line naming `code`'s situation, no stack. */
function expectCleanRefusal(run: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(run.stdout).not.toContain('Shipping Station ready');
  expect(run.code).toBe(1);
  // Diagnostics may come first (e.g. "data folder: made private"); the refusal is one line of its own.
  expect(run.stderr).toMatch(/^Shipping Station could not start: /m);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/SqliteError|EACCES:/);
}

describe('a read-only data folder or file is told apart from a damaged one (never moved aside)', () => {
  it('read-only training.sqlite: "may not write", file kept', async () => {
    const dir = await trainingDay();
    const db = databaseFile(dir, 'sandbox');
    giveToChild(dir);
    fs.chmodSync(db, 0o444);
    const before = snapshot(dir);
    const run = await runHostUntilExit(dir, true);
    expectCleanRefusal(run, /may not write its database .*training\.sqlite: the file .* is read-only for this user\. Give the user running the station write access/);
    expect(brokenFiles(dir)).toEqual([]);
    // SQLite may add its -shm/-wal beside the file; the database itself is byte-for-byte the same.
    expect(snapshot(dir)['training.sqlite']).toBe(before['training.sqlite']);
    expect(snapshot(dir)['training-sandbox.sqlite']).toBe(before['training-sandbox.sqlite']);
  }, 60_000);

  it('read-only data folder: "may not write its data folder", nothing changed', async () => {
    const dir = await trainingDay();
    giveToChild(dir);
    fs.chmodSync(dir, 0o555);
    const before = snapshot(dir);
    const run = await runHostUntilExit(dir, true);
    expectCleanRefusal(run, /may not write its data folder .*: the folder .* is read-only for this user/);
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('unreadable training sandbox state: named, not moved aside', async () => {
    const dir = await trainingDay();
    giveToChild(dir);
    fs.chmodSync(trainingSandboxFile(dir), 0o000);
    const before = snapshot(dir);
    const run = await runHostUntilExit(dir, true);
    expectCleanRefusal(run, /may not write the training sandbox's state .*training-sandbox\.sqlite: the file .* may not be read by this user/);
    expect(brokenFiles(dir)).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('a data folder that cannot be created: "may not create", no raw EACCES', async () => {
    const parent = folder();
    giveToChild(parent);
    fs.chmodSync(parent, 0o555);
    const run = await runHostUntilExit(path.join(parent, 'station'), true);
    expectCleanRefusal(run, /may not create its data folder .*station \(EACCES\)\. Create it for the user running the station/);
  }, 60_000);
});

describe('a database locked by another program', () => {
  it('training mode: "locked by another program", both files kept in place (used to be moved aside as broken)', async () => {
    const dir = await trainingDay();
    const before = snapshot(dir);
    // A database browser holding the file: exclusive lock after its first write.
    const other = new Database(databaseFile(dir, 'sandbox'));
    cleanups.push(() => other.close());
    other.pragma('locking_mode = EXCLUSIVE');
    other.exec('BEGIN EXCLUSIVE');
    const e = await rejection(startStation(resolveConfig(['--data-dir', dir], {})), StoreError);
    expect(e.code).toBe('locked');
    expect(e.message).toMatch(/^The database .*training\.sqlite is locked by another program \(still busy after 5 s\)\. Close the other program .* The file was not changed\.$/);
    other.exec('ROLLBACK');
    other.close();
    expect(brokenFiles(dir)).toEqual([]);
    expect(snapshot(dir)['training-sandbox.sqlite']).toBe(before['training-sandbox.sqlite']);
    // Once the other program lets go, the training day is still there.
    const station = await startStation(resolveConfig(['--data-dir', dir], {}));
    cleanups.push(() => station.close());
    const recent = await invokerOf(() => station)('shipments.recent', {});
    expect(recent).toHaveLength(1);
  }, 60_000);

  it('openStore: a held write lock is `locked` within the busy timeout, not not_a_database', () => {
    const dir = folder();
    const file = path.join(dir, 'station.sqlite');
    openStore(file).close();
    const other = new Database(file);
    cleanups.push(() => other.close());
    other.exec('BEGIN IMMEDIATE');
    const t0 = Date.now();
    let err: unknown;
    try {
      openStore(file, { busyTimeoutMs: 200 }).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('locked');
    expect(Date.now() - t0).toBeLessThan(3000);
    other.exec('ROLLBACK');
  });
});

/** Overwrites the middle of the last page of `file` (a table b-tree page of the orders) with a pattern SQLite's checks catch. */
function damage(file: string): void {
  const buf = fs.readFileSync(file);
  const pageSize = buf.readUInt16BE(16) === 1 ? 65536 : buf.readUInt16BE(16);
  const pages = buf.length / pageSize;
  for (let p = 2; p < pages; p++) {
    // Page headers: keep the type byte, break the cell count and pointers.
    const at = p * pageSize;
    buf.writeUInt16BE(0xffff, at + 3);
  }
  fs.writeFileSync(file, buf);
}

describe('a damaged database is kept in place, with what to do', () => {
  it('platform mode: quick_check refuses it; file unchanged; the message says keep a copy and how to recover', async () => {
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const dir = folder();
    const first = await startStation(stationConfig(sb, dir, `file://${dir}/labels`));
    await invokerOf(() => first)('orders.create', { orderNumber: 'K-1', recipient: { name: 'A B', street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' }, items: [] });
    await first.close();
    const db = databaseFile(dir, 'platform');
    damage(db);
    const before = snapshot(dir);
    const e = await rejection(startStation(stationConfig(sb, dir, `file://${dir}/labels`)), StoreError);
    expect(e.code).toBe('corrupt');
    expect(e.message).toMatch(/^The database .*station\.sqlite is damaged \(SQLite quick_check: .+\)\. It was left where it is, unchanged\. Stop the station and keep a copy of the file: it may hold shipments not yet sent\./);
    expect(e.message).toContain('.recover');
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('training mode too: kept in place (not moved aside), and a second start says the same', async () => {
    const dir = await trainingDay();
    damage(databaseFile(dir, 'sandbox'));
    const before = snapshot(dir);
    for (let i = 0; i < 2; i++) {
      const e = await rejection(startStation(resolveConfig(['--data-dir', dir], {})), StoreError);
      expect(e.code).toBe('corrupt');
    }
    expect(brokenFiles(dir)).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('the host CLI prints it as one message without a stack', async () => {
    const dir = await trainingDay();
    damage(databaseFile(dir, 'sandbox'));
    const run = await runHostUntilExit(dir, false);
    expectCleanRefusal(run, /training\.sqlite is damaged \(SQLite quick_check: /);
  }, 60_000);
});

describe('a second station on the same data folder', () => {
  it('another process: "already running" naming the first, which keeps working; once it is killed (SIGKILL) the next starts at once', async () => {
    const dir = folder();
    let first: StationProcess | undefined = await startStationProcess(['--data-dir', dir]);
    cleanups.push(() => first?.stop());
    const holder = JSON.parse(fs.readFileSync(path.join(dir, 'station.lock.json'), 'utf8')) as { pid: number };
    const second = await runHostUntilExit(dir, false);
    expectCleanRefusal(second, new RegExp(`Another Shipping Station is already running with the data folder .* \\(process ${holder.pid} on .*\\)\\. Use that one, or close it first; to run two stations on one computer, give each its own --data-dir\\.`));
    expect(brokenFiles(dir)).toEqual([]);
    // The first station still answers.
    const u = new URL(first.url);
    const token = new URLSearchParams(u.hash.slice(1)).get('token') ?? '';
    const res = await fetch(`${u.origin}/rpc/app.info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-station-token': token }, body: '{}' });
    expect(res.status).toBe(200);
    // Killed outright (no close, no release): the OS drops the lock with the process, so the next start
    // succeeds at once; no stale lock to wait out.
    process.kill(holder.pid, 'SIGKILL');
    await first.stop();
    first = undefined;
    const again = await startStationProcess(['--data-dir', dir]);
    cleanups.push(() => again.stop());
    expect(again.readyLine).toContain('training mode');
  }, 120_000);

  it('the same process: already_running, the first station unaffected; the lock is free again after close', async () => {
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const dir = folder();
    const a: Station = await startStation(stationConfig(sb, dir, `file://${dir}/labels`));
    const e = await rejection(startStation(stationConfig(sb, dir, `file://${dir}/labels`)), StoreError);
    expect(e.code).toBe('already_running');
    expect(e.message).toContain(`process ${process.pid}`);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(true);
    await expect(invokerOf(() => a)('orders.page', {})).resolves.toMatchObject({ total: 0, orders: [] });
    await a.close();
    const b = await startStation(stationConfig(sb, dir, `file://${dir}/labels`));
    await b.close();
  }, 60_000);
});
