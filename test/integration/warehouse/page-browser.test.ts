/**
 * The supervisor's page in Chromium (issue 42 items 1, 2, 3 and 5), served by `startSupervisorPage` on a real
 * PostgreSQL set up as the README says (test/support/warehouse.ts: the `supervisor` role owns it and serves
 * the page; three benches register and write as their own logins in `warehouse_bench`). The browser speaks
 * English (its locale and Accept-Language en-US); the page is read in English, then switched to Italian:
 * an offline bench's card says what it said last as last known, with when; the writes the warehouse refused
 * are under Needs attention with the database's sentence; old claims read well with a packer and without;
 * printer names and states in the page's language (Cartella, sconosciuta); the report's day is typed and
 * shown in the page's language (dd/mm/yyyy in Italian, whatever the browser), checked, stepped with its
 * buttons, and its links carry `YYYY-MM-DD`. The platform's panels (issue 44, issue 43 item 6): no public address
 * said in one sentence, the account's budget from the warehouse's tables, a deactivated endpoint (the page's
 * `api/platform` answered by the test) in one sentence, in both languages. Screenshots in both languages go to
 * test-results/screens/.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeat } from '../../../electron/core/warehouse/claims';
import { startSupervisorPage, type RunningPage } from '../../../electron/warehouse/server';
import { addDays, romeDay } from '../../../shared/domain/rome-day';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogin, createWarehouse } from '../../support/warehouse';
import { asLogin, poolAs } from './as-login';

const ROOT = path.resolve(__dirname, '../../..');
const SHOTS = path.join(ROOT, 'test-results', 'screens');
const SUPERVISOR = { uid: 'u-anna', name: 'Anna', badge: 'BADGE-ANNA', role: 'supervisor' };

let server: TestPostgres;
let db: pg.Pool;
let running: RunningPage;
let browser: Browser;
let page: Page;
/** The database's day now (Europe/Rome): the page's today. */
let today: string;
/** The sentence PostgreSQL gave Bench 2's login writing as Bench 1. */
let refusal: { message: string; code: string };

/** The text of an element of the page. */
const textOf = (selector: string): Promise<string> => page.locator(selector).first().innerText();
/** A bench card's rows as `label: value`. */
const cardRows = (bench: string): Promise<string[]> =>
  page.locator(`article.bench[data-bench="${bench}"] dl`).evaluate((dl) => [...dl.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`));

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'warehouse');
  await asLogin(server, await benchLogin(server, url, 'bench1'), async (b) => {
    await heartbeat(b, { id: 'b1', name: 'Banco 1' }, { packer: 'Anna', order: '#1049', printer: { state: 'paper_out', name: 'Folder /srv/labels' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: null });
    await b.query(`SELECT share_changes($1::text[], $2::jsonb[], 0, 'b1', 'Anna', 'force')`, [[`packer:${SUPERVISOR.uid}`], [JSON.stringify({ ...SUPERVISOR, pinHash: pinHashOf('4711') })]]);
    await b.query(`INSERT INTO claims (order_key, bench_id, packer, claimed_at) VALUES ('Bottega#1047', 'b1', 'Marco Ferri', now() - interval '20 minutes')`);
    await b.query(`INSERT INTO activity (bench_id, seq, at, action, packer, tracking_number, shipment) VALUES ('b1', 1, now() - interval '2 minutes', 'ship', 'Anna', 'GL0000000001', '{"contractCode": "x", "contractName": "GLS Economy", "cost": 6.5}')`);
  });
  await asLogin(server, await benchLogin(server, url, 'bench2'), async (b) => {
    const status = { packer: 'Marco Ferri', order: '#1048', printer: { state: 'ready', name: 'Network printer 10.0.0.5:9100' }, queue: 2, refused: 1, labelsHeld: 0, lastLabel: null };
    await heartbeat(b, { id: 'b2', name: 'Banco 2' }, status);
    refusal = await b.query(`INSERT INTO activity (bench_id, seq, at, action) VALUES ('b1', 99, now(), 'scan')`).then(
      () => ({ message: 'not refused', code: '' }),
      (e: Error & { code: string }) => ({ message: e.message, code: e.code }),
    );
    const warehouseRefusals = [
      { at: new Date(Date.now() - 9 * 60_000).toISOString(), what: 'claim Bottega#1050', message: 'duplicate key value violates unique constraint "claims_pkey"', code: '23505' },
      { at: new Date(Date.now() - 8 * 60_000).toISOString(), what: 'activity row 99', ...refusal },
    ];
    await heartbeat(b, { id: 'b2', name: 'Banco 2' }, { ...status, warehouseRefusals });
    // Then Bench 2 stopped, 7 minutes ago.
    await b.query(`UPDATE benches SET heartbeat_at = now() - interval '7 minutes' WHERE id = 'b2'`);
  });
  await asLogin(server, await benchLogin(server, url, 'bench3'), async (b) => {
    await heartbeat(b, { id: 'b3', name: 'Banco 3' }, { packer: null, order: null, printer: { state: 'unknown', name: '' }, queue: 0, refused: 0, labelsHeld: 0, lastLabel: null });
    // A claim taken by shipping names no packer.
    await b.query(`INSERT INTO claims (order_key, bench_id, packer, claimed_at) VALUES ('Bottega#1046', 'b3', NULL, now() - interval '16 minutes')`);
  });
  db = poolAs(server, url);
  today = romeDay(Date.now());
  running = await startSupervisorPage({ db });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // An English browser: nothing of the Italian page may follow its language.
  const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en-US,en;q=0.9' }, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await page.goto(running.url);
  await page.fill('#pin', '4711');
  await page.click('#sign-in-button');
  await page.locator('article.bench[data-bench="Banco 2"]').waitFor();
  mkdirSync(SHOTS, { recursive: true });
}, 90_000);

/** A PIN's hash as a bench stores it (electron/core/store/packers-repo.ts). */
function pinHashOf(pin: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(pin, salt, 32).toString('hex')}`;
}

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await db?.end();
  server?.stop();
});

describe("the supervisor's page in Chromium", () => {
  it('in English: an offline bench as last known with when, the refused writes, old claims, the day YYYY-MM-DD', async () => {
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const card = page.locator('article.bench[data-bench="Banco 2"]');
    expect(await card.locator('.state').innerText()).toMatch(/^offline$/i);
    expect(await card.locator('.last-known').innerText()).toMatch(/^Last heartbeat \d\d:\d\d, 7 min ago$/);
    expect(await cardRows('Banco 2')).toEqual([
      'Packer (last known): Marco Ferri',
      'Order (last known): #1048',
      'Printer (last known): Network printer 10.0.0.5:9100 · ready',
      'Queue (last known): 2',
      'Refused (last known): 1',
      'Last label: —',
    ]);
    expect(await card.innerText()).not.toMatch(/packing/i);
    // The live bench says what it does now.
    expect(await cardRows('Banco 1')).toContain('Printer: Folder /srv/labels · out of paper');

    const attention = await textOf('#attention');
    expect(attention).toContain('Writes the warehouse database refused');
    expect(refusal.code).toBe('42501');
    const lines = await page.locator('#attention li.refusals[data-bench="Banco 2"] li').allInnerTexts();
    // Newest first.
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\d\\d:\\d\\d · activity row 99: the database said “${literal(refusal.message)}” \\(42501\\)$`)),
      expect.stringMatching(/^\d\d:\d\d · claiming Bottega#1050: the database said “duplicate key value violates unique constraint "claims_pkey"” \(23505\)$/),
    ]);
    expect(attention).toContain('Bottega#1047 at Banco 1 by Marco Ferri, for 20 min');
    expect(attention).toContain('Bottega#1046 at Banco 3, for 16 min');

    expect(await page.inputValue('#day')).toBe(today);
    expect(await page.getAttribute('#day', 'type')).toBe('text');
    expect(await page.getAttribute('#report-csv', 'href')).toBe(`api/report.csv?day=${today}&lang=en`);
    await page.screenshot({ path: path.join(SHOTS, 'warehouse-42-en.png'), fullPage: true });
  });

  it('in Italian: every word the page’s own, printers feminine, the claim line with one "da"', async () => {
    await page.click('#lang-it');
    expect(await page.getAttribute('html', 'lang')).toBe('it');
    const card = page.locator('article.bench[data-bench="Banco 2"]');
    expect(await card.locator('.state').innerText()).toMatch(/^non collegato$/i);
    expect(await card.locator('.last-known').innerText()).toMatch(/^Ultimo segnale \d\d:\d\d, 7 min fa$/);
    expect(await cardRows('Banco 2')).toEqual([
      'Operatore (ultimo noto): Marco Ferri',
      'Ordine (ultimo noto): #1048',
      'Stampante (ultima nota): Stampante di rete 10.0.0.5:9100 · pronta',
      'In coda (ultimo dato): 2',
      'Rifiutate (ultimo dato): 1',
      'Ultima etichetta: —',
    ]);
    expect(await cardRows('Banco 1')).toContain('Stampante: Cartella /srv/labels · senza carta');
    expect(await cardRows('Banco 3')).toContain('Stampante: sconosciuta');

    const attention = await textOf('#attention');
    expect(attention).toContain('Scritture rifiutate dal database del magazzino');
    expect(await page.locator('#attention li.refusals[data-bench="Banco 2"] li').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^\\d\\d:\\d\\d · riga di attività 99: il database ha risposto «${literal(refusal.message)}» \\(42501\\)$`)),
      expect.stringMatching(/^\d\d:\d\d · presa in carico di Bottega#1050: il database ha risposto «.*» \(23505\)$/),
    ]);
    expect(attention).toContain('Bottega#1047 al Banco 1 (Marco Ferri) da 20 min');
    expect(attention).toContain('Bottega#1046 al Banco 3 da 16 min');
    expect(attention).not.toMatch(/ da \S+ \S+, da /);

    // No English word of the page's or the bench's is left (the database's own sentences are quoted as said).
    const words = (await textOf('body')).replaceAll(refusal.message, '').replace(/«[^»]*»/g, '');
    for (const english of ['Folder', 'Network printer', 'unknown', 'Packer', 'offline', 'packing', 'last known', 'claim ', 'activity row', 'Previous', 'sconosciuto']) expect(words, english).not.toContain(english);

    const [y, m, d] = today.split('-');
    expect(await page.inputValue('#day')).toBe(`${d}/${m}/${y}`);
    expect(await page.getAttribute('#day', 'placeholder')).toBe('gg/mm/aaaa');
    await page.screenshot({ path: path.join(SHOTS, 'warehouse-42-it.png'), fullPage: true });
  });

  it('reads the day typed in the page’s language, says clearly what is wrong, steps with its buttons', async () => {
    const day = page.locator('#day');
    await day.fill('31/02/2026');
    await day.press('Enter');
    expect(await textOf('#day-error')).toBe('Giorno: il 31/02/2026 non è un giorno del calendario.');
    expect(await day.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getAttribute('#report-pdf', 'href')).toBeNull();
    await day.fill('12/2026');
    await day.press('Enter');
    expect(await textOf('#day-error')).toMatch(/^Giorno: scrivilo come gg\/mm\/aaaa, per esempio \d\d\/\d\d\/\d{4}\.$/);
    const tomorrow = addDays(today, 1);
    await day.fill(tomorrow.split('-').reverse().join('/'));
    await day.press('Enter');
    expect(await textOf('#day-error')).toContain('non è ancora arrivato');

    // 1/12/2026: the first of December, never the twelfth of January.
    await day.fill('1/12/2026');
    await day.press('Enter');
    expect(await textOf('#day-error')).toBe('');
    expect(await day.inputValue()).toBe('01/12/2026');
    expect(await textOf('#day-words')).toBe('martedì 1 dicembre 2026');
    expect(await page.getAttribute('#report-csv', 'href')).toBe('api/report.csv?day=2026-12-01&lang=it');
    await page.click('#day-previous');
    expect(await day.inputValue()).toBe('30/11/2026');
    expect(await page.getAttribute('#day-previous', 'aria-label')).toBe('Giorno precedente');

    // The same day in English, the server's form; a day typed the Italian way is not read as English.
    await page.click('#lang-en');
    expect(await day.inputValue()).toBe('2026-11-30');
    expect(await textOf('#day-words')).toMatch(/^Monday,? 30 November 2026$/);
    await day.fill('07/12/2026');
    await day.press('Enter');
    expect(await textOf('#day-error')).toBe(`Day: write it as YYYY-MM-DD, for example ${today}.`);

    // Today again with the buttons (next stops at today), and the report of the day the link names.
    await day.fill(addDays(today, -2));
    await day.press('Enter');
    await page.click('#day-next');
    await page.click('#day-next');
    expect(await day.inputValue()).toBe(today);
    expect(await page.isDisabled('#day-next')).toBe(true);
    await page.click('#lang-it');
    const csv = await page.evaluate(async () => (await fetch((document.getElementById('report-csv') as HTMLAnchorElement).href)).text());
    // (fetch's text() drops the byte order mark the file has.)
    expect(csv.split('\r\n')[0]).toBe('Giorno;Ora (Europa/Roma);Banco;Operatore;Lettera di vettura;Contratto;Costo (EUR);Peso (kg);Colli');
    expect(csv).toContain(';Banco 1;Anna;GL0000000001;GLS Economy;6,50;;');
  });

  it('the platform’s panels (issue 44, issue 43 item 6): no address said in one sentence, the budget live, a deactivated endpoint in one sentence, in both languages', async () => {
    // Three labels this minute, waited 0, 1 and 5 s; one quote; one label waiting.
    await db.query(
      `INSERT INTO rate_slots (route, at, bench_id, priority, waited_ms) VALUES ('POST /shipments', now(), 'b1', 0, 0), ('POST /shipments', now(), 'b1', 0, 1000), ('POST /shipments', now(), 'b1', 0, 5000), ('POST /rates', now(), 'b1', 0, 0)`,
    );
    await db.query(`INSERT INTO rate_waiters (key, route, bench_id, priority, asked_at, seen_at) VALUES ('w1', 'POST /shipments', 'b1', 0, now(), now())`);
    await page.click('#lang-en');
    await page.waitForFunction(() => document.querySelector('#budget [data-figure="labels"]')?.textContent === '3 of 30');
    expect(await textOf('#endpoint')).toContain('No public address: events come by the catch-up alone.');
    expect(await textOf('#exceptions')).toBe('No delivery exceptions in the last 7 days.');
    expect(await textOf('#budget [data-figure="quotes"]')).toBe('1 of 60');
    expect(await textOf('#budget [data-figure="queue"]')).toBe('labels 1 · quotes 0 · other 0');
    expect(await textOf('#budget [data-figure="label-wait"]')).toBe('p50 1.0 s · p95 4.6 s (3 labels)');
    expect(await textOf('#budget dl')).toContain('Packers’ label wait (last 10 minutes)');
    await page.click('#lang-it');
    expect(await textOf('#endpoint')).toContain('Nessun indirizzo pubblico: gli eventi arrivano solo dal recupero periodico.');
    expect(await textOf('#budget [data-figure="labels"]')).toBe('3 su 30');
    expect(await textOf('#budget [data-figure="label-wait"]')).toBe('p50 1,0 s · p95 4,6 s (3 etichette)');

    // The platform has deactivated the endpoint (as GET /api/platform says it: page-platform.test.ts): one sentence.
    const deactivated = { endpoint: { id: 7, url: 'https://warehouse.example/platform/events', registeredAt: new Date().toISOString(), isActive: false, deliveries: [], problem: null }, catchUp: null, platformGiven: true, held: [], exceptions: [], exceptionsPerDay: [] };
    await page.route('**/api/platform', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(deactivated) }));
    await page.waitForSelector('#endpoint .endpoint-deactivated');
    expect(await textOf('#endpoint .endpoint-deactivated')).toBe(
      'La piattaforma ha disattivato questo indirizzo dopo 72 ore senza risposta: controlla che raggiunga il magazzino, poi riavvia il programma del magazzino con --public-url per registrarlo di nuovo.',
    );
    await page.click('#lang-en');
    expect(await textOf('#endpoint .endpoint-deactivated')).toBe(
      'The platform has deactivated this address after 72 hours without an answer: check that it reaches the warehouse, then start the warehouse program again with --public-url to register it anew.',
    );
    await page.screenshot({ path: path.join(SHOTS, 'warehouse-44-deactivated-en.png'), fullPage: true });
    await page.unroute('**/api/platform');
  });
});

/** `s` with the characters a regular expression gives meaning to escaped. */
function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
