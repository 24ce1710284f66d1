/**
 * Issue 21, an order's identity is its shop and its number, against the
 * sandbox over HTTP, with two shops' Shopify exports that both hold #2236
 * (test/fixtures/shopify/warehouse/shop-uk.csv: to Vilnius, LT; shop-tr.csv:
 * to İstanbul, TR):
 * - both ship: two shipments, each with its own recipient, reference and label;
 * - two stations of one account that imported the same shop under the same
 *   name find each other's shipment (one shipment, one payment);
 * - two stations whose different shops share a name (both the default shop)
 *   never take each other's shipment: not before the post, not after a lost
 *   answer (the settle rule); the row waits for the packer, who sends it again.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShipResult } from '../../../shared/contract/commands';
import type { OutboxListView } from '../../../shared/contract/views';
import type { StationOrder } from '../../../shared/domain/order';
import type { PlatformClient } from '../../../electron/core/platform/client-api';
import { invokeCommand, type Station } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import type { Sandbox } from '../../../electron/sandbox/index';
import { startFakePrinter, type FakePrinter } from './printing/fake-printer';
import { customs } from '../sandbox/helpers';
import { clientFor, invokerOf, orderByNumber, parcel, startSandbox, stationConfig, stationFailure, tempDir } from './helpers';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/shopify/warehouse/${name}`, import.meta.url), 'utf8');

let sb: Sandbox;
let printer: FakePrinter;
let direct: PlatformClient;
const dirs: Array<ReturnType<typeof tempDir>> = [];
const open: Station[] = [];

beforeEach(async () => {
  sb = await startSandbox();
  printer = await startFakePrinter('ready');
  direct = clientFor(sb, 0);
});

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await printer.close();
  await sb.close();
  for (const d of dirs.splice(0)) d.cleanup();
});

/** A POST /shipments that leaves and is never answered nor processed while `swallow` is on. */
function blackholeFetch() {
  const state = { swallow: false };
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if (state.swallow && init?.method === 'POST' && url.pathname.endsWith('/shipments')) {
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    }
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: f, state };
}

/** A station of demo client 0 on its own data folder. */
async function station(options: Parameters<typeof startStation>[1] = {}): Promise<Station> {
  const d = tempDir();
  dirs.push(d);
  const s = await startStation(stationConfig(sb, d.dir, printer.uri), { outboxBackoff: { baseMs: 200 }, platformTimeoutMs: 5_000, shipmentSettle: { settleMs: 2_000, pollMs: 200 }, ...options });
  open.push(s);
  return s;
}

function shipRequest(o: StationOrder) {
  const r = o.recipient;
  return {
    recipient: { name: r.name, address: { street: r.street, city: r.city, postalCode: r.postalCode, countryCode: r.countryCode } },
    packages: [parcel()],
    // Turkey is outside the EU customs territory (spec: Resources > Customs).
    ...(r.countryCode === 'TR' ? { customsDetail: customs() } : {}),
  };
}

async function importShop(s: Station, file: string, shop?: string): Promise<StationOrder> {
  const invoke = invokerOf(() => s);
  const report = await invoke('orders.importCsv', { fileName: file, content: fixture(file), ...(shop ? { shop } : {}) });
  expect(report.errors).toEqual([]);
  const page = await invoke('orders.page', { q: '#2236', view: 'all', ...(shop ? { shop } : {}) });
  const o = page.orders.find((x) => x.orderNumber === '#2236' && x.shop === (shop ?? 'main'));
  if (!o) throw new Error(`#2236 of ${shop ?? 'main'} not imported`);
  return o;
}

function ship(s: Station, o: StationOrder): Promise<ShipResult> {
  return invokeCommand(s.handlers, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) }) as Promise<ShipResult>;
}

/** The platform's shipments (not cancelled) with exactly `reference`, with their recipient. */
async function onPlatform(reference: string) {
  const page = await direct.listShipments({ reference, per_page: 50 });
  const hits = page.data.filter((s) => s.reference === reference);
  return Promise.all(hits.map((s) => direct.getShipment(s.trackingNumber)));
}

async function pendingRows(s: Station) {
  return ((await invokeCommand(s.handlers, 'outbox.list', { doneLimit: 10 })) as OutboxListView).pending;
}

/** Polls until `check` returns a value, at most `ms` (the outbox works in the background). */
async function until<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('two shops, one order number', () => {
  it('#2236 of each shop ships as its own shipment, with its own recipient, reference and label', async () => {
    const s = await station();
    const uk = await importShop(s, 'shop-uk.csv', 'UK');
    const tr = await importShop(s, 'shop-tr.csv', 'Istanbul');

    const a = await ship(s, uk);
    const b = await ship(s, tr);
    expect(a.shippedElsewhere).toBeUndefined();
    expect(b.shippedElsewhere).toBeUndefined();
    expect(b.shipment.trackingNumber).not.toBe(a.shipment.trackingNumber);
    expect(a.shipment).toMatchObject({ reference: 'UK #2236', recipient: { name: 'Ona Kazlauskienė', countryCode: 'LT', postalCode: 'LT-01103' } });
    expect(b.shipment).toMatchObject({ reference: 'Istanbul #2236', recipient: { name: 'Ayşe Yılmaz', countryCode: 'TR', postalCode: '34728' } });

    // The platform holds one shipment per reference, to the right country.
    expect((await onPlatform('UK #2236')).map((x) => [x.trackingNumber, x.recipient?.address?.countryCode])).toEqual([[a.shipment.trackingNumber, 'LT']]);
    expect((await onPlatform('Istanbul #2236')).map((x) => [x.trackingNumber, x.recipient?.address?.countryCode])).toEqual([[b.shipment.trackingNumber, 'TR']]);

    // Each label printed is its own shipment's: its tracking number and its recipient's postal code.
    const labels = [await printer.job(0), await printer.job(1)].map((j) => j.toString('latin1'));
    expect(labels[0]).toContain(a.shipment.trackingNumber);
    expect(labels[0]).toContain('01103');
    expect(labels[0]).not.toContain(b.shipment.trackingNumber);
    expect(labels[1]).toContain(b.shipment.trackingNumber);
    expect(labels[1]).toContain('34728');
    expect(labels[1]).not.toContain(a.shipment.trackingNumber);
  });
});

describe('two stations on one account', () => {
  it('that imported the same shop under the same name find each other\u2019s shipment: one shipment, paid once', async () => {
    const one = await station();
    const two = await station();
    const a = await ship(one, await importShop(one, 'shop-uk.csv', 'UK'));
    const creditBefore = (await direct.getCredit()).balance;

    const b = await ship(two, await importShop(two, 'shop-uk.csv', 'UK'));
    expect(b.shippedElsewhere).toBe(true);
    expect(b.shipment.trackingNumber).toBe(a.shipment.trackingNumber);
    expect((await onPlatform('UK #2236')).length).toBe(1);
    expect((await direct.getCredit()).balance).toBe(creditBefore);
    const o = await orderByNumber(invokerOf(() => two), '#2236');
    expect(o).toMatchObject({ status: 'shipped', shipmentTrackingNumber: a.shipment.trackingNumber });
  });

  it('whose different shops share a name never take each other\u2019s shipment, before the post or after a lost answer', async () => {
    const one = await station();
    const net = blackholeFetch();
    const two = await station({ fetch: net.fetch, platformTimeoutMs: 1_500 });
    // Both import under the default shop: the same reference #2236, another recipient.
    const a = await ship(one, await importShop(one, 'shop-uk.csv'));
    expect(a.shipment.reference).toBe('#2236');
    const tr = await importShop(two, 'shop-tr.csv');

    // Before the post: found by reference, recipient differs: not adopted, the packer is asked.
    const before = await stationFailure(ship(two, tr));
    expect(before.code).toBe('outcome_unknown');
    expect(before.message).toContain(a.shipment.trackingNumber);
    expect(before.message).toContain('Ona Kazlauskienė, LT-01103 LT');
    expect(before.message).toContain('did not take it');
    let [row] = await pendingRows(two);
    expect(row).toMatchObject({ state: 'needs_attention', lastError: { code: 'outcome_unknown' } });
    expect((await orderByNumber(invokerOf(() => two), '#2236')).status).toBe('open');

    // "Send again"; that post's answer is lost: the settle rule sees only the other shop's
    // shipment under the reference, never adopts it, and leaves the row for the packer.
    net.state.swallow = true;
    await invokeCommand(two.handlers, 'outbox.confirmResend', { id: row!.id });
    row = await until(async () => (await pendingRows(two)).find((r) => r.state === 'needs_attention'));
    expect(row.lastError?.code).toBe('outcome_unknown');
    expect(row.lastError?.message).toContain('got no answer');
    expect(row.lastError?.message).toContain(a.shipment.trackingNumber);
    expect((await orderByNumber(invokerOf(() => two), '#2236')).status).toBe('open');
    expect(await onPlatform('#2236')).toHaveLength(1);

    // Sent again with the network back: its own shipment, to Turkey.
    net.state.swallow = false;
    await invokeCommand(two.handlers, 'outbox.confirmResend', { id: row.id });
    const shipped = await until(async () => {
      const o = await orderByNumber(invokerOf(() => two), '#2236');
      return o.status === 'shipped' ? o : undefined;
    }).catch(async (e: unknown) => {
      throw new Error(`${String(e)}; queue: ${JSON.stringify(await pendingRows(two))}`);
    });
    expect(shipped.shipmentTrackingNumber).not.toBe(a.shipment.trackingNumber);
    const both = await onPlatform('#2236');
    expect(both.map((x) => x.recipient?.address?.countryCode).sort()).toEqual(['LT', 'TR']);
    expect(both.find((x) => x.trackingNumber === shipped.shipmentTrackingNumber)?.recipient?.name).toBe('Ayşe Yılmaz');
  });
});
