/**
 * Issue 7, money and labels, against the sandbox over HTTP:
 * - a POST /shipments the platform holds past the station's timeout is never
 *   posted again while it may still land (settle window), and the press is
 *   told "queued";
 * - a POST that never lands needs the packer's confirmation before it is
 *   posted again; pressing Ship again only looks again;
 * - the label's print job exists with the shipment; a shipment left with a
 *   label and no job gets one at start and prints once;
 * - a refused order keeps one open row however often it is retried.
 * Checked on the platform's side (shipments with the reference, credit) and
 * on the fake printer (labels received).
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScanResult, ShipResult } from '../../../shared/contract/commands';
import { outcomeOfCode } from '../../../shared/contract/outbox-outcome';
import type { OutboxListView, OutboxRowView } from '../../../shared/contract/views';
import type { StationOrder } from '../../../shared/domain/order';
import type { StationConfig } from '../../../electron/core/config';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import type { PlatformClient } from '../../../electron/core/platform/client-api';
import { databaseFile, invokeCommand, type Station } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import type { Sandbox } from '../../../electron/sandbox/index';
import { startFakePrinter, type FakePrinter } from './printing/fake-printer';
import { clientFor, parcel, startSandbox, stationConfig, stationFailure, tempDir } from './helpers';

let sb: Sandbox;
let printer: FakePrinter;
let tmp: ReturnType<typeof tempDir>;
let direct: PlatformClient;
let config: StationConfig;
const open: Station[] = [];

beforeEach(async () => {
  sb = await startSandbox();
  printer = await startFakePrinter('ready');
  tmp = tempDir();
  direct = clientFor(sb, 0);
  config = stationConfig(sb, tmp.dir, printer.uri);
});

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await printer.close();
  await sb.close();
  tmp.cleanup();
});

/** A POST /shipments that leaves and is never answered nor processed (a black-holed proxy). */
function blackholeFetch() {
  const state = { swallowPosts: false, posts: 0 };
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if (init?.method === 'POST' && url.pathname.endsWith('/shipments')) {
      state.posts++;
      if (state.swallowPosts) {
        return new Promise<Response>((_, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      }
    }
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: f, state };
}

async function start(options: Parameters<typeof startStation>[1] = {}): Promise<Station> {
  const s = await startStation(config, { outboxBackoff: { baseMs: 200 }, platformTimeoutMs: 600, shipmentSettle: { settleMs: 3_000, pollMs: 200 }, ...options });
  open.push(s);
  return s;
}

async function stop(s: Station): Promise<void> {
  await s.close();
  open.splice(open.indexOf(s), 1);
}

function invoke<T>(s: Station, name: string, input: unknown = {}): Promise<T> {
  return invokeCommand(s.handlers, name, input) as Promise<T>;
}

async function faults(body: unknown): Promise<void> {
  const res = await fetch(`${new URL(sb.baseUrl).origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

async function order(s: Station, code: string): Promise<StationOrder> {
  const r = await invoke<ScanResult>(s, 'scan.resolve', { code });
  if (r.kind !== 'order') throw new Error(`${code} is not an order`);
  return r.order;
}

function shipRequest(o: StationOrder) {
  const r = o.recipient;
  return {
    recipient: { name: r.name, address: { street: r.street, city: r.city, postalCode: r.postalCode, countryCode: r.countryCode, ...(r.province ? { province: r.province } : {}) } },
    packages: [parcel()],
  };
}

async function rows(s: Station): Promise<OutboxListView> {
  return invoke<OutboxListView>(s, 'outbox.list', { doneLimit: 50 });
}

/** Polls until `check` returns a value (not undefined), at most `ms`. */
async function until<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('settle window after a POST without an answer', () => {
  it('a post held past the timeout lands once: the press hears "queued", the station adopts it, one shipment, one label', async () => {
    const s = await start();
    await invoke(s, 'orders.importCsv', { fileName: 'o.csv', content: generateShopifyCsv(2) });
    const o = await order(s, '#1001');
    const creditBefore = (await direct.getCredit()).balance;
    await faults({ hold: { ms: 2_000, next: 1 } });

    const e = await stationFailure(invoke(s, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) }));
    expect(e.code).toBe('timeout');
    expect(outcomeOfCode(e.code)).toBe('queued');
    // Pressing Ship again inside the window looks again; it never posts.
    const again = await stationFailure(invoke(s, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) }));
    expect(outcomeOfCode(again.code)).toBe('queued');

    const done = await until(async () => {
      const l = await rows(s);
      if (process.env.DEBUG_SETTLE) console.log(JSON.stringify(l.pending.map((r) => [r.state, r.attempts, r.lastError?.code, r.lastError?.message, r.nextAttemptAt])), (await direct.listShipments({ reference: '#1001' })).data.length);
      return l.done.find((r) => r.orderNumber === '#1001');
    });
    expect(done.outcome).toBe('adopted');
    const onPlatform = (await direct.listShipments({ reference: '#1001' })).data;
    expect(onPlatform).toHaveLength(1);
    expect((await direct.getCredit()).balance).toBeCloseTo(creditBefore - onPlatform[0]!.cost.total, 2);
    await printer.job(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(printer.jobs).toHaveLength(1);
    expect(printer.jobs[0]!.toString('latin1')).toContain('^XA');
  });

  it('a post that never lands: after the window the row needs attention; Ship again only looks; the packer confirms and it is sent once', async () => {
    const net = blackholeFetch();
    const s = await start({ fetch: net.fetch });
    await invoke(s, 'orders.importCsv', { fileName: 'o.csv', content: generateShopifyCsv(2) });
    const o = await order(s, '#1002');
    net.state.swallowPosts = true;
    const e = await stationFailure(invoke(s, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) }));
    expect(e.code).toBe('timeout');
    net.state.swallowPosts = false;

    const attention = await until(async () => (await rows(s)).pending.find((r) => r.state === 'needs_attention'));
    expect(attention).toMatchObject({ lastError: { code: 'outcome_unknown' }, canConfirmResend: true, canDismiss: false });
    expect(net.state.posts).toBe(1);

    // Ship again for the same order: the same row, looked up again, still waiting for the packer.
    const again = await stationFailure(invoke(s, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) }));
    expect(again.code).toBe('outcome_unknown');
    expect(outcomeOfCode(again.code)).toBe('needs_attention');
    expect(net.state.posts).toBe(1);
    expect((await rows(s)).pending.filter((r) => r.orderNumber === '#1002')).toHaveLength(1);

    await invoke<OutboxRowView>(s, 'outbox.confirmResend', { id: attention.id });
    const done = await until(async () => (await rows(s)).done.find((r) => r.id === attention.id));
    expect(done.outcome).toBe('sent');
    expect(net.state.posts).toBe(2);
    expect((await direct.listShipments({ reference: '#1002' })).data).toHaveLength(1);
    await printer.job(0);
  });

  it('confirmResend refuses a row that is not waiting for that confirmation', async () => {
    const s = await start();
    await invoke(s, 'orders.importCsv', { fileName: 'o.csv', content: generateShopifyCsv(1) });
    const o = await order(s, '#1001');
    const bad = shipRequest(o);
    bad.recipient.address.province = 'Milano';
    await stationFailure(invoke(s, 'shipping.shipOrder', { orderId: o.id, request: bad }));
    const row = (await rows(s)).pending[0]!;
    expect(row.canConfirmResend).toBe(false);
    const e = await stationFailure(invoke(s, 'outbox.confirmResend', { id: row.id }));
    expect(e.code).toBe('invalid_state');
  });
});

describe('one open row per order', () => {
  it('retrying a refused shipment many times keeps one needs-attention row, and it is the one that ships', async () => {
    const s = await start();
    await invoke(s, 'orders.importCsv', { fileName: 'o.csv', content: generateShopifyCsv(1) });
    const o = await order(s, '#1001');
    const bad = shipRequest(o);
    bad.recipient.address.province = 'Milano';
    for (let i = 0; i < 3; i++) {
      const e = await stationFailure(invoke(s, 'shipping.shipOrder', { orderId: o.id, request: bad }));
      expect(e.code).toBe('validation_failed');
      expect(outcomeOfCode(e.code)).toBe('needs_attention');
    }
    const list = await rows(s);
    expect(list.pending).toHaveLength(1);
    expect(list.pending[0]).toMatchObject({ state: 'needs_attention', orderNumber: '#1001' });
    const res = await invoke<ShipResult>(s, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) });
    expect(res.shipment.reference).toBe('#1001');
    const after = await rows(s);
    expect(after.pending).toHaveLength(0);
    expect(after.done.filter((r) => r.orderNumber === '#1001')).toHaveLength(1);
  });
});

describe('the label print job is created with the shipment', () => {
  it('the shipment and its auto job are written together; a shipment left with a label and no job is printed once at the next start', async () => {
    const s = await start();
    await invoke(s, 'orders.importCsv', { fileName: 'o.csv', content: generateShopifyCsv(2) });
    const o1 = await order(s, '#1001');
    const r1 = await invoke<ShipResult>(s, 'shipping.shipOrder', { orderId: o1.id, request: shipRequest(o1) });
    expect(r1.printJob).toMatchObject({ state: 'printed' });
    const o2 = await order(s, '#1002');
    const r2 = await invoke<ShipResult>(s, 'shipping.shipOrder', { orderId: o2.id, request: shipRequest(o2) });
    await stop(s);
    await printer.job(1);

    // What a crash before jobs were created with the shipment left: #1002's label, no job.
    const db = new Database(databaseFile(tmp.dir, 'platform'));
    db.prepare(`DELETE FROM print_jobs WHERE label_id IN (SELECT id FROM labels WHERE tracking_number = ?)`).run(r2.shipment.trackingNumber);
    db.close();

    const s2 = await start();
    await printer.job(2);
    const job = await until(async () => {
      const v = await invoke<{ printJobs: Array<{ state: string; requestedBy: string }> }>(s2, 'shipments.get', { trackingNumber: r2.shipment.trackingNumber });
      return v.printJobs.find((j) => j.state === 'printed');
    });
    expect(job.requestedBy).toBe('auto');
    await stop(s2);
    // #1001 (printed before) is not printed again.
    expect(printer.jobs).toHaveLength(3);
  });
});
