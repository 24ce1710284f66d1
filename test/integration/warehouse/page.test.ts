/**
 * The supervisor's page (issue 35 item 5, issue 42): `npm run warehouse` started as a child process against a
 * real PostgreSQL (test/support/postgres.ts) set up as the README says (test/support/warehouse.ts: the
 * `supervisor` role owns the database and runs the page, which migrates it; each bench logs in as its own
 * role in `warehouse_bench`), holding benches registered by their own heartbeat, their shipments, a verify mismatch
 * and claims. Checks: one JSON line with the URL, 401 without sign-in, a wrong PIN and a packer's PIN
 * refused, a supervisor's PIN and badge signed in (HttpOnly SameSite=Strict cookie), foreign Host and Origin
 * refused, the floor (benches, states, per-hour counts, attention, the writes the warehouse refused), a bench
 * offline within 30 s of its last heartbeat, the release of a claim older than 15 minutes, the day report as
 * CSV and PDF (read back with pdf.js), the language from Accept-Language, no PIN, hash or password in any
 * answer, the lockout after five wrong PINs, SIGTERM. The report's formats: report.test.ts; the page in
 * Chromium: page-browser.test.ts.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeat } from '../../../electron/core/warehouse/claims';
import { WAREHOUSE_SCHEMA_VERSION } from '../../../electron/core/warehouse/schema';
import { romeDay, romeHour, romeTime } from '../../../shared/domain/rome-day';
import { pdfTextItems } from '../../support/pdf-text';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogin, createWarehouse } from '../../support/warehouse';
import { asLogin } from './as-login';

const ROOT = path.resolve(__dirname, '../../..');
let server: TestPostgres;
/** The warehouse's URL as the supervisor (no password), and each bench's, as its own login. */
let url: string;
const benchUrl: Record<string, string> = {};
let child: ChildProcessWithoutNullStreams;
let stderr = '';
let first: { url: string; migrated: { from: number; to: number } };
let port: number;
/** Every body the page answered, to look for secrets in at the end. */
const answers: string[] = [];

/** `scrypt$salt$hash` of a PIN, as a bench stores it (electron/core/store/packers-repo.ts). */
const hashPin = (pin: string) => {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(pin, salt, 32).toString('hex')}`;
};
const ANNA = { uid: 'u-anna', name: 'Anna', badge: 'BADGE-ANNA', pinHash: hashPin('4711'), role: 'supervisor' };
const MARCO = { uid: 'u-marco', name: 'Marco', badge: 'BADGE-MARCO', pinHash: hashPin('5678'), role: 'packer' };

/** Shipments of the two benches: a few seconds ago each, so they fall in today's counts. */
const now = Date.now();
const SHIPS = [
  { bench: 'b1', seq: 1, at: now - 9_000, packer: 'Anna', tn: 'BR1000000011', contract: 'BRT-EXP', contractName: 'BRT Espresso', cost: 6.9, kg: 1.5, parcels: 1 },
  { bench: 'b1', seq: 2, at: now - 8_000, packer: 'Anna', tn: 'BR1000000022', contract: 'BRT-EXP', contractName: 'BRT Espresso', cost: 7.4, kg: 2.25, parcels: 2 },
  { bench: 'b1', seq: 3, at: now - 7_000, packer: 'Marco', tn: 'GL1000000033', contract: 'GLS-STD', contractName: 'GLS Standard', cost: 5.1, kg: 0.8, parcels: 1 },
  // From a bench before issue 42: the code only, which the report shows when it has no name.
  { bench: 'b2', seq: 1, at: now - 6_000, packer: 'Luca; "Lu"', tn: 'SD1000000044', contract: 'SDA-H24', contractName: undefined, cost: 8, kg: 3, parcels: 1 },
];


/** One HTTP request to the page with full control of its headers; the body is kept in {@link answers}. */
function request(method: string, target: string, opts: { headers?: Record<string, string>; body?: object; cookie?: string } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...opts.headers };
    if (opts.cookie) headers.cookie = opts.cookie;
    const payload = opts.body ? JSON.stringify(opts.body) : undefined;
    if (payload) headers['content-type'] = 'application/json';
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        answers.push(body.toString('latin1'), JSON.stringify(res.headers));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs in with `by`; the session cookie (`name=value`) when it worked. */
async function signIn(by: { pin?: string; badge?: string }) {
  const res = await request('POST', '/api/sign-in', { body: by });
  const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  return { ...res, cookie };
}

beforeAll(async () => {
  server = await startTestPostgres();
  // The database and its owner as the README makes them; `npm run warehouse` migrates it (from 0).
  url = await createWarehouse(server, 'warehouse', undefined, 0);
  child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/warehouse/cli.ts'), '--warehouse', url], {
    cwd: ROOT,
    env: { ...process.env, PGPASSWORD: server.password, STATION_WAREHOUSE_URL: '' },
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`warehouse exited ${code}: ${stderr}`)));
  });
  first = JSON.parse(line) as typeof first;
  port = Number(new URL(first.url).port);
  // The supervisor makes each bench a login of its own in warehouse_bench.
  for (const [id, login] of [['b1', 'bench1'], ['b2', 'bench2'], ['b3', 'bench3']] as const) benchUrl[id] = await benchLogin(server, url, login);

  // Two benches as they register themselves, each on its own login, then what they did today.
  await asLogin(server, benchUrl.b1!, async (db) => {
    await heartbeat(db, { id: 'b1', name: 'Bench 1' }, { packer: 'Anna', order: '#5003', printer: { state: 'ready', name: 'Zebra GK420d' }, queue: 1, refused: 2, labelsHeld: 1, lastLabel: { trackingNumber: 'GL1000000033', at: new Date(now - 7_000).toISOString() } });
    // Packers are added at a bench: shared through the checked function, as the bench's own login.
    await db.query(`SELECT share_changes($1::text[], $2::jsonb[], 0, 'b1', 'Anna', 'force')`, [[ANNA, MARCO].map((p) => `packer:${p.uid}`), [ANNA, MARCO].map((p) => JSON.stringify(p))]);
    await db.query(`INSERT INTO claims (order_key, bench_id, packer, claimed_at) VALUES ('Bottega#5001', 'b1', 'Anna', now() - interval '20 minutes'), ('Bottega#5003', 'b1', 'Anna', now())`);
  });
  await asLogin(server, benchUrl.b2!, async (db) => {
    const b2 = { packer: null, order: null, printer: { state: 'paper_out', name: 'Brother' }, queue: 0, refused: 0, lastLabel: null };
    await heartbeat(db, { id: 'b2', name: 'Bench 2' }, b2);
    // A write the warehouse refuses (issue 42 item 1): Bench 2's login writing activity as Bench 1. The bench
    // keeps the database's answer and sends it with its heartbeat, newest last; one entry is not a refusal.
    const refusal = await db.query(`INSERT INTO activity (bench_id, seq, at, action) VALUES ('b1', 99, now(), 'scan')`).then(
      () => ({ message: 'not refused', code: '' }),
      (e: Error & { code: string }) => ({ message: e.message, code: e.code }),
    );
    const warehouseRefusals = [
      { at: new Date(now - 60_000).toISOString(), what: 'claim Bottega#5002', message: 'duplicate key value violates unique constraint "claims_pkey"', code: '23505' },
      { at: 'yesterday', what: 'activity', message: 'not a time', code: '42501' },
      { at: new Date(now - 1_000).toISOString(), what: 'activity row 99', ...refusal },
    ];
    await heartbeat(db, { id: 'b2', name: 'Bench 2' }, { ...b2, warehouseRefusals });
    await db.query(`UPDATE benches SET heartbeat_at = now() - interval '5 minutes' WHERE id = 'b2'`);
    await db.query(`INSERT INTO activity (bench_id, seq, at, action, packer, subject) VALUES ('b2', 2, now(), 'verify', 'Luca', 'sku VASO-XL')`);
  });
  for (const s of SHIPS) {
    await asLogin(server, benchUrl[s.bench]!, (db) =>
      db.query(`INSERT INTO activity (bench_id, seq, at, action, packer, tracking_number, shipment) VALUES ($1, $2, $3, 'ship', $4, $5, $6)`, [
        s.bench,
        s.seq,
        new Date(s.at).toISOString(),
        s.packer,
        s.tn,
        JSON.stringify({ contractCode: s.contract, contractName: s.contractName, cost: s.cost, currency: 'EUR', weightKg: s.kg, parcels: s.parcels }),
      ]),
    );
  }
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  server?.stop();
});

describe('the supervisor page', () => {
  it('prints one JSON line with its loopback URL and the migration', () => {
    expect(first).toEqual({ url: `http://127.0.0.1:${port}/`, migrated: { from: 0, to: WAREHOUSE_SCHEMA_VERSION } });
    expect(port).toBeGreaterThan(0);
  });

  it('serves the page to anyone, in the language of Accept-Language; the API only after sign-in', async () => {
    const it = await request('GET', '/', { headers: { 'accept-language': 'it-IT,it;q=0.9,en;q=0.8' } });
    expect(it.status).toBe(200);
    expect(it.text).toContain('<html lang="it">');
    expect(it.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await request('GET', '/', { headers: { 'accept-language': 'de-DE,en;q=0.5' } })).text).toContain('<html lang="en">');
    expect((await request('GET', '/page.js')).text).toContain('api/floor');
    expect((await request('GET', '/echarts.min.js')).status).toBe(200);
    for (const target of ['/api/floor', '/api/session', '/api/report.csv', '/api/report.pdf', '/api/%66loor']) {
      const res = await request('GET', target);
      expect(res.status, target).toBe(401);
      expect(JSON.parse(res.text).error.code).toBe('unauthenticated');
    }
    expect((await request('POST', '/api/claims/release', { body: { orderKey: 'Bottega#5001' } })).status).toBe(401);
  });

  it("signs a supervisor in by PIN or badge, never a wrong PIN or a packer's", async () => {
    expect((await signIn({ pin: '0000' })).status).toBe(401);
    const packer = await signIn({ pin: '5678' });
    expect(packer.status).toBe(401);
    expect(JSON.parse(packer.text).error.code).toBe('refused');
    expect(packer.headers['set-cookie']).toBeUndefined();
    expect((await signIn({ badge: 'BADGE-MARCO' })).status).toBe(401);
    const anna = await signIn({ pin: '4711' });
    expect(anna.status).toBe(200);
    expect(JSON.parse(anna.text)).toEqual({ supervisor: { name: 'Anna' } });
    expect(anna.headers['set-cookie']?.[0]).toMatch(/^warehouse_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect((await request('GET', '/api/session', { cookie: anna.cookie })).text).toBe(JSON.stringify({ supervisor: { name: 'Anna' } }));
    const badge = await signIn({ badge: 'BADGE-ANNA' });
    expect(badge.status).toBe(200);
    expect((await request('GET', '/api/floor', { cookie: badge.cookie })).status).toBe(200);
    // Signed out: the cookie opens nothing any more.
    expect((await request('POST', '/api/sign-out', { cookie: badge.cookie, body: {} })).status).toBe(200);
    expect((await request('GET', '/api/floor', { cookie: badge.cookie })).status).toBe(401);
    expect((await request('GET', '/api/floor', { cookie: 'warehouse_session=made-up' })).status).toBe(401);
  });

  it('refuses a foreign Host and a foreign Origin, even signed in', async () => {
    const { cookie } = await signIn({ pin: '4711' });
    const rebinding = await request('GET', '/api/floor', { cookie, headers: { host: `evil.example:${port}` } });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.text).error.code).toBe('forbidden');
    expect((await request('GET', '/', { headers: { host: `127.0.0.1:${port + 1}` } })).status).toBe(403);
    expect((await request('POST', '/api/claims/release', { cookie, body: { orderKey: 'Bottega#5001' }, headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await request('POST', '/api/sign-in', { body: { pin: '4711' }, headers: { origin: 'null' } })).status).toBe(403);
    expect((await request('GET', '/api/floor', { cookie, headers: { origin: `http://localhost:${port}` } })).status).toBe(200);
  });

  it('shows the floor: both benches, their state, shipments per hour per bench and packer, what needs attention', async () => {
    const { cookie } = await signIn({ pin: '4711' });
    const res = await request('GET', '/api/floor', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const floor = JSON.parse(res.text);
    expect(floor.day).toBe(romeDay(now));
    expect(floor.benches).toEqual([
      {
        id: 'b1',
        name: 'Bench 1',
        state: 'packing',
        heartbeatAt: expect.any(String),
        packer: 'Anna',
        order: '#5003',
        printer: { state: 'ready', name: 'Zebra GK420d' },
        queue: 1,
        refused: 2,
        labelsHeld: 1,
        lastLabel: { trackingNumber: 'GL1000000033', at: new Date(now - 7_000).toISOString() },
      },
      // Bench 2's heartbeat said no label, but its activity has one since: the page shows the activity's.
      // Its heartbeat is one of a bench before issue 36 (no labelsHeld): none held.
      { id: 'b2', name: 'Bench 2', state: 'offline', heartbeatAt: expect.any(String), packer: null, order: null, printer: { state: 'paper_out', name: 'Brother' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: { trackingNumber: 'SD1000000044', at: new Date(now - 6_000).toISOString() } },
    ]);
    const hours = (rows: typeof SHIPS) => {
      const h = Array.from({ length: 24 }, () => 0);
      for (const s of rows) h[romeHour(s.at)]! += 1;
      return h;
    };
    expect(floor.perHour.benches).toEqual([
      { name: 'Bench 1', hours: hours(SHIPS.filter((s) => s.bench === 'b1')), total: 3 },
      { name: 'Bench 2', hours: hours(SHIPS.filter((s) => s.bench === 'b2')), total: 1 },
    ]);
    expect(floor.perHour.packers).toEqual([
      { name: 'Anna', hours: hours(SHIPS.filter((s) => s.packer === 'Anna')), total: 2 },
      { name: 'Luca; "Lu"', hours: hours(SHIPS.filter((s) => s.packer === 'Luca; "Lu"')), total: 1 },
      { name: 'Marco', hours: hours(SHIPS.filter((s) => s.packer === 'Marco')), total: 1 },
    ]);
    expect(floor.attention.offline).toEqual([{ bench: 'Bench 2', since: expect.any(String) }]);
    // Bench 2's printer is out of paper, but Bench 2 is offline: that is said once, as offline.
    expect(floor.attention.printers).toEqual([]);
    expect(floor.attention.refused).toEqual([{ bench: 'Bench 1', refused: 2 }]);
    // Bench 2's refusals, newest first, as the database said them (offline: what it said last); Bench 1 sent none.
    expect(floor.attention.warehouseRefusals).toEqual([
      {
        bench: 'Bench 2',
        refusals: [
          { at: new Date(now - 1_000).toISOString(), what: 'activity row 99', message: 'new row violates row-level security policy for table "activity"', code: '42501' },
          { at: new Date(now - 60_000).toISOString(), what: 'claim Bottega#5002', message: 'duplicate key value violates unique constraint "claims_pkey"', code: '23505' },
        ],
      },
    ]);
    expect(floor.attention.labelsHeld).toEqual([{ bench: 'Bench 1', held: 1 }]);
    expect(floor.attention.verifyMismatches).toEqual([{ at: expect.any(String), bench: 'Bench 2', packer: 'Luca', subject: 'sku VASO-XL' }]);
    // Only the claim older than 15 minutes; the one just taken is not the supervisor's business.
    expect(floor.attention.oldClaims).toEqual([{ orderKey: 'Bottega#5001', bench: 'Bench 1', packer: 'Anna', since: expect.any(String), minutes: 20 }]);

    // Bench 1's next heartbeat says its printer head is open: the next read shows it (the page reads every second).
    await asLogin(server, benchUrl.b1!, (db) => heartbeat(db, { id: 'b1', name: 'Bench 1' }, { packer: 'Anna', order: null, printer: { state: 'head_open', name: 'Zebra GK420d' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: null }));
    const next = JSON.parse((await request('GET', '/api/floor', { cookie })).text);
    expect(next.benches[0]).toMatchObject({ name: 'Bench 1', state: 'idle', printer: { state: 'head_open' } });
    expect(next.attention.printers).toEqual([{ bench: 'Bench 1', state: 'head_open' }]);
    expect(next.attention.refused).toEqual([]);
    expect(next.attention.labelsHeld).toEqual([]);
  });

  it('releases a claim older than 15 minutes, and says so; a second release finds none', async () => {
    const { cookie } = await signIn({ pin: '4711' });
    const released = await request('POST', '/api/claims/release', { cookie, body: { orderKey: 'Bottega#5001' } });
    expect(released.status).toBe(200);
    expect(JSON.parse(released.text)).toEqual({ released: { orderKey: 'Bottega#5001', bench: 'Bench 1', packer: 'Anna', since: expect.any(String) } });
    expect(JSON.parse((await request('GET', '/api/floor', { cookie })).text).attention.oldClaims).toEqual([]);
    const again = await request('POST', '/api/claims/release', { cookie, body: { orderKey: 'Bottega#5001' } });
    expect(again.status).toBe(404);
    expect((await request('POST', '/api/claims/release', { cookie, body: {} })).status).toBe(400);
    expect(await asLogin(server, url, async (db) => (await db.query('SELECT order_key FROM claims ORDER BY 1')).rows)).toEqual([{ order_key: 'Bottega#5003' }]);
  });

  it('shows a bench offline within 30 s of its last heartbeat, not 2 minutes (issue 42 item 2)', async () => {
    const { cookie } = await signIn({ pin: '4711' });
    await asLogin(server, benchUrl.b3!, (db) =>
      heartbeat(db, { id: 'b3', name: 'Bench 3' }, { packer: 'Marco', order: '#1048', printer: { state: 'ready', name: 'Folder /srv/labels' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: null }),
    );
    // Then Bench 3 stops: the page, read as it reads (every second or so), until it says offline.
    const seen: Array<{ silentS: number; state: string }> = [];
    const until = Date.now() + 45_000;
    for (;;) {
      const floor = JSON.parse((await request('GET', '/api/floor', { cookie })).text) as { at: string; benches: Array<{ id: string; state: string; heartbeatAt: string }>; attention: { offline: unknown[] } };
      const b3 = floor.benches.find((b) => b.id === 'b3')!;
      seen.push({ silentS: (Date.parse(floor.at) - Date.parse(b3.heartbeatAt)) / 1000, state: b3.state });
      if (b3.state === 'offline') {
        expect(floor.attention.offline).toContainEqual({ bench: 'Bench 3', since: b3.heartbeatAt });
        break;
      }
      if (Date.now() > until) throw new Error(`Bench 3 never went offline: ${JSON.stringify(seen.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    // Packing while silent for 30 s at most, offline after (by the database's clock, the page's).
    for (const s of seen) expect(s.state, `silent for ${s.silentS} s`).toBe(s.silentS > 30 ? 'offline' : 'packing');
    expect(seen.some((s) => s.silentS > 28 && s.state === 'packing')).toBe(true);
    expect(seen.at(-1)!.silentS).toBeLessThan(31.5);
  }, 60_000);

  it('gives the day report of the whole warehouse as CSV, one row per shipment with its day, quoted for , and ;', async () => {
    const { cookie } = await signIn({ pin: '4711' });
    const res = await request('GET', `/api/report.csv?day=${romeDay(now)}&lang=en`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="warehouse-${romeDay(now)}.csv"`);
    const d = (at: number) => romeDay(at);
    expect(res.text.split('\r\n')).toEqual([
      '\uFEFFDay,Time (Europe/Rome),Bench,Packer,Tracking number,Contract,Cost (EUR),Weight (kg),Parcels',
      `${d(SHIPS[0]!.at)},${romeTime(SHIPS[0]!.at)},Bench 1,Anna,BR1000000011,BRT Espresso,6.90,1.5,1`,
      `${d(SHIPS[1]!.at)},${romeTime(SHIPS[1]!.at)},Bench 1,Anna,BR1000000022,BRT Espresso,7.40,2.25,2`,
      `${d(SHIPS[2]!.at)},${romeTime(SHIPS[2]!.at)},Bench 1,Marco,GL1000000033,GLS Standard,5.10,0.8,1`,
      // No contract name from that bench: its code.
      `${d(SHIPS[3]!.at)},${romeTime(SHIPS[3]!.at)},Bench 2,"Luca; ""Lu""",SD1000000044,SDA-H24,8.00,3,1`,
      '',
    ]);
    // Italian: for an Italian spreadsheet, ';' between fields, decimal commas, the day dd/mm/yyyy on each row.
    const it = await request('GET', `/api/report.csv?day=${romeDay(now)}&lang=it`, { cookie });
    const dIt = (at: number) => romeDay(at).split('-').reverse().join('/');
    expect(it.text.split('\r\n')).toEqual([
      '\uFEFFGiorno;Ora (Europa/Roma);Banco;Operatore;Lettera di vettura;Contratto;Costo (EUR);Peso (kg);Colli',
      `${dIt(SHIPS[0]!.at)};${romeTime(SHIPS[0]!.at)};Bench 1;Anna;BR1000000011;BRT Espresso;6,90;1,5;1`,
      `${dIt(SHIPS[1]!.at)};${romeTime(SHIPS[1]!.at)};Bench 1;Anna;BR1000000022;BRT Espresso;7,40;2,25;2`,
      `${dIt(SHIPS[2]!.at)};${romeTime(SHIPS[2]!.at)};Bench 1;Marco;GL1000000033;GLS Standard;5,10;0,8;1`,
      `${dIt(SHIPS[3]!.at)};${romeTime(SHIPS[3]!.at)};Bench 2;"Luca; ""Lu""";SD1000000044;SDA-H24;8,00;3;1`,
      '',
    ]);
    expect((await request('GET', '/api/report.csv?day=2026-02-30', { cookie })).status).toBe(400);
    expect((await request('GET', '/api/report.csv?day=2020-01-01', { cookie })).text.split('\r\n')).toHaveLength(2);
  });

  it('gives the day report as a PDF with totals per bench and per packer and every shipment', async () => {
    const { cookie } = await signIn({ pin: '4711' });
    const res = await request('GET', `/api/report.pdf?day=${romeDay(now)}&lang=en`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = (await pdfTextItems(new Uint8Array(res.body))).flat().filter((t) => t.trim() !== '');
    const dd = romeDay(now).split('-').reverse().join('/');
    expect(text).toEqual(expect.arrayContaining(['Warehouse day report', `Day: ${dd} (Europe/Rome)`, 'Totals per bench', 'Totals per packer', 'Bench 1', 'Bench 2', 'Anna', 'Marco', 'Time', 'BRT Espresso', 'SDA-H24']));
    for (const s of SHIPS) expect(text).toContain(s.tn);
    // Totals: Bench 1 shipped 3 (4 parcels, 4.55 kg, 19.40 EUR); the whole day 27.40 EUR.
    expect(text.join('|')).toContain('Bench 1|3|4|4.55|19.40');
    expect(text.join(' ')).toContain('Cost (EUR): 27.40');
    const it = (await pdfTextItems(new Uint8Array((await request('GET', `/api/report.pdf?day=${romeDay(now)}&lang=it`, { cookie })).body))).flat().filter((t) => t.trim() !== '');
    expect(it).toEqual(expect.arrayContaining(['Rapporto del giorno del magazzino', `Giorno: ${dd} (Europa/Roma)`, 'Totali per banco', 'Totali per operatore']));
    expect(it.join('|')).toContain('Bench 1|3|4|4,55|19,40');
  });

  it('no PIN, PIN hash or database password in any answer or in its output', () => {
    const all = answers.join('\n') + stderr + JSON.stringify(first);
    for (const secret of [ANNA.pinHash, MARCO.pinHash, ANNA.pinHash.split('$')[2]!, server.password, 'pinHash', 'scrypt$']) expect(all).not.toContain(secret);
  });

  it('refuses every PIN for a minute after five wrong ones', async () => {
    for (let i = 0; i < 5; i++) expect((await signIn({ pin: `99${i}0` })).status).toBe(401);
    const locked = await signIn({ pin: '4711' });
    expect(locked.status).toBe(429);
    expect(JSON.parse(locked.text).error).toEqual({ code: 'locked', message: expect.stringMatching(/^Too many wrong tries: try again in (60|59) s$/) });
  });

  it('stops on SIGTERM with exit 0', async () => {
    const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
