/**
 * The day closed once for the warehouse on the supervisor's page (issue 43 item 4): the page in process against
 * a real PostgreSQL and the sandbox over HTTP (one account), `POST /api/day/close` with a supervisor's session.
 * - Labels ahead no bench printed (bought) are cancelled on the sandbox, each refund recorded and summed ("2
 *   labels bought ahead were not used: cancelled, €… refunded", in Italian with a decimal comma and € after);
 *   a label ahead the platform refuses to cancel (409: already in a manifest) is `cancel_refused` and named with
 *   what to do; a label ahead printed in a batch but not used is neither cancelled nor manifested.
 * - The manifests (queried on the sandbox) hold exactly the printed shipments of the online benches: activity
 *   `ship` rows and labels ahead `used`, not voided; never an unused label ahead.
 * - A bench offline is named with its shipments waiting; back online, the next close manifests them, and nothing
 *   is manifested twice.
 * - Without the platform account the close says it cannot run.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeat } from '../../../electron/core/warehouse/claims';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import { createSandbox, type Sandbox } from '../../../electron/sandbox/index';
import type { CloseResult } from '../../../electron/warehouse/ahead-types';
import { startCloseRequests } from '../../../electron/warehouse/close-requests';
import { createWarehousePlatform, type WarehousePlatform } from '../../../electron/warehouse/platform';
import { startSupervisorPage, type RunningPage } from '../../../electron/warehouse/server';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogin, createWarehouse } from '../../support/warehouse';
import { admin, renewingCaller } from '../conformance/admin-client';
import type { Caller } from '../sandbox/helpers';
import { pkg, recipient } from '../sandbox/helpers';
import { asLogin } from './as-login';

let server: TestPostgres;
let db: pg.Pool;
let sb: Sandbox;
let page: RunningPage;
let bare: RunningPage;
let cookie = '';
let call: Caller;
let platform: WarehousePlatform;
const benchUrls: Record<string, string> = {};
/** The Retry-After waits the close asked for (ms): the sandbox's clock is moved on instead of waiting. */
const sleeps: number[] = [];
let seq = 0;

type Shipment = { trackingNumber: string; id: number; cost: { total: number }; carrier: { contractCode: string; contractName: string } };

async function signIn(p: RunningPage): Promise<string> {
  const res = await fetch(new URL('api/sign-in', p.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: '4711' }) });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

async function close(lang: 'en' | 'it' = 'en', on = page, withCookie = cookie): Promise<{ status: number; body: { close: CloseResult; said: string[]; error?: { code: string; message: string } } }> {
  const res = await fetch(new URL(`api/day/close?lang=${lang}`, on.url), { method: 'POST', headers: { cookie: withCookie, 'content-type': 'application/json' }, body: '{}' });
  return { status: res.status, body: (await res.json()) as never };
}

/** A shipment bought on the sandbox for order `key`. */
async function buy(key: string): Promise<Shipment> {
  const r = await call<Shipment>('POST', '/shipments', { recipient: recipient(), packages: [pkg(1.5)], reference: key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Bench `bench` shipped order `key` with `s` (its activity row, as a bench sends it). */
async function shipped(bench: string, key: string, s: Shipment): Promise<void> {
  await asLogin(server, benchUrls[bench]!, (c) =>
    c.query(`INSERT INTO activity (bench_id, seq, at, action, packer, tracking_number, subject, shipment) VALUES ($1, $2, now(), 'ship', 'Marco', $3, $4, $5::jsonb)`, [
      bench,
      ++seq,
      s.trackingNumber,
      key,
      JSON.stringify({ contractCode: s.carrier.contractCode, contractName: s.carrier.contractName, cost: s.cost.total, weight: 1.5, parcels: 1 }),
    ]),
  );
}

/** A label ahead of order `key` in `state`, bought as `s`. */
async function ahead(key: string, s: Shipment, state: 'bought' | 'printed' | 'used', by = 'b1'): Promise<void> {
  await db.query(`INSERT INTO orders (order_key, value) VALUES ($1, '{}'::jsonb) ON CONFLICT DO NOTHING`, [key]);
  await db.query(
    `INSERT INTO labels_ahead (order_key, state, reference, fingerprint, bought_by, tracking_number, platform_id, contract_code, cost, currency, bought_at,
                               printed_at, printed_by, used_at, used_by)
     VALUES ($1, $2, $1, 'fp', 'b1', $3, $4, $5, $6, 'EUR', now(),
             CASE WHEN $2 IN ('printed', 'used') THEN now() END, CASE WHEN $2 IN ('printed', 'used') THEN 'b1' END,
             CASE WHEN $2 = 'used' THEN now() END, CASE WHEN $2 = 'used' THEN $7 END)`,
    [key, state, s.trackingNumber, s.id, s.carrier.contractCode, s.cost.total, by],
  );
}

const manifested = () => sb.state.manifests.flatMap((m) => m.trackingNumbers);

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'dayclose');
  db = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 6 });
  const salt = randomBytes(16);
  const anna = { uid: 'u-anna', name: 'Anna', badge: 'BADGE-ANNA', pinHash: `scrypt$${salt.toString('hex')}$${scryptSync('4711', salt, 32).toString('hex')}`, role: 'supervisor' };
  await db.query(`INSERT INTO shared (key, value, revision) VALUES ('packer:u-anna', $1::jsonb, nextval('shared_revision'))`, [JSON.stringify(anna)]);
  for (const [id, name] of [['b1', 'Bench 1'], ['b2', 'Bench 2'], ['b3', 'Bench 3']] as const) {
    benchUrls[id] = await benchLogin(server, url, `close${id}`);
    await asLogin(server, benchUrls[id], (c) => heartbeat(c, { id, name }, {}));
  }
  sb = await createSandbox({ port: 0, clock: () => new Date() });
  call = renewingCaller(sb, 0);
  platform = createWarehousePlatform({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: sb.clients[0]!.clientId, clientSecret: sb.clients[0]!.clientSecret });
  page = await startSupervisorPage({
    db,
    platform,
    events: { secret: () => null, log: () => undefined, catchUpEveryMs: 3_600_000 },
    closeSleep: async (ms) => {
      sleeps.push(ms);
      sb.clock.advance(ms);
    },
  });
  bare = await startSupervisorPage({ db });
  cookie = await signIn(page);
}, 60_000);

afterAll(async () => {
  await page?.close();
  await bare?.close();
  await sb?.close();
  await db?.end();
  server?.stop();
});

describe('POST /api/day/close', () => {
  it('without the platform account: it says it cannot run', async () => {
    const r = await close('en', bare, await signIn(bare));
    expect(r.status).toBe(409);
    expect(r.body.error).toEqual({ code: 'no_platform', message: expect.stringMatching(/^The day can’t be closed here: the warehouse program was started without the platform account/) });
  });

  it('cancels the unused labels ahead, manifests exactly the printed shipments, names the offline bench and a refused cancel', async () => {
    // Printed and shipped: two at Bench 1, one at Bench 2 (voided after), one label ahead used at Bench 2.
    const s1 = await buy('#1');
    const s2 = await buy('#2');
    const s3 = await buy('#3');
    const used = await buy('#4');
    await shipped('b1', '#1', s1);
    await shipped('b1', '#2', s2);
    await shipped('b2', '#3', s3);
    await asLogin(server, benchUrls.b2!, (c) => c.query(`INSERT INTO activity (bench_id, seq, at, action, tracking_number) VALUES ('b2', $1, now(), 'void', $2)`, [++seq, s3.trackingNumber]));
    await ahead('#4', used, 'used', 'b2');
    // Bench 3 shipped one and went offline.
    const s5 = await buy('#5');
    await shipped('b3', '#5', s5);
    await db.query(`UPDATE benches SET heartbeat_at = now() - interval '2 minutes' WHERE id = 'b3'`);
    // Labels ahead never printed: two to cancel, one the platform will refuse (already in a manifest), one printed in a batch.
    const a1 = await buy('#6');
    const a2 = await buy('#7');
    const refused = await buy('#8');
    const printed = await buy('#9');
    await ahead('#6', a1, 'bought');
    await ahead('#7', a2, 'bought');
    await ahead('#8', refused, 'bought');
    await ahead('#9', printed, 'printed');
    expect((await call('POST', '/manifests', { trackingNumbers: [refused.trackingNumber] })).status).toBe(201);
    const before = sb.state.manifests.length;

    const r = await close('en');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const c = r.body.close;
    const refund = Math.round((a1.cost.total + a2.cost.total) * 100) / 100;
    expect(c.cancelled).toBe(2);
    expect(c.refunded).toBeCloseTo(refund, 2);
    expect(r.body.said[0]).toBe(`2 labels bought ahead were not used: cancelled, €${refund.toFixed(2)} refunded`);
    // On the sandbox: the two are cancelled, the refused one and the printed one are not.
    for (const s of [a1, a2]) expect(sb.state.shipments.find((x) => x.trackingNumber === s.trackingNumber)?.cancelledAt).toBeTruthy();
    for (const s of [refused, printed]) expect(sb.state.shipments.find((x) => x.trackingNumber === s.trackingNumber)?.cancelledAt ?? null).toBeNull();
    const rows = await db.query<{ order_key: string; state: string; cancel_reason: string | null; refund: string | null }>(`SELECT order_key, state, cancel_reason, refund FROM labels_ahead ORDER BY order_key`);
    expect(rows.rows.map((x) => [x.order_key, x.state, x.cancel_reason])).toEqual([
      ['#4', 'used', null],
      ['#6', 'cancelled', 'day_closed'],
      ['#7', 'cancelled', 'day_closed'],
      ['#8', 'cancel_refused', 'day_closed'],
      ['#9', 'printed', null],
    ]);
    expect(Number(rows.rows[1]!.refund)).toBe(a1.cost.total);
    expect(c.cancelRefused).toEqual([{ trackingNumber: refused.trackingNumber, orderKey: '#8', reason: 'invalid_state', message: expect.any(String) }]);
    expect(r.body.said).toContain(`Label ahead ${refused.trackingNumber} (order #8) could not be cancelled: already handed over or in a manifest. Ask the carrier to void it, or claim it in the platform’s web panel.`);

    // The manifests: exactly #1, #2 and the used label ahead #4; never #3 (voided), #5 (offline), #6–#9.
    const made = sb.state.manifests.slice(before);
    expect(made.flatMap((m) => m.trackingNumbers).sort()).toEqual([s1.trackingNumber, s2.trackingNumber, used.trackingNumber].sort());
    expect(c.manifests.map((m) => ({ id: m.manifestId, n: m.shipments }))).toEqual(made.map((m) => ({ id: m.id, n: m.trackingNumbers.length })));
    expect(r.body.said).toContain(`Manifest ${made[0]!.id} · ${s1.carrier.contractName}: 3 shipments`);
    expect(c.offlineBenches).toEqual([{ id: 'b3', name: 'Bench 3', lastSeen: expect.any(String), waiting: 1 }]);
    expect(r.body.said.at(-1)).toMatch(/^Bench 3 is offline \(last seen \d\d\/\d\d, \d\d:\d\d\): its shipment waits for the next close$/);
    const closed = await db.query<{ tracking_number: string; bench_id: string }>(`SELECT tracking_number, bench_id FROM closed_shipments WHERE close_id = $1 ORDER BY bench_id, tracking_number`, [c.id]);
    expect(closed.rows.map((x) => x.tracking_number).sort()).toEqual([s1.trackingNumber, s2.trackingNumber, used.trackingNumber].sort());
  }, 60_000);

  it('a second close, Bench 3 back: only its shipment; nothing manifested twice; in Italian', async () => {
    await asLogin(server, benchUrls.b3!, (c) => heartbeat(c, { id: 'b3', name: 'Bench 3' }, {}));
    const before = sb.state.manifests.length;
    const r = await close('it');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.close.cancelled).toBe(0);
    expect(r.body.close.offlineBenches).toEqual([]);
    const made = sb.state.manifests.slice(before);
    expect(made.flatMap((m) => m.trackingNumbers)).toHaveLength(1);
    const all = manifested();
    expect(new Set(all).size).toBe(all.length);
    expect(r.body.said[0]).toBe('Nessuna etichetta comprata in anticipo è rimasta inutilizzata');
    expect(r.body.said).toContain(`Distinta ${made[0]!.id} · ${made[0]!.contractName}: 1 spedizione`);
    // A third close has nothing to manifest.
    const third = await close('en');
    expect(third.body.close.manifests).toEqual([]);
    expect(third.body.said).toEqual(['No label bought ahead was left unused', 'No printed shipment waited for a manifest']);
    expect(sb.state.manifests.length).toBe(before + made.length);
  }, 60_000);

  it('the Italian sentence of labels cancelled: decimal comma and € after', async () => {
    const a = await buy('#10');
    await ahead('#10', a, 'bought');
    const r = await close('it');
    expect(r.body.said[0]).toBe(`1 etichetta comprata in anticipo non è stata usata: annullata, ${a.cost.total.toFixed(2).replace('.', ',')}\u00a0€ rimborsati`);
  }, 60_000);

  it('5 manifests a minute: a 429 waits its Retry-After and tries again, counted among the day’s 429s', async () => {
    const s = await buy('#11');
    await shipped('b1', '#11', s);
    expect((await admin(sb, 'POST', '/rate-limits', { enabled: true })).status).toBe(200);
    try {
      // The account's 5 manifests of this minute spent elsewhere (the web panel, another program).
      for (let i = 0; i < 5; i++) {
        const other = await buy(`#other-${i}`);
        expect((await call('POST', '/manifests', { trackingNumbers: [other.trackingNumber] })).status).toBe(201);
      }
      const before = sb.state.manifests.length;
      const refusals = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM rate_refusals WHERE route = 'POST /manifests'`)).rows[0]!.n);
      const r = await close('en');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(sleeps.length).toBeGreaterThan(0);
      expect(sleeps.every((ms) => ms >= 1000 && ms <= 60_000)).toBe(true);
      expect(sb.state.manifests.slice(before).flatMap((m) => m.trackingNumbers)).toEqual([s.trackingNumber]);
      expect(r.body.close.manifests).toEqual([expect.objectContaining({ manifestId: sb.state.manifests.at(-1)!.id, shipments: 1 })]);
      expect(Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM rate_refusals WHERE route = 'POST /manifests'`)).rows[0]!.n)).toBe(refusals + sleeps.length);
    } finally {
      await admin(sb, 'POST', '/rate-limits', { enabled: false });
    }
  }, 60_000);

  it('two closes at once: one runs, the other is told a close is under way', async () => {
    const s = await buy('#12');
    await shipped('b1', '#12', s);
    const before = sb.state.manifests.length;
    const both = await Promise.all([close('en'), close('en')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error).toEqual({ code: 'closing', message: 'The day is being closed already: wait for that close to end' });
    expect(sb.state.manifests.slice(before).flatMap((m) => m.trackingNumbers)).toEqual([s.trackingNumber]);
  }, 60_000);

  it('a label ahead whose order the platform’s events took for shipped from the web panel (its reference) is cancelled, never manifested', async () => {
    const a = await buy('#13');
    await ahead('#13', a, 'bought');
    // What apply_platform_events does with the label's shipment.created when no bench shipped it (schema-events.ts).
    await db.query(`UPDATE orders SET shipped_at = now(), tracking_number = $1, shipped_from = 'platform', shipped_by = NULL WHERE order_key = '#13'`, [a.trackingNumber]);
    const before = sb.state.manifests.length;
    const r = await close('en');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.close.cancelled).toBe(1);
    expect(sb.state.manifests.slice(before).flatMap((m) => m.trackingNumbers)).not.toContain(a.trackingNumber);
    expect((await db.query(`SELECT state FROM labels_ahead WHERE order_key = '#13'`)).rows[0]).toEqual({ state: 'cancelled' });
  }, 60_000);

  it('a label ahead’s own shipment.created (a webhook or the catch-up) leaves its order to ship: applied as label_ahead, bought or still on its way', async () => {
    const a = await buy('#14');
    await ahead('#14', a, 'bought');
    // A purchase still on its way: reserved (buying), its tracking number not known yet.
    await db.query(`INSERT INTO orders (order_key, value) VALUES ('#15', '{}'::jsonb) ON CONFLICT DO NOTHING`);
    await db.query(`INSERT INTO labels_ahead (order_key, state, reference, fingerprint, bought_by) VALUES ('#15', 'buying', '#15', 'fp', 'b1')`);
    const b = await buy('#15');
    for (const [s, key] of [[a, '#14'], [b, '#15']] as const) {
      const payload = { event: 'shipment.created', timestamp: new Date().toISOString(), ldv: s.trackingNumber, order_id: key, vector_name: 'GLS' };
      await db.query(
        `INSERT INTO platform_events (dedup_key, event, tracking_number, event_at, payload, source) VALUES ($1, 'shipment.created', $2, now(), $3::jsonb, 'catch_up') ON CONFLICT (dedup_key) DO NOTHING`,
        [`shipment.created:${s.trackingNumber}`, s.trackingNumber, JSON.stringify(payload)],
      );
    }
    await db.query('SELECT apply_platform_events(100, 0)');
    const events = await db.query(`SELECT tracking_number, outcome FROM platform_events WHERE tracking_number = ANY ($1) ORDER BY id`, [[a.trackingNumber, b.trackingNumber]]);
    expect(events.rows).toEqual([
      { tracking_number: a.trackingNumber, outcome: 'label_ahead' },
      { tracking_number: b.trackingNumber, outcome: 'label_ahead' },
    ]);
    const orders = await db.query(`SELECT order_key, shipped_at, shipped_from FROM orders WHERE order_key IN ('#14', '#15') ORDER BY order_key`);
    expect(orders.rows).toEqual([
      { order_key: '#14', shipped_at: null, shipped_from: null },
      { order_key: '#15', shipped_at: null, shipped_from: null },
    ]);
  }, 30_000);

  it('a late purchase a press abandoned and a batch label whose order shipped with another: their events stay the warehouse’s, the close cancels both', async () => {
    // #16: a press stopped waiting for its purchase (abandoned, schema 9) and shipped with its own -2; the late
    // label's cancel by its buyer did not go through.
    await db.query(`INSERT INTO orders (order_key, value) VALUES ('#16', '{}'::jsonb) ON CONFLICT DO NOTHING`);
    const late = await buy('#16');
    await db.query(
      `INSERT INTO labels_ahead (order_key, state, reference, fingerprint, bought_by, tracking_number, platform_id, contract_code, cost, currency, bought_at)
       VALUES ('#16', 'abandoned', '#16', 'fp', 'b1', $1, $2, $3, $4, 'EUR', now())`,
      [late.trackingNumber, late.id, late.carrier.contractCode, late.cost.total],
    );
    // Its shipment.created is the warehouse's own, never "shipped from the web panel".
    const payload = { event: 'shipment.created', timestamp: new Date().toISOString(), ldv: late.trackingNumber, order_id: '#16', vector_name: 'GLS' };
    await db.query(
      `INSERT INTO platform_events (dedup_key, event, tracking_number, event_at, payload, source) VALUES ($1, 'shipment.created', $2, now(), $3::jsonb, 'catch_up')`,
      [`shipment.created:${late.trackingNumber}`, late.trackingNumber, JSON.stringify(payload)],
    );
    expect((await db.query(`SELECT outcome FROM platform_events WHERE tracking_number = $1`, [late.trackingNumber])).rows).toEqual([{ outcome: 'label_ahead' }]);
    // #17: its label ahead printed in a batch, but the order shipped with another label.
    const printedAhead = await buy('#17');
    await ahead('#17', printedAhead, 'printed');
    const other = await buy('#17-2');
    await db.query(`UPDATE orders SET shipped_at = now(), tracking_number = $1, shipped_by = 'b1' WHERE order_key = '#17'`, [other.trackingNumber]);
    const r = await close('en');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rows = await db.query(`SELECT order_key, state, cancel_reason FROM labels_ahead WHERE order_key IN ('#16', '#17') ORDER BY order_key`);
    expect(rows.rows).toEqual([
      { order_key: '#16', state: 'cancelled', cancel_reason: 'late' },
      { order_key: '#17', state: 'cancelled', cancel_reason: 'unused' },
    ]);
    expect(sb.state.manifests.flatMap((m) => m.trackingNumbers)).not.toContain(late.trackingNumber);
    expect(sb.state.manifests.flatMap((m) => m.trackingNumbers)).not.toContain(printedAhead.trackingNumber);
  }, 60_000);

  it('a close asked at a bench with the supervisor’s PIN (close_requests): the program closes the day as the page does and answers', async () => {
    const s = await buy('#14');
    await shipped('b2', '#14', s);
    const program = startCloseRequests({ db, platform, log: () => undefined, pollMs: 200 });
    try {
      const id = await asLogin(server, benchUrls.b2!, async (c) => (await c.query<{ id: string }>(`SELECT request_warehouse_close('b2', 'Anna') AS id`)).rows[0]!.id);
      let row: { state: string; close_id: string | null; message: string | null } | undefined;
      for (let i = 0; i < 100 && row?.state !== 'done' && row?.state !== 'refused'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        row = (await db.query(`SELECT state, close_id::text AS close_id, message FROM close_requests WHERE id = $1`, [id])).rows[0];
      }
      expect(row).toMatchObject({ state: 'done', message: null });
      const c = (await db.query(`SELECT closed_at_place AS place, packer FROM warehouse_closes WHERE id = $1`, [row!.close_id])).rows[0];
      expect(c).toEqual({ place: 'b2', packer: 'Anna' });
      expect((await db.query(`SELECT close_id::text AS id FROM closed_shipments WHERE tracking_number = $1`, [s.trackingNumber])).rows).toEqual([{ id: row!.close_id }]);
    } finally {
      await program.stop();
    }
  }, 60_000);
});
