/**
 * The day report gains the day's delivery exceptions (issue 44 item 5), from a real PostgreSQL (schema 7's
 * `delivery_exceptions` as the applier writes them): the exceptions begun on the Europe/Rome day (not the evening
 * before), in the CSV after the shipments under their own header row (Italian: `;`, dd/mm/yyyy; English: `,`,
 * YYYY-MM-DD) and in the PDF as a table of their own (read back with poppler's `pdftotext`), in both languages;
 * a day without any says "nessuno" under the PDF's heading, as its other tables do, and adds nothing to the CSV.
 */
import { spawnSync } from 'node:child_process';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayExceptions, type DeliveryException } from '../../../electron/warehouse/platform-view';
import { warehouseDayCsv, warehouseDayPdf } from '../../../electron/warehouse/report';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { createWarehouse } from '../../support/warehouse';
import { poolAs } from './as-login';

const DAY = '2026-11-30';
let server: TestPostgres;
let db: pg.Pool;
let exceptions: DeliveryException[];

/** The text of `pdf` as poppler lays it out. @throws Error naming the package when pdftotext is missing */
function pdfText(pdf: Uint8Array): string {
  const res = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf, encoding: 'utf8' });
  if (res.error) throw new Error(`pdftotext could not run (${res.error.message}): apt-get install poppler-utils`);
  return res.stdout;
}

beforeAll(async () => {
  server = await startTestPostgres();
  db = poolAs(server, await createWarehouse(server, 'reportexceptions'));
  await db.query(
    `INSERT INTO delivery_exceptions (tracking_number, started_at, status_key, carrier, order_key, last_event, closed_at) VALUES
       ('BR0000000009', '2026-11-29T23:30:00+01:00', 'undelivered', 'BRT', 'Bottega#1001', 'the evening before', NULL),
       ('GL0000000002', '2026-11-30T08:15:00+01:00', 'held_at_depot', 'GLS', 'Bottega#1002', '2026-11-30T08:15:00 · Destinatario assente · Milano', NULL),
       ('BR0000000003', '2026-11-30T17:40:00+01:00', 'returned_to_sender', 'BRT', NULL, NULL, '2026-12-02T10:00:00+01:00')`,
  );
  exceptions = await dayExceptions(db, DAY);
}, 60_000);

afterAll(async () => {
  await db?.end();
  server?.stop();
});

describe("the day report's delivery exceptions", () => {
  it('are those begun on the day, oldest first', () => {
    expect(exceptions.map((x) => [x.trackingNumber, x.statusKey, x.closedAt])).toEqual([
      ['GL0000000002', 'held_at_depot', null],
      ['BR0000000003', 'returned_to_sender', '2026-12-02T09:00:00.000Z'],
    ]);
  });

  it('follow the shipments in the Italian CSV: ";", dd/mm/yyyy, the status in Italian', () => {
    const lines = warehouseDayCsv([], 'it', exceptions).slice(1).split('\r\n');
    expect(lines).toEqual([
      'Giorno;Ora (Europa/Roma);Banco;Operatore;Lettera di vettura;Contratto;Costo (EUR);Peso (kg);Colli',
      '',
      'Eccezioni di consegna iniziate nel giorno',
      'Giorno;Ora (Europa/Roma);Stato;Corriere;Ordine;Lettera di vettura;Ultimo evento del corriere;Consegnato il',
      '30/11/2026;08:15:00;In giacenza;GLS;Bottega#1002;GL0000000002;2026-11-30T08:15:00 · Destinatario assente · Milano;',
      '30/11/2026;17:40:00;Reso al mittente;BRT;;BR0000000003;;02/12/2026 10:00:00',
      '',
    ]);
  });

  it('follow the shipments in the English CSV: ",", YYYY-MM-DD', () => {
    const lines = warehouseDayCsv([], 'en', exceptions).slice(1).split('\r\n');
    expect(lines.slice(2, 5)).toEqual([
      'Delivery exceptions begun this day',
      'Day,Time (Europe/Rome),Status,Carrier,Order,Tracking number,Last carrier event,Delivered at',
      '2026-11-30,08:15:00,Held,GLS,Bottega#1002,GL0000000002,2026-11-30T08:15:00 · Destinatario assente · Milano,',
    ]);
  });

  it('add nothing to the CSV of a day without any', () => {
    expect(warehouseDayCsv([], 'en', [])).toBe(warehouseDayCsv([], 'en'));
    expect(warehouseDayCsv([], 'en', []).slice(1).split('\r\n')).toHaveLength(2);
  });

  it('are a table of the PDF in Italian and in English (pdftotext)', async () => {
    const it = pdfText(await warehouseDayPdf([], DAY, 'it', exceptions));
    expect(it).toContain('Eccezioni di consegna iniziate nel giorno');
    expect(it).toMatch(/08:15:00\s+In giacenza\s+GLS\s+Bottega#1002\s+GL0000000002/);
    expect(it).toMatch(/17:40:00\s+Reso al mittente\s+BRT\s+BR0000000003/);
    expect(it).not.toContain('BR0000000009');
    const en = pdfText(await warehouseDayPdf([], DAY, 'en', exceptions));
    expect(en).toContain('Delivery exceptions begun this day');
    expect(en).toMatch(/08:15:00\s+Held\s+GLS\s+Bottega#1002\s+GL0000000002/);
    const none = pdfText(await warehouseDayPdf([], DAY, 'it', []));
    expect(none).toMatch(/Eccezioni di consegna iniziate nel giorno\s+nessuno/);
  });
});
