/**
 * Years at the same bench (issue 27): retention prunes label bytes and done
 * outbox rows and keeps the shipment's facts; a reprint of a shipment older
 * than the retention fetches the label again from the platform (the sandbox)
 * and prints it; start-up runs no whole-file check; the background check's
 * result reaches the header (`app.changed` / `app.info`) and Settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppInfo } from '../../../shared/contract/views';
import { databaseFile } from '../../../electron/core/station';
import { startStation, type StartedStation } from '../../../electron/shell/start';
import type { Sandbox } from '../../../electron/sandbox/index';
import { invokerOf, parcel, recipient, startSandbox, stationConfig, switchableFetch, tempDir } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  vi.restoreAllMocks();
});

async function setup(opts: { idleMs?: number; tickMs?: number } = {}): Promise<{ sb: Sandbox; dir: string; station: StartedStation; labelsDir: string; calls: string[] }> {
  const net = switchableFetch();
  const sb = await startSandbox();
  cleanups.push(() => sb.close());
  const tmp = tempDir('station-years-');
  cleanups.push(tmp.cleanup);
  const labelsDir = path.join(tmp.dir, 'printed');
  const station = await startStation(stationConfig(sb, tmp.dir, `file://${labelsDir}`), { fetch: net.fetch, maintenance: { idleMs: opts.idleMs ?? 3_600_000, tickMs: opts.tickMs ?? 3_600_000 } });
  cleanups.push(() => station.close());
  return { sb, dir: tmp.dir, station, labelsDir, calls: net.state.calls };
}

async function ship(station: StartedStation, orderNumber: string): Promise<string> {
  const invoke = invokerOf(() => station);
  const r = recipient();
  const order = await invoke('orders.create', {
    orderNumber,
    recipient: { name: r.name, street: r.address.street, city: r.address.city, province: r.address.province, postalCode: r.address.postalCode, countryCode: r.address.countryCode },
    items: [{ sku: 'TAZ-CER-BLU', name: 'Tazza', quantity: 1, unitPrice: 12.5 }],
  });
  const res = await invoke('shipping.shipOrder', { orderId: order.id, request: { recipient: r, packages: [parcel()], reference: orderNumber } });
  return res.shipment.trackingNumber;
}

/** Moves a shipment, its label and its outbox row `days` days into the past (as a year of use leaves them). */
function age(dir: string, trackingNumber: string, days: number): void {
  const db = new Database(databaseFile(dir, 'platform'));
  try {
    const at = new Date(Date.now() - days * 86_400_000).toISOString();
    db.prepare('UPDATE shipments SET created_at = ? WHERE tracking_number = ?').run(at, trackingNumber);
    db.prepare('UPDATE labels SET created_at = ? WHERE tracking_number = ?').run(at, trackingNumber);
    db.prepare(`UPDATE outbox SET updated_at = ? WHERE state = 'done'`).run(at);
  } finally {
    db.close();
  }
}

describe('retention', () => {
  it('prunes label bytes and done outbox rows past the retention, keeps the facts; an old reprint refetches and prints', async () => {
    const { dir, station, labelsDir, calls } = await setup({ idleMs: 0, tickMs: 20 });
    const invoke = invokerOf(() => station);
    const oldLdv = await ship(station, 'Y-OLD');
    const newLdv = await ship(station, 'Y-NEW');
    await vi.waitFor(() => expect(fs.readdirSync(labelsDir).length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    age(dir, oldLdv, 120);

    // The station's own idle step prunes them (idle at once in this test, a tick every 20 ms).
    // Each shipment has its ZPL and its PDF label: the old one's two are pruned.
    await vi.waitFor(async () => expect((await invoke('storage.get')).labelsKept).toBe(2), { timeout: 20_000 });
    await vi.waitFor(async () => expect((await invoke('outbox.list', { doneLimit: 200 })).done).toEqual([]), { timeout: 20_000 });
    const check = new Database(databaseFile(dir, 'platform'), { readonly: true });
    const labelRows = check.prepare('SELECT DISTINCT tracking_number, length(bytes) > 0 AS size, pruned_at IS NOT NULL AS pruned_at FROM labels ORDER BY id').all() as Array<{ tracking_number: string; size: number; pruned_at: number }>;
    check.close();
    expect(labelRows.map((r) => [r.tracking_number, r.size === 1, r.pruned_at === 1])).toEqual([
      [oldLdv, false, true],
      [newLdv, true, false],
    ]);
    const after = await invoke('storage.get');
    expect(after.labelsKept).toBe(2);
    const facts = await invoke('shipments.recent', { limit: 10 });
    const old = facts.find((s) => s.trackingNumber === oldLdv);
    expect(old).toMatchObject({ trackingNumber: oldLdv, orderNumber: 'Y-OLD' });
    expect(facts.some((s) => s.trackingNumber === newLdv)).toBe(true);

    const labelCalls = () => calls.filter((c) => c.endsWith('/label'));
    const printedBefore = fs.readdirSync(labelsDir);
    const job = await invoke('labels.reprint', { trackingNumber: oldLdv });
    expect(job.state === 'printed' || job.state === 'queued').toBe(true);
    expect(labelCalls()).toEqual([expect.stringMatching(new RegExp(`^GET .*/shipments/${oldLdv}/label$`))]);
    // The refetched label reaches the printer: a new file carrying the old tracking number.
    await vi.waitFor(
      () => expect(fs.readdirSync(labelsDir).filter((f) => !printedBefore.includes(f)).some((f) => fs.readFileSync(path.join(labelsDir, f), 'latin1').includes(oldLdv))).toBe(true),
      { timeout: 10_000 },
    );
    // A label within the retention reprints from its stored bytes, without the platform.
    await invoke('labels.reprint', { trackingNumber: newLdv });
    expect(labelCalls()).toHaveLength(1);
  }, 60_000);
});

describe('retention of the label folder', () => {
  it("deletes the station's own printed files past the retention in an idle moment, keeps recent ones", async () => {
    const { dir } = await setup({ idleMs: 0, tickMs: 20 });
    const own = path.join(dir, 'labels');
    fs.mkdirSync(own, { recursive: true });
    const write = (name: string, ageDays: number) => {
      const f = path.join(own, name);
      fs.writeFileSync(f, '^XA^XZ');
      const at = new Date(Date.now() - ageDays * 86_400_000);
      fs.utimesSync(f, at, at);
    };
    write('OLD.zpl', 120);
    write('OLD.png', 120);
    write('NEW.zpl', 2);
    await vi.waitFor(() => expect(fs.readdirSync(own).sort()).toEqual(['NEW.zpl']), { timeout: 20_000 });
  }, 60_000);
});

describe('start and the background check', () => {
  it('start runs no whole-file check; the check runs in an idle moment and its result reaches the header and Settings', async () => {
    const pragmas: string[] = [];
    const orig = Database.prototype.pragma;
    vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
      pragmas.push(source);
      return orig.call(this, source, options);
    });
    const { station } = await setup({ idleMs: 0, tickMs: 20 });
    expect(pragmas.filter((p) => /^\s*(quick_check|integrity_check)\s*$/i.test(p))).toEqual([]);
    const seen: AppInfo['integrity'][] = [];
    const done = new Promise<AppInfo['integrity']>((resolve) => {
      station.events.on('app.changed', (info) => {
        seen.push(info.integrity);
        if (info.integrity.state !== 'pending' && info.integrity.state !== 'running') resolve(info.integrity);
      });
    });
    const result = await done;
    expect(result).toMatchObject({ state: 'ok', problems: [] });
    expect(result.checkedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(seen[0]?.state).toBe('running');
    const invoke = invokerOf(() => station);
    expect((await invoke('storage.get')).integrity.state).toBe('ok');
    expect((await invoke('app.info')).integrity.state).toBe('ok');
  }, 60_000);

  it('after an unclean stop (a WAL left behind) the check starts at once and says so', async () => {
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const tmp = tempDir('station-years-');
    cleanups.push(tmp.cleanup);
    const first = await startStation(stationConfig(sb, tmp.dir, `file://${tmp.dir}/printed`), { maintenance: { idleMs: 3_600_000, tickMs: 3_600_000 } });
    await first.close();
    // What a kill leaves: the database's WAL, not yet checkpointed.
    const db = new Database(databaseFile(tmp.dir, 'platform'));
    db.pragma('wal_autocheckpoint = 0');
    db.prepare(`INSERT INTO settings (key, value, updated_at) VALUES ('test.unclean', '1', 't')`).run();
    fs.copyFileSync(`${databaseFile(tmp.dir, 'platform')}-wal`, `${tmp.dir}/kept-wal`);
    db.close();
    fs.copyFileSync(`${tmp.dir}/kept-wal`, `${databaseFile(tmp.dir, 'platform')}-wal`);
    const station = await startStation(stationConfig(sb, tmp.dir, `file://${tmp.dir}/printed`), { maintenance: { idleMs: 3_600_000, tickMs: 3_600_000 } });
    cleanups.push(() => station.close());
    const invoke = invokerOf(() => station);
    await vi.waitFor(async () => expect((await invoke('storage.get')).integrity.state).toBe('ok'), { timeout: 20_000 });
    expect((await invoke('app.info')).integrity).toMatchObject({ state: 'ok', afterUncleanStop: true });
  }, 60_000);
});
