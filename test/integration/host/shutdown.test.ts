/**
 * Clean shutdown of `npm start` (issue 15 "Clean shutdown"), on the real
 * process tree: npm -> node build/start.mjs (the prebuilt launcher, headless
 * host in-process; the script `exec`s node so that npm's signal forwarding
 * reaches it).
 *
 * A queued shipment is in the database; the platform (sandbox behind a proxy
 * that holds POST /shipments for HOLD_MS) is answering it when the signal
 * comes. Two paths: SIGTERM to npm (forwarded by npm) and SIGINT to the
 * station's node process (npm must end with it). Each must leave no process behind, no row `sending`, and a next
 * start that posts nothing again: the platform has exactly one shipment for
 * the reference and received exactly one POST /shipments.
 *
 * Also: the bundled launcher starts one station, not two (entry-point
 * detection survives bundling).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../../shared/contract/commands';
import type { AppInfo } from '../../../shared/contract/views';
import type { StationConfig } from '../../../electron/core/config';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import type { ShipmentCreatePayload } from '../../../electron/core/shipping/shipment-executor';
import { databaseFile, invokeCommand } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import { openStore } from '../../../electron/core/store';
import type { Sandbox } from '../../../electron/sandbox/index';
import { clientFor, parcel, startSandbox, tempDir } from '../core/helpers';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const HOLD_MS = 1500;

/** Reverse proxy to the sandbox that counts POST /shipments and holds each one HOLD_MS before passing it on. */
async function holdingProxy(target: string): Promise<{ base: string; posts: number; held: Promise<void>; close(): Promise<void> }> {
  let sawPost: () => void = () => undefined;
  const state = {
    base: '',
    posts: 0,
    held: new Promise<void>((r) => (sawPost = r)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const origin = new URL(target).origin;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const isPost = req.method === 'POST' && /\/shipments$/.test(req.url ?? '');
        if (isPost) {
          state.posts++;
          sawPost();
          await new Promise((r) => setTimeout(r, HOLD_MS));
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)) headers[k] = v;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const up = await fetch(origin + (req.url ?? '/'), { method: req.method ?? 'GET', headers, ...(body && req.method !== 'GET' ? { body } : {}) });
        const out = Buffer.from(await up.arrayBuffer());
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
        res.end(out);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const u = new URL(target);
  state.base = `http://127.0.0.1:${port}${u.pathname}`.replace(/\/+$/, '');
  return state;
}

/** Process ids of every live descendant of `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(d));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const todo = [pid];
  while (todo.length) {
    for (const c of children.get(todo.pop()!) ?? []) {
      out.push(c);
      todo.push(c);
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat); // a zombie has ended
  } catch {
    return false;
  }
}

async function waitGone(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const left = pids.filter(alive);
    if (left.length === 0) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return pids.filter(alive);
}

/** `npm start -- args` with a clean STATION_* environment plus `env`; resolves once the ready line is out. */
function npmStart(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; output(): string; ready: string }> {
  const e: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const k of Object.keys(e)) if (k.startsWith('STATION_') && !(k in env)) delete e[k];
  const child = spawn('npm', ['start', '--silent', '--', ...args], { cwd: ROOT, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 60 s:\n${out}`)), 60_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^Shipping Station ready .*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, output: () => out, ready: m[0] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before ready:\n${out}`));
    });
  });
}

let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
const cleanups: Array<() => unknown> = [];

beforeEach(async () => {
  sb = await startSandbox();
  tmp = tempDir('station-shutdown-');
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await sb.close();
  tmp.cleanup();
});

/**
 * Seeds the data folder as a previous session would: orders imported, and
 * #1001's shipment queued in the outbox (not yet sent).
 */
async function seedQueuedShipment(config: StationConfig): Promise<void> {
  const s = await startStation(config, { outboxBackoff: { baseMs: 600_000 } });
  try {
    await invokeCommand(s.handlers, 'orders.importCsv', { fileName: 'orders.csv', content: generateShopifyCsv(3) });
    const r = (await invokeCommand(s.handlers, 'scan.resolve', { code: '#1001' })) as ScanResult;
    if (r.kind !== 'order') throw new Error('#1001 is not an order');
    const o = r.order;
    await s.close();
    const store = openStore(databaseFile(config.dataDir, 'platform'));
    try {
      store.tx(() => {
        const pending = store.shipments.createPending({ reference: o.orderNumber, orderId: o.id });
        const request = {
          recipient: { name: o.recipient.name, address: { street: o.recipient.street, city: o.recipient.city, postalCode: o.recipient.postalCode, countryCode: o.recipient.countryCode, ...(o.recipient.province ? { province: o.recipient.province } : {}) } },
          packages: [parcel()],
          reference: o.orderNumber,
        };
        const payload: ShipmentCreatePayload = { localShipmentId: pending.id, orderId: o.id, request };
        store.outbox.enqueue({ kind: 'shipment.create', payload, localRef: `shipment:${pending.id}` });
      });
    } finally {
      store.close();
    }
  } finally {
    await s.close();
  }
}

async function shutdownCase(target: 'npm' | 'station', signal: NodeJS.Signals): Promise<void> {
  const proxy = await holdingProxy(sb.baseUrl);
  cleanups.push(() => proxy.close());
  const demo = sb.clients[0]!;
  const config: StationConfig = {
    dataDir: tmp.dir,
    platform: { mode: 'platform', baseUrl: proxy.base, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret },
    printerUri: `file://${path.join(tmp.dir, 'labels')}`,
    ignoredArgs: [],
  };
  await seedQueuedShipment(config);

  const run = await npmStart(
    ['--data-dir', tmp.dir, '--platform-url', proxy.base, '--auth-url', sb.authUrl, '--client-id', demo.clientId, '--printer', `file://${path.join(tmp.dir, 'labels')}`],
    { STATION_CLIENT_SECRET: demo.clientSecret },
  );
  const npmPid = run.child.pid!;
  cleanups.push(() => {
    for (const p of [npmPid, ...descendants(npmPid)]) if (alive(p)) process.kill(p, 'SIGKILL');
  });
  await proxy.held; // the station is posting the shipment now
  const tree = [npmPid, ...descendants(npmPid)];
  const station = tree.find((p) => {
    const argv = alive(p) ? fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0') : [];
    return /(^|\/)node$/.test(argv[0] ?? '') && argv[1] === 'build/start.mjs';
  });
  expect(station, `station process under npm (${tree.join(', ')})`).toBeDefined();
  process.kill(target === 'npm' ? npmPid : station!, signal);

  const left = await waitGone(tree, 20_000);
  expect(left, `processes left after ${signal} to ${target}:\n${run.output()}`).toEqual([]);

  // No half-sent row: nothing is left `sending`.
  const store = openStore(databaseFile(tmp.dir, 'platform'));
  try {
    expect(store.outbox.listSending()).toEqual([]);
  } finally {
    store.close();
  }

  // The next start sends nothing again.
  const next = await startStation(config, { outboxBackoff: { baseMs: 600_000 } });
  try {
    const until = Date.now() + 15_000;
    while (((await invokeCommand(next.handlers, 'app.info', {})) as AppInfo).pendingOutbox > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(((await invokeCommand(next.handlers, 'app.info', {})) as AppInfo).pendingOutbox).toBe(0);
  } finally {
    await next.close();
  }
  expect(proxy.posts).toBe(1);
  const onPlatform = await clientFor(sb, 0).listShipments({ reference: '#1001' });
  expect(onPlatform.data).toHaveLength(1);
}

describe('npm start shuts down cleanly', () => {
  it('SIGTERM to npm ends the station too; the shipment being posted is posted once', async () => {
    await shutdownCase('npm', 'SIGTERM');
  }, 120_000);

  it('SIGINT to the station process ends it and npm; the shipment being posted is posted once', async () => {
    await shutdownCase('station', 'SIGINT');
  }, 120_000);

  it('the bundled launcher starts one station (entry-point detection survives bundling)', async () => {
    const run = await npmStart(['--data-dir', tmp.dir, '--port', '0'], {});
    const npmPid = run.child.pid!;
    const tree = [npmPid, ...descendants(npmPid)];
    cleanups.push(() => {
      for (const p of tree) if (alive(p)) process.kill(p, 'SIGKILL');
    });
    await new Promise((r) => setTimeout(r, 1500)); // a second station would print its line by now
    expect(run.output().match(/Shipping Station ready/g)).toHaveLength(1);
    expect(fs.existsSync(path.join(ROOT, 'dist', 'host', 'launch.mjs'))).toBe(true);
    process.kill(npmPid, 'SIGINT');
    expect(await waitGone(tree, 20_000)).toEqual([]);
  }, 120_000);
});
