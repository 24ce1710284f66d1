/**
 * The supervisor's page for labels ahead (issue 43 items 3, 5, 6), in process against a real PostgreSQL, through
 * the page's HTTP API with a supervisor's session:
 * - the settings round trip, and refusals that name the field (a headroom of 40, an unknown rule, a stray key);
 * - a batch print of a SKU: the labels ahead bought of unshipped, unclaimed orders of that SKU, sorted by SKU and
 *   bin (then order), set `batched` with their batch and position in the same transaction as the batch row;
 *   reversed when the printer stacks face down; two batches asked at once never share a label; an offline bench
 *   refused; the pick list PDF read back (pdf.js) in the same order, in English and Italian;
 * - `GET /api/budget`: labels ahead waiting, batched, bought, printed, used, cancelled and refunded today, and the
 *   packers' label wait p50/p95 today from rate_waits.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeat } from '../../../electron/core/warehouse/claims';
import { warehouseClientConfig } from '../../../electron/core/warehouse/connection';
import type { AheadAnswer } from '../../../electron/warehouse/ahead-types';
import type { BatchView } from '../../../electron/warehouse/batch';
import type { BudgetView } from '../../../electron/warehouse/platform-view';
import { startSupervisorPage, type RunningPage } from '../../../electron/warehouse/server';
import { pdfTextItems } from '../../support/pdf-text';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogin, createWarehouse } from '../../support/warehouse';
import { asLogin } from './as-login';

let server: TestPostgres;
let db: pg.Pool;
let page: RunningPage;
let cookie = '';
let bench1 = '';

async function api<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, page.url), { method, headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: (await res.json()) as T };
}

/** An order and its label ahead bought (sku, bin), tracking number `tn`. */
async function labelAhead(key: string, o: { sku: string; bin: string | null; shop?: string; items?: number; quantity?: number; state?: string; tn?: string }): Promise<void> {
  const items = Array.from({ length: o.items ?? 1 }, (_, i) => ({ sku: i === 0 ? o.sku : `${o.sku}-X${i}`, name: `Product ${o.sku}${i ? ` ${i}` : ''}`, quantity: i === 0 ? (o.quantity ?? 1) : 1 }));
  await db.query(`INSERT INTO orders (order_key, value) VALUES ($1, $2::jsonb)`, [key, JSON.stringify({ orderNumber: key.split('#')[1], shop: o.shop ?? 'Bottega', items })]);
  await db.query(
    `INSERT INTO labels_ahead (order_key, state, reference, fingerprint, sku, bin, bought_by, tracking_number, contract_code, cost, bought_at)
     VALUES ($1, $2, $1, 'fp', $3, $4, 'b1', $5, 'BRT', 6.5, now())`,
    [key, o.state ?? 'bought', o.sku, o.bin, o.tn ?? `TN${key.replace(/\W/g, '')}`],
  );
}

/** The pick list of batch `id` in `lang` as pdf.js reads it. */
async function pickText(id: number, lang: 'en' | 'it'): Promise<string[]> {
  const res = await fetch(new URL(`api/batches/${id}/pick-list.pdf?lang=${lang}`, page.url), { headers: { cookie } });
  return (await pdfTextItems(new Uint8Array(await res.arrayBuffer()))).flat();
}

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'aheadpage');
  db = new pg.Pool({ ...warehouseClientConfig(url, server.password).config, max: 6 });
  const salt = randomBytes(16);
  const anna = { uid: 'u-anna', name: 'Anna', badge: 'BADGE-ANNA', pinHash: `scrypt$${salt.toString('hex')}$${scryptSync('4711', salt, 32).toString('hex')}`, role: 'supervisor' };
  await db.query(`INSERT INTO shared (key, value, revision) VALUES ('packer:u-anna', $1::jsonb, nextval('shared_revision'))`, [JSON.stringify(anna)]);
  const rules = { version: 1, rules: [{ name: 'Mugs by BRT', then: { contract: 'BRT', shipByItself: true } }, { name: 'Fragile', then: { rate: 'cheapest' } }] };
  await db.query(`INSERT INTO shared (key, value, revision) VALUES ('setting:rules.document', $1::jsonb, nextval('shared_revision'))`, [JSON.stringify(rules)]);
  bench1 = await benchLogin(server, url, 'bench1');
  await asLogin(server, bench1, (c) => heartbeat(c, { id: 'b1', name: 'Bench 1' }, {}));
  const bench2 = await benchLogin(server, url, 'bench2');
  await asLogin(server, bench2, (c) => heartbeat(c, { id: 'b2', name: 'Bench 2' }, {}));
  await db.query(`UPDATE benches SET heartbeat_at = now() - interval '5 minutes' WHERE id = 'b2'`);
  page = await startSupervisorPage({ db });
  const res = await fetch(new URL('api/sign-in', page.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: '4711' }) });
  expect(res.status).toBe(200);
  cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}, 60_000);

afterAll(async () => {
  await page?.close();
  await db?.end();
  server?.stop();
});

describe('labels-ahead settings', () => {
  it('round trip: off by default, then on for a chosen rule, the last 6 hours, headroom 8, face down', async () => {
    const before = await api<AheadAnswer>('GET', 'api/ahead');
    expect(before.status).toBe(200);
    expect(before.body.settings).toEqual({ enabled: false, rules: null, horizonHours: null, headroom: 5, faceDown: false });
    expect(before.body.rules).toEqual([
      { name: 'Mugs by BRT', enabled: true, shipByItself: true },
      { name: 'Fragile', enabled: true, shipByItself: false },
    ]);
    expect(before.body.benches).toEqual([
      { id: 'b1', name: 'Bench 1', online: true },
      { id: 'b2', name: 'Bench 2', online: false },
    ]);
    expect(before.body.platformGiven).toBe(false);
    const wanted = { enabled: true, rules: ['Mugs by BRT'], horizonHours: 6, headroom: 8, faceDown: true };
    const put = await api<{ settings: unknown }>('PUT', 'api/ahead/settings', wanted);
    expect(put.status).toBe(200);
    expect(put.body.settings).toEqual(wanted);
    expect((await api<AheadAnswer>('GET', 'api/ahead')).body.settings).toEqual(wanted);
    const back = { enabled: true, rules: null, horizonHours: null, headroom: 5, faceDown: false };
    expect((await api<{ settings: unknown }>('PUT', 'api/ahead/settings', back)).body.settings).toEqual(back);
  });

  it('refusals name the field, and nothing is written', async () => {
    const base = { enabled: true, rules: null, horizonHours: null, headroom: 5, faceDown: false };
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...base, headroom: 40 }, 'headroom', /^headroom: headroom must be between 0 and 29|^headroom must be between 0 and 29/],
      [{ ...base, horizonHours: 0 }, 'horizonHours', /horizonHours must be between 1 and 720 hours/],
      [{ ...base, horizonHours: 2.5 }, 'horizonHours', /whole number of hours/],
      [{ ...base, rules: ['Nope'] }, 'rules', /no rule is named “Nope”/],
      [{ ...base, rules: [] }, 'rules', /choose at least one rule/],
      [{ ...base, enabled: 'yes' }, 'enabled', /enabled must be true or false/],
      [{ ...base, colour: 'red' }, 'colour', /colour is not a setting of labels ahead/],
      [{ enabled: true }, 'rules', /rules must be null/],
    ];
    for (const [body, field, message] of cases) {
      const r = await api<{ error: { code: string; field: string; message: string } }>('PUT', 'api/ahead/settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.field).toBe(field);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await api<AheadAnswer>('GET', 'api/ahead')).body.settings).toEqual(base);
  });
});

describe('batch print', () => {
  it('a SKU: sorted by bin then order, batched with positions in one transaction; the pick list in the same order', async () => {
    await labelAhead('Bottega#3', { sku: 'MUG-1', bin: 'B-10' });
    await labelAhead('Bottega#1', { sku: 'MUG-1', bin: 'B-9' });
    await labelAhead('Bottega#2', { sku: 'MUG-1', bin: 'B-9' });
    await labelAhead('Bottega#4', { sku: 'MUG-1', bin: null, items: 2 });
    await labelAhead('Bottega#5', { sku: 'CUP-2', bin: 'A-1' });
    // Not printed: shipped, claimed by a live bench, already used.
    await labelAhead('Bottega#6', { sku: 'MUG-1', bin: 'A-1' });
    await db.query(`UPDATE orders SET shipped_at = now() WHERE order_key = 'Bottega#6'`);
    await labelAhead('Bottega#7', { sku: 'MUG-1', bin: 'A-1' });
    await db.query(`INSERT INTO claims (order_key, bench_id, packer) VALUES ('Bottega#7', 'b1', 'Marco')`);
    await labelAhead('Bottega#8', { sku: 'MUG-1', bin: 'A-1', state: 'used' });
    const waiting = (await api<AheadAnswer>('GET', 'api/ahead')).body.waiting;
    expect(waiting).toMatchObject({ total: 6, single: 5, skus: [{ value: 'CUP-2', n: 1 }, { value: 'MUG-1', n: 5 }] });

    const r = await api<{ batch: BatchView }>('POST', 'api/batches', { benchId: 'b1', selection: { kind: 'sku', value: 'MUG-1' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.batch).toMatchObject({ benchId: 'b1', bench: 'Bench 1', selection: { kind: 'sku', value: 'MUG-1' }, faceDown: false, labels: 4, printed: 0, state: 'waiting' });
    const rows = await db.query<{ order_key: string; state: string; batch_pos: number }>(`SELECT order_key, state, batch_pos FROM labels_ahead WHERE batch_id = $1 ORDER BY batch_pos`, [r.body.batch.id]);
    expect(rows.rows.map((x) => [x.order_key, x.state, x.batch_pos])).toEqual([
      ['Bottega#1', 'batched', 1],
      ['Bottega#2', 'batched', 2],
      ['Bottega#3', 'batched', 3],
      ['Bottega#4', 'batched', 4],
    ]);
    // The batch row and its labels were written together: the batch's count is its labels'.
    const b = await db.query<{ labels: number; xmin_batch: string; xmin_labels: string[] }>(
      `SELECT lb.labels, lb.xmin::text AS xmin_batch, array_agg(DISTINCT la.xmin::text) AS xmin_labels FROM label_batches lb JOIN labels_ahead la ON la.batch_id = lb.id WHERE lb.id = $1 GROUP BY lb.id`,
      [r.body.batch.id],
    );
    expect(b.rows[0]!.labels).toBe(4);
    expect(b.rows[0]!.xmin_labels).toEqual([b.rows[0]!.xmin_batch]);

    const pdf = await fetch(new URL(`api/batches/${r.body.batch.id}/pick-list.pdf?lang=en`, page.url), { headers: { cookie } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = (await pdfTextItems(new Uint8Array(await pdf.arrayBuffer()))).flat();
    expect(text).toContain(`Pick list: batch ${r.body.batch.id}`);
    // pdf.js joins cells that touch: the text as one line, a space between items.
    const line = text.join(' ').replace(/\s+/g, ' ');
    expect(line).toMatch(/# SKU Bin Product Qty Order Shop Tracking number/);
    expect(line).toMatch(/1 MUG-1 B-9 Product MUG-1 1 1 Bottega TNBottega1 2 MUG-1 B-9 Product MUG-1 1 2 Bottega TNBottega2 3 MUG-1 B-10 Product MUG-1 1 3 Bottega TNBottega3 4 MUG-1 Product MUG-1 \+ 1 × Produc.* 1 4 Bottega TNBottega4/);
    const order = ['TNBottega1', 'TNBottega2', 'TNBottega3', 'TNBottega4'].map((tn) => text.indexOf(tn));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, z) => a - z)).toEqual(order);

    const it = await pickText(r.body.batch.id, 'it');
    expect(it).toContain(`Lista di prelievo: lotto ${r.body.batch.id}`);
    expect(it.join(' ').replace(/\s+/g, ' ')).toMatch(/# SKU Ubicazione Prodotto Q\.tà Ordine Negozio Lettera di vettura 1 MUG-1 B-9/);
  });

  it('face down: the last label first; two batches asked at once never share a label; an offline bench refused', async () => {
    await db.query(`UPDATE ahead_settings SET face_down = true`);
    for (const [i, bin] of [['11', 'C-2'], ['12', 'C-1'], ['13', 'C-3']] as const) await labelAhead(`Bottega#${i}`, { sku: 'BOWL-3', bin, shop: 'Emporio' });
    const offline = await api<{ error: { code: string; message: string } }>('POST', 'api/batches', { benchId: 'b2', selection: { kind: 'shop', value: 'Emporio' } });
    expect(offline.status).toBe(409);
    expect(offline.body.error).toMatchObject({ code: 'bench_offline', message: 'Bench 2 is offline: choose a bench that is on' });
    const bad = await api<{ error: { field: string } }>('POST', 'api/batches', { benchId: 'b1', selection: { kind: 'colour' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('selection.kind');
    const both = await Promise.all([0, 1].map(() => api<{ batch?: BatchView; error?: { code: string } }>('POST', 'api/batches', { benchId: 'b1', selection: { kind: 'shop', value: 'Emporio' } })));
    const made = both.filter((x) => x.status === 201);
    const labels = made.flatMap((x) => [x.body.batch!.labels]);
    expect(labels.reduce((a, n) => a + n, 0)).toBe(3);
    expect(both.filter((x) => x.status === 404).every((x) => x.body.error?.code === 'nothing_to_print')).toBe(true);
    const id = made[0]!.body.batch!.id;
    expect(made[0]!.body.batch!.faceDown).toBe(true);
    const rows = await db.query<{ bin: string; batch_pos: number }>(`SELECT bin, batch_pos FROM labels_ahead WHERE batch_id = $1 ORDER BY batch_pos`, [id]);
    if (made.length === 1) expect(rows.rows.map((x) => x.bin)).toEqual(['C-3', 'C-2', 'C-1']);
    const text = await pickText(id, 'en');
    expect(text).toContain('The printer stacks face down: the last label was printed first.');
    const listed = (await api<AheadAnswer>('GET', 'api/ahead')).body.batches;
    expect(listed[0]).toMatchObject({ id: made.at(-1)!.body.batch!.id, state: 'waiting' });
  });
});

describe('GET /api/budget: labels ahead and today’s label wait', () => {
  it('counts as the tables hold them', async () => {
    await labelAhead('Bottega#21', { sku: 'X', bin: null, state: 'cancelled' });
    await labelAhead('Bottega#22', { sku: 'X', bin: null, state: 'cancelled' });
    await db.query(`UPDATE labels_ahead SET refund = 4.10, cancelled_at = now(), cancel_reason = 'day_closed' WHERE order_key IN ('Bottega#21', 'Bottega#22')`);
    await db.query(`UPDATE labels_ahead SET printed_at = now(), state = 'printed' WHERE order_key = 'Bottega#1'`);
    await db.query(`UPDATE labels_ahead SET used_at = now() WHERE state = 'used'`);
    await db.query(`INSERT INTO rate_waits (route, at, bench_id, waited_ms) SELECT 'POST /shipments', now(), 'b1', g * 100 FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO rate_waits (route, at, bench_id, waited_ms) VALUES ('POST /rates', now(), 'b1', 99999)`);
    const b = (await api<BudgetView>('GET', 'api/budget')).body;
    const states = await db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM labels_ahead GROUP BY state`);
    const n = (s: string) => states.rows.find((r) => r.state === s)?.n ?? 0;
    expect(b.ahead).toEqual({ waiting: n('bought'), batched: n('batched'), bought: 13, printed: 1, used: 1, cancelled: 2, refunded: 8.2 });
    expect(b.labelWaitToday).toEqual({ p50Ms: 1050, p95Ms: 1905, labels: 20 });
    expect(b.labelsLimit).toBe(30);
  });
});
