/**
 * Training mode: no platform configured, so `startStation` runs the sandbox
 * in-process, signs in with its first demo client and prints to the folder
 * printer under the data folder. The training day survives a restart on both
 * sides (training.sqlite and training-sandbox.sqlite); files that cannot be
 * used together are moved aside, never deleted, and training starts afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShipResult } from '../../../shared/contract/commands';
import { recipientToParty } from '../../../shared/domain/order';
import { resolveConfig } from '../../../electron/core/config';
import type { Station } from '../../../electron/core/station';
import { invokerOf, type Invoke } from '../../support/commands';
import { startStation } from '../../../electron/shell/start';
import { legacyTrainingSandboxFile, trainingSandboxFile } from '../../../electron/training';
import { demoSeed, SandboxState, SimClock } from '../../../electron/sandbox';
import { StatePersistence } from '../../../electron/sandbox/persist';
import { SqliteStatePersistence } from '../../../electron/sandbox/state-db';
import { parcel, tempDir } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Starts a training station on `dir`, collecting its log lines; closed after the test. */
async function start(dir: string, logs: string[] = []): Promise<{ station: Station; invoke: Invoke }> {
  const station = await startStation(resolveConfig(['--data-dir', dir], {}), { log: (l) => logs.push(l) });
  cleanups.push(() => station.close());
  return { station, invoke: invokerOf(() => station) };
}

async function shipNewOrder(invoke: Invoke, name: string): Promise<ShipResult> {
  const order = await invoke('orders.create', {
    recipient: { name, street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' },
    items: [{ name: 'Tazza', quantity: 2, unitPrice: 9.5 }],
  });
  return invoke('shipping.shipOrder', { orderId: order.id, request: { recipient: recipientToParty(order.recipient), packages: [parcel()] } });
}

const broken = (dir: string) => fs.readdirSync(dir).filter((f) => f.includes('.broken-')).sort();

describe('training mode', () => {
  it('runs on the embedded sandbox, prints to the labels folder, and keeps the training day across a restart', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);

    expect(station.info.mode).toBe('sandbox');
    expect(station.info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/2026-09$/);
    expect(station.info.accountName.length).toBeGreaterThan(0);
    const info = await invoke('app.info');
    expect(info.printer.uri).toBe(`file://${path.join(tmp.dir, 'labels')}`);
    expect(info.connection).toBe('online');
    const creditBefore = info.credit!.balance;
    expect(creditBefore).toBeGreaterThan(0);

    const res = await shipNewOrder(invoke, 'Paolo Gialli');
    expect(res.printError).toBeNull();
    const ldv = res.shipment.trackingNumber;
    const zpl = fs.readFileSync(path.join(tmp.dir, 'labels', `${ldv}.zpl`), 'utf8');
    expect(zpl).toContain(ldv);
    expect(res.shipment.reference).toMatch(/^#?\S+/);

    const baseUrl = station.info.baseUrl;
    await station.close();
    await expect(fetch(`${baseUrl}/carriers`)).rejects.toThrow();
    expect(fs.existsSync(path.join(tmp.dir, 'training.sqlite'))).toBe(true);
    expect(fs.existsSync(trainingSandboxFile(tmp.dir))).toBe(true);
    expect(fs.existsSync(path.join(tmp.dir, 'station.sqlite'))).toBe(false);

    // Next session, same data folder: both sides remember the shipment.
    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect(broken(tmp.dir)).toEqual([]);
    expect(logs.filter((l) => l.startsWith('training data'))).toEqual([]);
    const orders = (await invoke('orders.page', { view: 'all' })).orders;
    expect(orders.map((o) => [o.recipient.name, o.status, o.shipmentTrackingNumber])).toEqual([['Paolo Gialli', 'shipped', ldv]]);
    const scanned = await invoke('scan.resolve', { code: ldv });
    expect(scanned.kind).toBe('shipment');
    expect((await invoke('shipments.get', { trackingNumber: ldv })).labelFormats).toEqual(['ZPL', 'PDF']);
    const tracking = await invoke('shipments.tracking', { trackingNumber: ldv });
    expect(tracking).toMatchObject({ trackingNumber: ldv, source: 'platform' }); // the sandbox knows it too
    expect((await invoke('app.info')).credit!.balance).toBe(creditBefore - res.shipment.cost.amount); // the paid shipment stayed paid

    const manifests = await invoke('manifests.closeDay');
    expect(manifests).toHaveLength(1);
    expect(manifests[0]!.totalShipments).toBe(1);
    expect((await invoke('shipments.unmanifested')).map((s) => s.trackingNumber)).toEqual([]);
    expect((await invoke('shipments.get', { trackingNumber: ldv })).manifestId).toBe(manifests[0]!.id);

    // And once more: the manifest is there on both sides.
    await station.close();
    ({ station, invoke } = await start(tmp.dir));
    expect((await invoke('manifests.list')).map((m) => m.id)).toEqual([manifests[0]!.id]);
    expect((await invoke('manifests.pdf', { id: manifests[0]!.id })).pdfBase64.length).toBeGreaterThan(100);
    expect((await invoke('shipments.get', { trackingNumber: ldv })).manifestId).toBe(manifests[0]!.id);
  });

  it('takes the training-sandbox.json of an earlier version over once, then keeps it aside as migrated', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);
    const ldv = (await shipNewOrder(invoke, 'Giada Neri')).shipment.trackingNumber;
    await station.close();
    // What an earlier version left: the same state as a JSON file, no database.
    const state = new SandboxState(demoSeed(), new SimClock());
    const db = new SqliteStatePersistence(state, trainingSandboxFile(tmp.dir));
    expect(db.load()).toBe(true);
    await db.close();
    await new StatePersistence(state, legacyTrainingSandboxFile(tmp.dir)).save();
    fs.rmSync(trainingSandboxFile(tmp.dir));

    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect(logs.filter((l) => l.startsWith('training data'))).toEqual([]);
    expect(await invoke('shipments.tracking', { trackingNumber: ldv })).toMatchObject({ trackingNumber: ldv, source: 'platform' });
    expect(fs.existsSync(trainingSandboxFile(tmp.dir))).toBe(true);
    expect(fs.existsSync(legacyTrainingSandboxFile(tmp.dir))).toBe(false);
    expect(fs.readdirSync(tmp.dir).filter((f) => /^training-sandbox\.json\.migrated-\d{8}T\d{6}Z$/.test(f))).toHaveLength(1);
  });

  it('moves a state file the sandbox cannot read aside, with the database, and starts afresh', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);
    await shipNewOrder(invoke, 'Anna Neri');
    await station.close();
    fs.writeFileSync(trainingSandboxFile(tmp.dir), '{"format": "something else"');

    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect((await invoke('orders.page', { view: 'all' })).orders).toEqual([]);
    const moved = broken(tmp.dir);
    expect(moved.some((f) => /^training-sandbox\.sqlite\.broken-\d{8}T\d{6}Z$/.test(f))).toBe(true);
    expect(moved.some((f) => /^training\.sqlite\.broken-\d{8}T\d{6}Z$/.test(f))).toBe(true);
    expect(fs.readFileSync(path.join(tmp.dir, moved.find((f) => f.startsWith('training-sandbox.sqlite'))!), 'utf8')).toBe('{"format": "something else"');
    const line = logs.find((l) => l.startsWith('training data'));
    expect(line).toContain('the sandbox refused its state');
    expect(line).toContain('moved aside');
    // The fresh day works.
    expect((await shipNewOrder(invoke, 'Luca Verdi')).printError).toBeNull();
  });

  it('moves a training database without its sandbox state aside (left by a version that kept the sandbox in memory)', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);
    await shipNewOrder(invoke, 'Sara Blu');
    await station.close();
    fs.rmSync(trainingSandboxFile(tmp.dir));

    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect((await invoke('orders.page', { view: 'all' })).orders).toEqual([]);
    expect(broken(tmp.dir).filter((f) => f.startsWith('training.sqlite.broken-')).length).toBeGreaterThanOrEqual(1);
    expect(logs.find((l) => l.startsWith('training data'))).toContain('holds shipments the sandbox has no state for');
  });

  it('keeps a training database holding only orders when the sandbox state is missing', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);
    await invoke('orders.create', {
      recipient: { name: 'Rita Rosa', street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123', countryCode: 'IT' },
      items: [{ name: 'Tazza', quantity: 1, unitPrice: 9.5 }],
    });
    await station.close();
    fs.rmSync(trainingSandboxFile(tmp.dir), { force: true });

    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect(((await invoke('orders.page', { view: 'all' })).orders).map((o) => o.recipient.name)).toEqual(['Rita Rosa']);
    expect(broken(tmp.dir)).toEqual([]);
    expect(logs.filter((l) => l.startsWith('training data'))).toEqual([]);
  });

  it('moves a sandbox state without its database aside', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);
    await shipNewOrder(invoke, 'Marta Viola');
    await station.close();
    for (const f of ['training.sqlite', 'training.sqlite-wal', 'training.sqlite-shm']) fs.rmSync(path.join(tmp.dir, f), { force: true });

    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect(broken(tmp.dir).filter((f) => f.startsWith('training-sandbox.sqlite.broken-'))).toHaveLength(1);
    expect(logs.find((l) => l.startsWith('training data'))).toContain('has no station database beside it');
    // The fresh day works.
    const res = await shipNewOrder(invoke, 'Nuovo Giorno');
    expect(res.printError).toBeNull();
  });

  it('moves a damaged training database aside with the sandbox state', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    let { station, invoke } = await start(tmp.dir);
    await shipNewOrder(invoke, 'Elena Greco');
    await station.close();
    for (const f of ['training.sqlite-wal', 'training.sqlite-shm']) fs.rmSync(path.join(tmp.dir, f), { force: true });
    fs.writeFileSync(path.join(tmp.dir, 'training.sqlite'), 'not a database at all, just text long enough to have a header');

    const logs: string[] = [];
    ({ station, invoke } = await start(tmp.dir, logs));
    expect((await invoke('app.info')).connection).toBe('online');
    expect((await invoke('orders.page', { view: 'all' })).orders).toEqual([]);
    const moved = broken(tmp.dir);
    expect(moved.some((f) => f.startsWith('training.sqlite.broken-'))).toBe(true);
    expect(moved.some((f) => f.startsWith('training-sandbox.sqlite.broken-'))).toBe(true);
    expect(logs.find((l) => l.startsWith('training data'))).toContain('cannot be used');
  });
});
