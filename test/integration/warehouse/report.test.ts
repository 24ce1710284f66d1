/**
 * The whole warehouse's day report in Italian and English (issue 42 item 4), from a real PostgreSQL set up as
 * the README says (test/support/warehouse.ts: each bench writes its activity as its own login in
 * `warehouse_bench`; the supervisor, the owner, reads the day as the page does). The PDF is read back with
 * poppler's `pdftotext` (`-layout`, and `-bbox` for where words end; a reader other than pdf-lib and
 * pdf.js; Debian's poppler-utils): Italian
 * decimal commas and thousands dots, the day dd/mm/yyyy, contracts by name (never the opaque code when the
 * bench sent the name), numbers right-aligned. The CSV: `;` and decimal commas in Italian, `,` and points in
 * English, the day on each row, a formula defused.
 */
import { spawnSync } from 'node:child_process';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeat } from '../../../electron/core/warehouse/claims';
import { dayShipments, type ReportShipment } from '../../../electron/warehouse/floor';
import { warehouseDayCsv, warehouseDayPdf } from '../../../electron/warehouse/report';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { benchLogin, createWarehouse } from '../../support/warehouse';
import { asLogin, poolAs } from './as-login';

/** The platform's opaque contract codes (base64 tokens), as benches store them. */
const GLS_TOKEN = 'eyJjIjoiZ2xzLWVjb25vbXkiLCJhIjoiMTIzNDUifQ';
const BRT_TOKEN = 'eyJjIjoiYnJ0LWV4cHJlc3MiLCJhIjoiMTIzNDUifQ';
const DAY = '2026-11-30';

/** The day's shipments (and one the evening before, which the day leaves out), each written by its bench's login. */
const SHIPS = [
  { login: 'bench1', bench: 'b1', seq: 1, at: '2026-11-29T23:30:00+01:00', packer: 'Anna', tn: 'GL0000000001', shipment: { contractCode: GLS_TOKEN, contractName: 'GLS Economy', cost: 4.2, weightKg: 1, parcels: 1 } },
  { login: 'bench1', bench: 'b1', seq: 2, at: '2026-11-30T00:10:00+01:00', packer: 'Anna', tn: 'GL0000000002', shipment: { contractCode: GLS_TOKEN, contractName: 'GLS Economy', cost: 16.92, weightKg: 2.4, parcels: 1 } },
  { login: 'bench1', bench: 'b1', seq: 3, at: '2026-11-30T09:05:00+01:00', packer: 'Anna', tn: 'BR0000000003', shipment: { contractCode: BRT_TOKEN, contractName: 'BRT Espresso Nazionale', cost: 1234.5, weightKg: 1250.125, parcels: 12 } },
  // A bench before issue 42 sent the code only: shown as it is.
  { login: 'bench2', bench: 'b2', seq: 1, at: '2026-11-30T15:45:00+01:00', packer: '=HYPERLINK("http://x")', tn: 'SD0000000004', shipment: { contractCode: 'SDA-H24', cost: 8, weightKg: 3, parcels: 2 } },
  { login: 'bench2', bench: 'b2', seq: 2, at: '2026-11-30T16:00:00+01:00', packer: null, tn: 'SD0000000005', shipment: { contractCode: 'SDA-H24', cost: null, weightKg: null, parcels: null } },
];

let server: TestPostgres;
let supervisor: pg.Pool;
let rows: ReportShipment[];

/**
 * Runs poppler's `pdftotext` with `args` on `pdf`.
 * @throws Error naming the package when pdftotext is not installed
 */
function pdftotext(pdf: Uint8Array, args: readonly string[]): string {
  const res = spawnSync('pdftotext', [...args, '-enc', 'UTF-8', '-', '-'], { input: pdf, encoding: 'utf8' });
  if (res.error) throw new Error(`pdftotext could not run (${res.error.message}): apt-get install poppler-utils`);
  if (res.status !== 0) throw new Error(`pdftotext failed (${res.status}): ${res.stderr}`);
  return res.stdout;
}

/** The words of `pdf` with their boxes in points (`pdftotext -bbox`). */
function pdfWords(pdf: Uint8Array): Array<{ text: string; xMin: number; xMax: number; yMin: number }> {
  return [...pdftotext(pdf, ['-bbox']).matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    text: m[4]!,
  }));
}

/** The right edge (points) of the last word on the line of the word `mark`: where a row ends. */
const rowEnd = (words: ReturnType<typeof pdfWords>, mark: string): number => {
  const at = words.find((w) => w.text === mark)!;
  return Math.max(...words.filter((w) => Math.abs(w.yMin - at.yMin) < 1).map((w) => w.xMax));
};

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await createWarehouse(server, 'warehouse');
  for (const [login, id, name] of [['bench1', 'b1', 'Banco 1'], ['bench2', 'b2', 'Banco 2']] as const) {
    await asLogin(server, await benchLogin(server, url, login), async (db) => {
      await heartbeat(db, { id, name }, {});
      for (const s of SHIPS.filter((x) => x.login === login)) {
        await db.query(`INSERT INTO activity (bench_id, seq, at, action, packer, tracking_number, shipment) VALUES ($1, $2, $3, 'ship', $4, $5, $6)`, [id, s.seq, s.at, s.packer, s.tn, JSON.stringify(s.shipment)]);
      }
    });
  }
  supervisor = poolAs(server, url);
  rows = await dayShipments(supervisor, DAY);
}, 60_000);

afterAll(async () => {
  await supervisor?.end();
  server?.stop();
});

describe("the warehouse's day report", () => {
  it('reads the day from the activity with the contract name the bench sent, its code otherwise', () => {
    expect(rows.map((r) => [r.trackingNumber, r.contractName, r.contractCode])).toEqual([
      ['GL0000000002', 'GLS Economy', GLS_TOKEN],
      ['BR0000000003', 'BRT Espresso Nazionale', BRT_TOKEN],
      ['SD0000000004', null, 'SDA-H24'],
      ['SD0000000005', null, 'SDA-H24'],
    ]);
  });

  it('writes the Italian CSV for an Italian spreadsheet: ";", decimal commas, dd/mm/yyyy on each row, names, formulas defused', () => {
    const csv = warehouseDayCsv(rows, 'it');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Giorno;Ora (Europa/Roma);Banco;Operatore;Lettera di vettura;Contratto;Costo (EUR);Peso (kg);Colli',
      '30/11/2026;00:10:00;Banco 1;Anna;GL0000000002;GLS Economy;16,92;2,4;1',
      '30/11/2026;09:05:00;Banco 1;Anna;BR0000000003;BRT Espresso Nazionale;1234,50;1250,125;12',
      `30/11/2026;15:45:00;Banco 2;"'=HYPERLINK(""http://x"")";SD0000000004;SDA-H24;8,00;3;2`,
      '30/11/2026;16:00:00;Banco 2;;SD0000000005;SDA-H24;;;',
      '',
    ]);
    expect(csv).not.toContain('eyJ');
  });

  it('writes the English CSV with "," and decimal points, the day YYYY-MM-DD', () => {
    expect(warehouseDayCsv(rows, 'en').slice(1).split('\r\n').slice(0, 3)).toEqual([
      'Day,Time (Europe/Rome),Bench,Packer,Tracking number,Contract,Cost (EUR),Weight (kg),Parcels',
      '2026-11-30,00:10:00,Banco 1,Anna,GL0000000002,GLS Economy,16.92,2.4,1',
      '2026-11-30,09:05:00,Banco 1,Anna,BR0000000003,BRT Espresso Nazionale,1234.50,1250.125,12',
    ]);
  });

  it('prints the Italian PDF with decimal commas, the day dd/mm/yyyy, contract names, numbers right-aligned (pdftotext)', async () => {
    const pdf = await warehouseDayPdf(rows, DAY, 'it');
    const text = pdftotext(pdf, ['-layout']);
    expect(text).toContain('Rapporto del giorno del magazzino');
    expect(text).toContain('Giorno: 30/11/2026 (Europa/Roma)');
    expect(text).not.toContain('2026-11-30');
    // 16,92 + 1.234,50 + 8,00 EUR; 2,4 + 1.250,125 + 3 kg; 1 + 12 + 2 (+ 1 unknown: none) parcels. In the
    // PDF every thousand has its dot (a CSV cell none: 1234,50).
    expect(text).toMatch(/Spedizioni: 4 · Colli: 15 · Peso \(kg\): 1\.255,525 · Costo \(EUR\): 1\.259,42/);
    expect(text).toMatch(/Banco 1\s+2\s+13\s+1\.252,525\s+1\.251,42/);
    expect(text).toMatch(/GL0000000002\s+GLS Economy\s+16,92/);
    expect(text).toMatch(/BR0000000003\s+BRT Espresso Nazionale\s+1\.234,50/);
    expect(text).not.toContain('eyJ');
    expect(text).not.toMatch(/\b16\.92\b|\b8\.00\b/);
    // Right-aligned: the cost of every shipment ends where the others' do, whatever its width; so do the totals'.
    const words = pdfWords(pdf);
    const shipEnds = ['GL0000000002', 'BR0000000003', 'SD0000000004'].map((tn) => rowEnd(words, tn));
    expect(Math.max(...shipEnds) - Math.min(...shipEnds), `shipment rows end at ${shipEnds}`).toBeLessThan(0.5);
    const costs = words.filter((w) => ['16,92', '1.234,50'].includes(w.text));
    expect(costs[0]!.xMin, 'a shorter number starts further right').toBeGreaterThan(costs[1]!.xMin + 5);
    const totals = words.filter((w) => ['1.251,42', '8,00'].includes(w.text)).slice(0, 2);
    expect(Math.abs(totals[0]!.xMax - totals[1]!.xMax)).toBeLessThan(0.5);
  });

  it('prints the English PDF with decimal points and the day as the bench prints its own (dd/mm/yyyy)', async () => {
    const text = pdftotext(await warehouseDayPdf(rows, DAY, 'en'), ['-layout']);
    expect(text).toContain('Day: 30/11/2026 (Europe/Rome)');
    expect(text).toMatch(/Cost \(EUR\): 1,259\.42/);
    expect(text).toMatch(/BR0000000003\s+BRT Espresso Nazionale\s+1,234\.50/);
  });
});
