/**
 * Every query a bench command makes is answered from an index (issue 27):
 * on a seeded folder (./../../bench/big-folder-seed.ts: shipments with their
 * orders, labels, print jobs, slips, manifests, outbox rows), each list,
 * filter and search command runs once while every statement the station
 * executes is recorded (better-sqlite3's Statement `run/get/all/iterate`,
 * with its parameters); then `EXPLAIN QUERY PLAN` of each, with the same
 * parameters, must not read a large table whole (`SCAN <table>` without an
 * index). Allowed: an index walked in order (`SCAN t USING INDEX i`, stopped
 * by a LIMIT or counting an index), a full-text MATCH (`VIRTUAL TABLE INDEX
 * n:…M…`), and the table walked in rowid order newest or oldest first without
 * a sort, stopped by a LIMIT (`ORDER BY id DESC LIMIT n`: the walk ends after
 * n matching rows).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandName } from '../../../shared/contract';
import { databaseFile } from '../../../electron/core/station';
import { openStore } from '../../../electron/core/store';
import { startStation, type StartedStation } from '../../../electron/shell/start';
import type { Sandbox } from '../../../electron/sandbox/index';
import { seedBigFolder } from '../../bench/big-folder-seed';
import { invokerOf, startSandbox, stationConfig, tempDir } from './helpers';
import { MATCH_FUNCTION } from '../../../electron/core/store/orders-text';

/** Tables that grow with every parcel: a full read of one is what makes a command slow after a year. */
const LARGE = new Set(['orders', 'order_items', 'orders_fts', 'shipments', 'labels', 'print_jobs', 'outbox', 'slip_jobs', 'manifests', 'verify_skips']);

let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let station: StartedStation;
const invoke = invokerOf(() => station);

beforeAll(async () => {
  sb = await startSandbox();
  tmp = tempDir('station-plans-');
  const file = databaseFile(tmp.dir, 'platform');
  openStore(file).close();
  seedBigFolder(file, { now: new Date(), shipments: 3000, days: 200, labelBytes: 300 });
  // Planner statistics as the station gathers them in an idle moment (PRAGMA optimize).
  const db = new Database(file);
  db.exec('ANALYZE');
  db.close();
  station = await startStation(stationConfig(sb, tmp.dir, `file://${path.join(tmp.dir, 'labels')}`), { maintenance: { idleMs: 3_600_000 } });
}, 120_000);

afterAll(async () => {
  await station?.close();
  await sb?.close();
  tmp?.cleanup();
});

interface Executed {
  source: string;
  args: unknown[];
  command: string;
}

/** Records every statement executed while `fn` runs. */
async function recording(command: string, fn: () => Promise<unknown>, into: Executed[]): Promise<void> {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<'run' | 'get' | 'all' | 'iterate', (...a: unknown[]) => unknown>;
  probe.close();
  const originals = { run: proto.run, get: proto.get, all: proto.all, iterate: proto.iterate };
  for (const m of ['run', 'get', 'all', 'iterate'] as const) {
    const orig = originals[m];
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      into.push({ source: this.source, args, command });
      return orig.apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    Object.assign(proto, originals);
  }
}

/** Alias -> table of a statement's FROM / JOIN / UPDATE / DELETE FROM clauses. */
function aliases(sql: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const table = m[1]!;
    out.set(table, table);
    const alias = m[2];
    if (alias && !/^(WHERE|SET|ON|JOIN|LEFT|INNER|ORDER|GROUP|LIMIT|VALUES|USING|AS|SELECT)$/i.test(alias)) out.set(alias, table);
  }
  return out;
}

describe('every query of a bench command is answered from an index', () => {
  it('no full scan of a large table in any list, filter or search', async () => {
    const executed: Executed[] = [];
    const newest = await invoke('shipments.recent', { limit: 1 });
    const ldv = newest[0]?.trackingNumber;
    if (!ldv) throw new Error('the seeded folder has no shipment');
    const calls: Array<[CommandName, () => Promise<unknown>]> = [
      ['outbox.list', () => invoke('outbox.list', { doneLimit: 200 })],
      ['orders.page', () => invoke('orders.page', { view: 'all', q: 'Lombardi' })],
      ['orders.page', () => invoke('orders.page', { view: 'all', q: 'TAZ' })],
      ['orders.facets', () => invoke('orders.facets')],
      ['orders.get', () => invoke('orders.get', { id: 1 })],
      ['scan.resolve', () => invoke('scan.resolve', { code: '#100001' })],
      ['scan.resolve', () => invoke('scan.resolve', { code: ldv })],
      ['shipments.recent', () => invoke('shipments.recent', { limit: 50 })],
      ['shipments.unmanifested', () => invoke('shipments.unmanifested')],
      ['manifests.list', () => invoke('manifests.list')],
      ['printJobs.pending', () => invoke('printJobs.pending')],
      ['pickups.list', () => invoke('pickups.list')],
      ['slips.list', () => invoke('slips.list', {})],
      ['slips.list', () => invoke('slips.list', { orderId: 1 })],
      ['items.list', () => invoke('items.list', { q: 'TAZ' })],
      ['storage.get', () => invoke('storage.get')],
      ['labels.reprint', () => invoke('labels.reprint', { trackingNumber: ldv })],
    ];
    for (const view of ['to_ship', 'pickup', 'shipped', 'cancelled', 'all'] as const) {
      for (const sort of ['newest', 'oldest', 'number', 'name', 'country'] as const) {
        calls.push(['orders.page', () => invoke('orders.page', { view, sort, limit: 100 })]);
        // The next page by its cursor (keyset): read from the sort's index, as the first.
        calls.push([
          'orders.page',
          async () => {
            const first = await invoke('orders.page', { view, sort, limit: 2 });
            return invoke('orders.page', { view, sort, limit: 100, offset: 2, ...(first.next !== undefined ? { after: first.next } : {}) });
          },
        ]);
      }
      calls.push(['orders.page', () => invoke('orders.page', { view, q: 'Rossi' })]);
      // A word most orders hold (their SKUs): more matches than orders-repo's MANY_MATCHES, read along the sort's index.
      for (const sort of ['newest', 'country'] as const) calls.push(['orders.page', () => invoke('orders.page', { view, sort, q: 'TAZ' })]);
      calls.push(['orders.page', () => invoke('orders.page', { view, q: '#10' })]);
      // A shop's or a country's orders (migration 13: the country from the status's country index, or the country's own).
      calls.push(['orders.page', () => invoke('orders.page', { view, shop: 'main' })]);
      for (const sort of ['newest', 'country'] as const) calls.push(['orders.page', () => invoke('orders.page', { view, sort, country: 'IT' })]);
      calls.push(['orders.page', () => invoke('orders.page', { view, country: 'DE', shop: 'main' })]);
    }
    // Last, as it adds an order: a manual order's number, checked free against every order (orders-repo getByNumber).
    calls.push([
      'orders.create',
      () => invoke('orders.create', { recipient: { name: 'Rita Rosa', street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' }, items: [{ name: 'Tazza', quantity: 1, unitPrice: 9.5 }] }),
    ]);
    for (const [name, call] of calls) await recording(name, call, executed);

    const commandsSeen = new Set(executed.map((e) => e.command));
    expect([...commandsSeen].sort()).toEqual([...new Set(calls.map(([n]) => n))].sort());

    const check = new Database(databaseFile(tmp.dir, 'platform'), { readonly: true });
    // The station's connection defines the function a search with many matches calls (orders-repo.ts); its plan is the same with any body.
    check.function(MATCH_FUNCTION, (_id: unknown) => 1);
    const scans: string[] = [];
    const seen = new Set<string>();
    let explained = 0;
    try {
      for (const e of executed) {
        const key = `${e.source}\u0000${JSON.stringify(e.args)}`;
        if (seen.has(key) || /^\s*(PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(e.source)) continue;
        seen.add(key);
        const plan = check.prepare(`EXPLAIN QUERY PLAN ${e.source}`).all(...e.args) as Array<{ detail: string }>;
        explained++;
        const names = aliases(e.source);
        const sorts = plan.some((p) => p.detail.startsWith('USE TEMP B-TREE FOR ORDER BY'));
        const rowidWalk = !sorts && /ORDER BY (\w+\.)?id( DESC| ASC)?\s+LIMIT/i.test(e.source);
        for (const { detail } of plan) {
          const m = /^SCAN (\w+)(.*)$/.exec(detail);
          if (!m) continue;
          const table = names.get(m[1]!) ?? m[1]!;
          if (LARGE.has(table) && !rowidWalk && !/USING (COVERING )?INDEX|VIRTUAL TABLE INDEX \d+:\S*M/.test(m[2] ?? '')) {
            scans.push(`${e.command}: ${detail}\n    ${e.source.replace(/\s+/g, ' ').slice(0, 300)}`);
          }
        }
      }
    } finally {
      check.close();
    }
    expect(explained).toBeGreaterThan(30);
    expect(scans).toEqual([]);
  }, 120_000);

  it('the seeded folder is large enough that a scan would be chosen only by a missing index', () => {
    const db = new Database(databaseFile(tmp.dir, 'platform'), { readonly: true });
    try {
      expect(db.prepare<[], number>('SELECT count(*) FROM shipments').pluck().get()).toBeGreaterThanOrEqual(3000);
      expect(fs.existsSync(databaseFile(tmp.dir, 'platform'))).toBe(true);
    } finally {
      db.close();
    }
  });
});
