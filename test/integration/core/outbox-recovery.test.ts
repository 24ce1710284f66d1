/**
 * Exactly-once shipping across crashes and lost answers (DESIGN.md "Offline
 * and exactly-once"): a shipment whose outcome is unknown is looked up by its
 * reference before being sent again, and adopted when the platform has it.
 * Checked on the platform's side: the number of shipments with the reference
 * and the credit charged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StationError } from '../../../shared/contract/errors';
import type { StationOrder } from '../../../shared/domain/order';
import type { StationConfig } from '../../../electron/core/config';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import type { PlatformClient } from '../../../electron/core/platform/client-api';
import type { ShipmentCreatePayload } from '../../../electron/core/shipping/shipment-executor';
import { databaseFile, type Station } from '../../../electron/core/station';
import type { CommandName, CommandOutput } from '../../../shared/contract';
import { invokerOf, type CommandArgs } from '../../support/commands';
import { startStation } from '../../../electron/shell/start';
import { openStore } from '../../../electron/core/store';
import type { Sandbox } from '../../../electron/sandbox/index';
import { startFakePrinter, type FakePrinter } from './printing/fake-printer';
import { clientFor, parcel, startSandbox, stationConfig, tempDir } from './helpers';

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

async function start(options: Parameters<typeof startStation>[1] = {}): Promise<Station> {
  const s = await startStation(config, { outboxBackoff: { baseMs: 600_000 }, ...options });
  open.push(s);
  return s;
}

async function stop(s: Station): Promise<void> {
  await s.close();
  open.splice(open.indexOf(s), 1);
}

/** Typed command call on station `s` (test/support/commands.ts). */
function invoke<K extends CommandName>(s: Station, name: K, ...args: CommandArgs<K>): Promise<CommandOutput<K>> {
  return invokerOf(() => s)(name, ...args);
}

async function orderOf(s: Station, code: string): Promise<StationOrder> {
  const r = await invoke(s, 'scan.resolve', { code });
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

/**
 * Leaves the store as a crash during POST /shipments would: the pending
 * shipment and its outbox row written, the row claimed (`sending`).
 */
async function crashWhileSending(code: string): Promise<{ request: ShipmentCreatePayload['request']; rowId: number }> {
  const first = await start();
  await invoke(first, 'orders.importCsv', { fileName: 'orders.csv', content: generateShopifyCsv(3) });
  const o = await orderOf(first, code);
  await stop(first);

  const store = openStore(databaseFile(tmp.dir, 'platform'));
  try {
    const request = { ...shipRequest(o), reference: o.orderNumber };
    const rowId = store.tx(() => {
      const pending = store.shipments.createPending({ reference: o.orderNumber, orderId: o.id });
      const payload: ShipmentCreatePayload = { localShipmentId: pending.id, orderId: o.id, request };
      return store.outbox.enqueue({ kind: 'shipment.create', payload, localRef: `shipment:${pending.id}` }).id;
    });
    const claimed = store.outbox.claimNext();
    expect(claimed).toMatchObject({ id: rowId, state: 'sending', attempts: 1 });
    return { request, rowId };
  } finally {
    store.close();
  }
}

function rowOf(rowId: number) {
  const store = openStore(databaseFile(tmp.dir, 'platform'));
  try {
    return store.outbox.get(rowId);
  } finally {
    store.close();
  }
}

describe('outbox recovery', () => {
  it('adopts a shipment the platform committed before the crash: not paid twice', async () => {
    const { request, rowId } = await crashWhileSending('#1001');
    // The platform had received and committed the request when the station died.
    const committed = await direct.createShipment(request);
    const creditAfterCommit = (await direct.getCredit()).balance;

    const station = await start();
    const label = await printer.job(0); // the recovered shipment's label is printed
    expect(label.toString('utf8')).toContain(committed.trackingNumber);

    expect((await direct.getCredit()).balance).toBe(creditAfterCommit);
    const onPlatform = await direct.listShipments({ reference: '#1001' });
    expect(onPlatform.data.map((s) => s.trackingNumber)).toEqual([committed.trackingNumber]);

    const o = await orderOf(station, '#1001');
    expect(o.status).toBe('shipped');
    expect(o.shipmentTrackingNumber).toBe(committed.trackingNumber);
    const view = await invoke(station, 'shipments.get', { trackingNumber: committed.trackingNumber });
    expect(view.labelFormats).toContain('ZPL');
    expect(view.printJobs.map((j) => [j.requestedBy, j.state])).toEqual([['auto', 'printed']]);
    expect((await invoke(station, 'app.info')).pendingOutbox).toBe(0);
    await stop(station);
    expect(rowOf(rowId)).toMatchObject({ state: 'done', attempts: 2, result: { trackingNumber: committed.trackingNumber, adopted: true } });
  });

  it('sends a row that never reached the platform exactly once after the restart', async () => {
    const { rowId } = await crashWhileSending('#1002');
    const creditBefore = (await direct.getCredit()).balance;

    const station = await start();
    const label = await printer.job(0);
    const onPlatform = await direct.listShipments({ reference: '#1002' });
    expect(onPlatform.data).toHaveLength(1);
    const shipment = onPlatform.data[0]!;
    expect(label.toString('utf8')).toContain(shipment.trackingNumber);
    expect((await direct.getCredit()).balance).toBeCloseTo(creditBefore - shipment.cost.total, 2);
    expect((await orderOf(station, '#1002')).shipmentTrackingNumber).toBe(shipment.trackingNumber);
    await stop(station);
    expect(rowOf(rowId)).toMatchObject({ state: 'done', result: { trackingNumber: shipment.trackingNumber, adopted: false } });
  });

  it('a lost answer (timeout after the platform created it) is adopted on the next try, not paid twice', async () => {
    let loseNextShipmentAnswer = false;
    const lossy = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (loseNextShipmentAnswer && init?.method === 'POST' && new URL(String(input)).pathname.endsWith('/shipments')) {
        loseNextShipmentAnswer = false;
        await res.arrayBuffer();
        throw new DOMException('The operation timed out.', 'TimeoutError');
      }
      return res;
    }) as typeof fetch;
    const station = await start({ fetch: lossy });
    await invoke(station, 'orders.importCsv', { fileName: 'orders.csv', content: generateShopifyCsv(3) });
    const o = await orderOf(station, '#1003');
    const creditBefore = (await direct.getCredit()).balance;

    loseNextShipmentAnswer = true;
    let err: unknown;
    try {
      await invoke(station, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StationError);
    expect((err as StationError).code).toBe('timeout');
    expect((await orderOf(station, '#1003')).status).toBe('open');
    const created = (await direct.listShipments({ reference: '#1003' })).data;
    expect(created).toHaveLength(1); // the platform did create it

    const res = await invoke(station, 'shipping.shipOrder', { orderId: o.id, request: shipRequest(o) });
    expect(res.shipment.trackingNumber).toBe(created[0]!.trackingNumber);
    expect(res.printJob?.state).toBe('printed');
    expect((await direct.listShipments({ reference: '#1003' })).data).toHaveLength(1);
    expect((await direct.getCredit()).balance).toBeCloseTo(creditBefore - created[0]!.cost.total, 2);
  });
});
