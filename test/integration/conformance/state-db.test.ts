/**
 * The sandbox's state in SQLite (state-db.ts; `createSandbox({stateFile:
 * '….sqlite'})`): the same state comes back after a restart, a save writes
 * only the rows that changed, retention drops old settled shipments, a JSON
 * state file is taken over once, and a damaged database is refused.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, demoSeed, SandboxStateError, type Sandbox, type SandboxOptions } from '../../../electron/sandbox/index';
import { SqliteStatePersistence } from '../../../electron/sandbox/state-db';
import { encodeState, type Json } from '../../../electron/sandbox/state-codec';
import { MONDAY_2026_09_14, pkg, recipient } from '../sandbox/helpers';
import { admin, advance, renewingCaller } from './admin-client';

const dirs: string[] = [];
const open: Sandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-state-db-'));
  dirs.push(d);
  return d;
}

async function sandbox(opts: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sb = await createSandbox({ port: 0, clock: MONDAY_2026_09_14, seed: { ...demoSeed(), randomSeed: 5 }, ...opts });
  open.push(sb);
  return sb;
}

async function closeSandbox(sb: Sandbox): Promise<void> {
  await sb.close();
  open.splice(open.indexOf(sb), 1);
}

type Ok = (p: Promise<{ status: number; body: unknown }>, status: number) => Promise<Record<string, unknown>>;
const ok: Ok = async (p, status) => {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body as Record<string, unknown>;
};

/** Shipments (COD, multi-parcel, cancelled), a manifest, a pickup, a webhook and three days of carrier progress. */
async function populate(sb: Sandbox): Promise<string[]> {
  const a = renewingCaller(sb, 0);
  const s1 = await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1), pkg(2)], reference: 'P-1', options: { cod: { amount: 25 } } }), 201);
  const s2 = await ok(a('POST', '/shipments', { recipient: recipient({ city: 'Roma', province: 'RM', postalCode: '00184' }), packages: [pkg(3)], reference: 'P-2' }), 201);
  const s3 = await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'P-3' }), 201);
  await ok(a('DELETE', `/shipments/${String(s3.trackingNumber)}`), 200);
  await ok(a('POST', '/manifests', { trackingNumbers: [s1.trackingNumber] }), 201);
  await ok(a('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(2)] }), 201);
  await ok(a('POST', '/webhooks', { url: 'https://receiver.example/hooks', events: ['tracking.update', 'shipment.created'] }), 201);
  await advance(sb, { days: 3 });
  await ok(a('GET', `/shipments/${String(s1.trackingNumber)}/tracking`), 200);
  return [String(s1.trackingNumber), String(s2.trackingNumber), String(s3.trackingNumber)];
}

/**
 * An encoded state with shared objects written out at each place (`$id`
 * dropped, `$ref` replaced by the object): rows are encoded one by one, so
 * a value object such as a `Date` shared by a shipment and a credit movement,
 * or a payload list shared by two events, comes back as two equal objects.
 */
function unshared(json: Json): Json {
  const byId = new Map<number, Json>();
  const collect = (j: Json): void => {
    if (j === null || typeof j !== 'object') return;
    if (Array.isArray(j)) return j.forEach(collect);
    if (typeof j.$id === 'number') byId.set(j.$id, j);
    Object.values(j).forEach(collect);
  };
  collect(json);
  const out = (j: Json): Json => {
    if (j === null || typeof j !== 'object') return j;
    if (Array.isArray(j)) return j.map(out);
    if (typeof j.$ref === 'number' && Object.keys(j).length === 1) return out(byId.get(j.$ref) ?? null);
    if ((j.$t === 'Array' || j.$t === 'Object') && j.v !== undefined) return out(j.v);
    const o: Record<string, Json> = {};
    for (const [k, v] of Object.entries(j)) if (k !== '$id') o[k] = out(v);
    return o;
  };
  return out(json);
}

/** What a client sees of the state: the shipment list, credit, and each shipment's detail and tracking. */
async function clientView(sb: Sandbox, ldvs: string[]): Promise<unknown> {
  const a = renewingCaller(sb, 0);
  const out: unknown[] = [(await a<{ data: unknown }>('GET', '/shipments')).body.data, (await a('GET', '/credit')).body];
  for (const ldv of ldvs) out.push((await a('GET', `/shipments/${ldv}`)).body, (await a('GET', `/shipments/${ldv}/tracking`)).body);
  return out;
}

describe('sandbox state in SQLite', () => {
  it('keeps every field across a restart, with identity between a shipment, its index and its journey', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox({ stateFile: file });
    const ldvs = await populate(first);
    const view1 = await clientView(first, ldvs);
    first.state.lifecycle.advance();
    const before = unshared(encodeState(first.state).json);
    await closeSandbox(first);

    const second = await sandbox({ stateFile: file });
    second.clock.set(first.clock.now());
    second.state.lifecycle.advance();
    expect(unshared(encodeState(second.state).json)).toEqual(before);
    const s = second.state.shipments[0]!;
    const account = second.state.accountById(s.accountId)!;
    expect(second.state.shipmentByTracking(account, s.trackingNumber)).toBe(s);
    expect(second.state.lifecycle.journeyOf(s).shipment).toBe(s);
    expect(await clientView(second, ldvs)).toEqual(view1);
  });

  it('writes only the rows that changed: one cancelled shipment among many is one row', async () => {
    const sb = await sandbox();
    const a = renewingCaller(sb, 0);
    const ldvs: string[] = [];
    for (let i = 0; i < 30; i++) ldvs.push(String((await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: `R-${i}` }), 201)).trackingNumber));
    // The carrier's first look at each shipment caches its collection instant (a change of the row).
    sb.state.lifecycle.advance();
    const store = new SqliteStatePersistence(sb.state, join(tempDir(), 'state.sqlite'), { verifyBatch: 4 });
    expect(store.load()).toBe(false);
    await store.save();
    expect(store.lastSave).toMatchObject({ rowsWritten: 30, rootWritten: true });
    await store.save();
    expect(store.lastSave).toMatchObject({ rowsWritten: 0, rowsDeleted: 0, rootWritten: false });
    await ok(a('DELETE', `/shipments/${ldvs[17]!}`), 200);
    await store.save();
    expect(store.lastSave.rowsWritten).toBe(1);
    await store.close();
  });

  it('reads a label row when the label is first asked for, not at start, and a save leaves unread labels alone', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox();
    const a = renewingCaller(first, 0);
    for (let i = 0; i < 3; i++) await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: `L-${i}` }), 201);
    first.state.lifecycle.advance();
    const writer = new SqliteStatePersistence(first.state, file);
    writer.load();
    await writer.close();
    const [s0, s1] = first.state.shipments;

    const second = await sandbox();
    const store = new SqliteStatePersistence(second.state, file, { verifyBatch: 10 });
    expect(store.load()).toBe(true);
    // Swap two label rows behind the loaded state: a label read at start would not see it.
    const db = new Database(file);
    const body = (id: number) => db.prepare<[number], { body: string }>('SELECT body FROM labels WHERE id = ?').get(id)!.body;
    const [b0, b1] = [body(s0!.id), body(s1!.id)];
    db.prepare('UPDATE labels SET body = ? WHERE id = ?').run(b1, s0!.id);
    const loaded = second.state.shipments.find((s) => s.id === s0!.id)!;
    expect(loaded.label).toEqual(s1!.label);
    db.prepare('UPDATE labels SET body = ? WHERE id = ?').run(b0, s0!.id);
    // Unread labels keep their rows; the shipment rows encode to what was written (nothing rewritten).
    await store.save();
    expect(store.lastSave).toMatchObject({ rowsWritten: 0, rowsDeleted: 0 });
    expect(body(s1!.id)).toBe(b1);
    // A label set after start is written.
    const other = second.state.shipments.find((s) => s.id === s1!.id)!;
    other.label = { pdf: 'JVBERi0=', zpl: null };
    await store.save();
    expect(JSON.parse(body(s1!.id))).toEqual(encodeState({ label: { pdf: 'JVBERi0=', zpl: null } }).json);
    db.close();
    await store.close();
  });

  it('drops shipments settled longer ago than the retention, at load, and keeps the others', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox({ stateFile: file });
    const a = renewingCaller(first, 0);
    const old = await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'OLD' }), 201);
    await advance(first, { days: 30 });
    const recent = await ok(a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], reference: 'RECENT' }), 201);
    expect(first.state.shipments.find((s) => s.reference === 'OLD')?.statusCode).toBe(5);
    await closeSandbox(first);
    const rows = (f: string) => {
      const db = new Database(f, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM shipments').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(rows(file)).toBe(2);

    const second = await sandbox({ stateFile: file, stateRetentionDays: 7 });
    second.clock.set(first.clock.now());
    const b = renewingCaller(second, 0);
    expect((await b('GET', `/shipments/${String(old.trackingNumber)}`)).status).toBe(404);
    expect((await b('GET', `/shipments/${String(recent.trackingNumber)}`)).status).toBe(200);
    await closeSandbox(second);
    expect(rows(file)).toBe(1);
  });

  it('after a reset, the database holds the fresh state, not the shipments made before', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox({ stateFile: file });
    const ldvs = await populate(first);
    expect((await admin(first, 'POST', '/reset', {})).status).toBe(200);
    await first.flushState();
    await closeSandbox(first);

    const second = await sandbox({ stateFile: file });
    const b = renewingCaller(second, 0);
    for (const ldv of ldvs) expect((await b('GET', `/shipments/${ldv}`)).status).toBe(404);
    expect(second.state.shipments).toHaveLength(0);
  });

  it('takes a JSON state file over once and renames it aside', async () => {
    const dir = tempDir();
    const json = join(dir, 'state.json');
    const first = await sandbox({ stateFile: json });
    const ldvs = await populate(first);
    const view1 = await clientView(first, ldvs);
    await closeSandbox(first);

    const second = await sandbox({ stateFile: join(dir, 'state.sqlite'), legacyStateFile: json });
    second.clock.set(first.clock.now());
    expect(await clientView(second, ldvs)).toEqual(view1);
    expect(existsSync(json)).toBe(false);
    expect(readdirSync(dir).filter((f) => /^state\.json\.migrated-\d{8}T\d{6}Z$/.test(f))).toHaveLength(1);
  });

  it('loads gradually: the state changes only once all rows are read, as a plain load would', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox({ stateFile: file });
    await populate(first);
    first.state.lifecycle.advance();
    await closeSandbox(first);

    const plain = await sandbox();
    new SqliteStatePersistence(plain.state, file).load();
    const gradual = await sandbox();
    const store = new SqliteStatePersistence(gradual.state, file, { loadSliceRows: 1 });
    let pauses = 0;
    const loaded = await store.loadGradually(() => {
      pauses++;
      // Between slices the state is still the one before the load.
      expect(gradual.state.shipments).toHaveLength(0);
      return new Promise((resolve) => setImmediate(resolve));
    });
    expect(loaded).toBe(true);
    // One pause per row read (slices of one): every shipment and every item of the append-only lists.
    const db = new Database(file, { readonly: true });
    const rows = db.prepare<[], number>('SELECT (SELECT count(*) FROM shipments) + (SELECT count(*) FROM log)').pluck().get();
    db.close();
    expect(pauses).toBe(rows);
    expect(pauses).toBeGreaterThan(plain.state.shipments.length);
    expect(unshared(encodeState(gradual.state).json)).toEqual(unshared(encodeState(plain.state).json));
    await store.close();
  });

  it('with loadStateGradually, listens at once and answers the first requests from the saved state', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox({ stateFile: file });
    const ldvs = await populate(first);
    const view1 = await clientView(first, ldvs);
    await closeSandbox(first);
    const second = await sandbox({ stateFile: file, loadStateGradually: true });
    second.clock.set(first.clock.now());
    expect(await clientView(second, ldvs)).toEqual(view1);
  });

  it('with loadStateGradually, a row that cannot be read answers 500 naming the file and moves the file aside', async () => {
    const file = join(tempDir(), 'state.sqlite');
    const first = await sandbox({ stateFile: file });
    await populate(first);
    await closeSandbox(first);
    const db = new Database(file);
    db.prepare('UPDATE shipments SET body = ? WHERE id = (SELECT min(id) FROM shipments)').run('{"shipment": not json');
    db.close();
    const second = await sandbox({ stateFile: file, loadStateGradually: true });
    // Even the token endpoint: nothing answers from a half-read state.
    const r = await fetch(`${second.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    expect(r.status).toBe(500);
    expect(await r.text()).toMatch(/state\.sqlite is not usable/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(file, '..')).some((f) => f.startsWith('state.sqlite.unusable-'))).toBe(true);
    await closeSandbox(second);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a file that is not its database and leaves it untouched', async () => {
    const file = join(tempDir(), 'state.sqlite');
    writeFileSync(file, 'not a database at all, just text that is long enough to have a header');
    const err = await sandbox({ stateFile: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxStateError);
    expect((err as Error).message).toMatch(/state\.sqlite is not usable/);
  });

  it('refuses retention without a .sqlite state file, naming the option', async () => {
    await expect(sandbox({ stateFile: join(tempDir(), 'state.json'), stateRetentionDays: 30 })).rejects.toThrow(/stateRetentionDays/);
  });
});
