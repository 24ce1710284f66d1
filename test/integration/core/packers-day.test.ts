/**
 * Packers and the day in pictures in the core (issue 26), against the
 * sandbox over HTTP: a station without packers asks nobody; once packers are
 * set the guarded settings need a supervisor's PIN; a badge scanned on the
 * Scan screen signs its packer in (another badge switches at once); every
 * shipment, reprint and verify mismatch is recorded with who did it;
 * End of day's figures per packer match the shipments; the report folder
 * follows the folder rule (an extra slash cannot reach /proc); at day close
 * the day report (PDF and CSV) is saved into it and reads back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { recipientToParty, type StationOrder } from '../../../shared/domain/order';
import { romeDay } from '../../../shared/domain/rome-day';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { pdfImageCounts, pdfTextItems } from '../../support/pdf-text';
import { orderByNumber, parcel, stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ printer: 'file', options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 1000, platformRateLimits: false }) });
const invoke = fx.invoke;

beforeAll(async () => {
  const ship = { name: 'Niccolò Bianchi', a1: 'Via Roma 1', city: 'Forlì', zip: '47121', prov: 'FC', country: 'IT' };
  await invoke('orders.importCsv', {
    fileName: 'day.csv',
    content: shopifyCsv(
      [1, 2, 3, 4].flatMap((n) =>
        order({ name: `#80${n}`, id: `880000000080${n}`, created: '2026-11-20 10:00:00 +0000', email: `c${n}@example.it`, ship, items: [{ q: '1', n: 'Tazza', p: '12.00', sku: 'TAZ-1' }], total: '12.00' }),
      ),
    ),
  });
});

const byNumber = (n: string): Promise<StationOrder> => orderByNumber(invoke, n);

/** Scans the order as the Scan screen does, then ships it with `parcels` packages. */
async function scanAndShip(number: string, parcels = 1): Promise<string> {
  const scanned = await invoke('scan.resolve', { code: number });
  expect(scanned.kind).toBe('order');
  const o = await byNumber(number);
  const res = await invoke('shipping.shipOrder', { orderId: o.id, request: { recipient: recipientToParty(o.recipient), packages: Array.from({ length: parcels }, () => parcel()) } });
  return res.shipment.trackingNumber;
}

describe('packers (issue 26)', () => {
  it('a station with no packers asks nobody: no one signed in, guarded settings open', async () => {
    const s = await invoke('packers.session');
    expect(s).toMatchObject({ packersSet: false, packer: null, supervisorUnlocked: true });
    const set = await invoke('packers.setStation', { stationName: 'Banco 3', idleMinutes: 20 });
    expect(set.stationName).toBe('Banco 3');
  });

  it('the first packer must be a supervisor with a PIN; a badge two packers share is refused naming the field', async () => {
    const noSup = await stationFailure(invoke('packers.save', { name: 'Marco', badge: 'BADGE-MARCO', role: 'packer' }));
    expect(noSup.code).toBe('invalid_input');
    expect(noSup.details).toHaveProperty('role');
    const noPin = await stationFailure(invoke('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', role: 'supervisor' }));
    expect(noPin.details).toHaveProperty('pin');
    const anna = await invoke('packers.save', { name: 'Anna', badge: 'BADGE-ANNA', pin: '1234', role: 'supervisor' });
    expect(anna).toEqual({ id: anna.id, name: 'Anna', badge: 'BADGE-ANNA', hasPin: true, role: 'supervisor' });
    // Anna's save made packers exist: the next guarded change needs her PIN (nobody is signed in).
    const gated = await stationFailure(invoke('packers.save', { name: 'Marco', badge: 'BADGE-MARCO', role: 'packer' }));
    expect(gated.code).toBe('supervisor_required');
    expect((await stationFailure(invoke('packers.unlock', { pin: '9999' }))).code).toBe('unknown_packer');
    expect((await invoke('packers.unlock', { pin: '1234' })).supervisorUnlocked).toBe(true);
    const dup = await stationFailure(invoke('packers.save', { name: 'Marco', badge: 'BADGE-ANNA', role: 'packer' }));
    expect(dup.details).toHaveProperty('badge');
    const marco = await invoke('packers.save', { name: 'Marco', badge: 'BADGE-MARCO', pin: '5678', role: 'packer' });
    expect(marco.role).toBe('packer');
    expect((await invoke('packers.list')).map((p) => p.name)).toEqual(['Anna', 'Marco']);
    const badPin = await stationFailure(invoke('packers.signIn', { pin: '12' }));
    expect(badPin.code).toBe('invalid_input');
    expect(badPin.details).toHaveProperty('pin');
  });

  it('a badge scan signs its packer in at once; a packer (not supervisor) cannot change printers', async () => {
    const r = await invoke('scan.resolve', { code: 'BADGE-MARCO' });
    expect(r).toMatchObject({ kind: 'packer', packer: { name: 'Marco' } });
    const s = await invoke('packers.session');
    expect(s.packer?.name).toBe('Marco');
    expect(s.supervisorUnlocked).toBe(false);
    expect((await stationFailure(invoke('printers.set', { uri: `file://${path.join(fx.dir, 'other')}` }))).code).toBe('supervisor_required');
  });

  it('records who shipped, reprinted and skipped a verify; End of day per packer matches', async () => {
    const marcoLdv = await scanAndShip('#801', 2);
    await invoke('labels.reprint', { trackingNumber: marcoLdv });
    expect((await invoke('scan.resolve', { code: 'BADGE-ANNA' })).kind).toBe('packer');
    await scanAndShip('#802');
    const o3 = await byNumber('#803');
    await invoke('verify.skip', { orderId: o3.id, reason: 'label torn', missing: [] });
    // Scans refused while verifying count too: a wrong item and one too many.
    await invoke('verify.mismatch', { orderId: o3.id, code: '4006381333931', kind: 'wrong_item' });
    await invoke('verify.mismatch', { orderId: o3.id, code: 'TAZ-1', kind: 'too_many' });
    await expect(invoke('verify.mismatch', { orderId: 999_999, code: 'X', kind: 'wrong_item' })).rejects.toMatchObject({ code: 'not_found' });
    await scanAndShip('#803');

    const stats = await invoke('reports.day', { range: 'day' });
    expect(stats.day).toBe(romeDay(Date.now()));
    expect(stats.totals).toMatchObject({ shipments: 3, parcels: 4 });
    expect(stats.hourly).toHaveLength(24);
    expect(stats.hourly.reduce((a, h) => a + h.parcels, 0)).toBe(4);
    const marco = stats.byPacker.find((p) => p.packer === 'Marco');
    const anna = stats.byPacker.find((p) => p.packer === 'Anna');
    expect(marco).toMatchObject({ shipments: 1, parcels: 2, reprints: 1, verifyMismatches: 0 });
    expect(anna).toMatchObject({ shipments: 2, parcels: 2, reprints: 0, verifyMismatches: 3 });
    expect(anna?.medianScanToLabelS).toBeGreaterThanOrEqual(0);
    expect(stats.byContract.reduce((a, c) => a + c.parcels, 0)).toBe(4);
    expect(stats.costPerDay).toHaveLength(1);
    const week = await invoke('reports.day', { range: 'week' });
    expect(week.costPerDay).toHaveLength(7);
    const month = await invoke('reports.day', { range: 'month' });
    expect(month.firstDay.endsWith('-01')).toBe(true);
  });

  it('the report folder follows the folder rule: one extra slash does not reach /proc', async () => {
    await invoke('packers.unlock', { pin: '1234' });
    const e = await stationFailure(invoke('reports.settings.set', { folder: '//proc/self', language: 'it' }));
    expect(e.code).toBe('invalid_input');
    expect(e.details).toHaveProperty('folder');
    const rel = await stationFailure(invoke('reports.settings.set', { folder: 'reports', language: 'it' }));
    expect(rel.details).toHaveProperty('folder');
    const bad = await stationFailure(invoke('reports.day', { day: '2026-02-30' }));
    expect(bad.details).toHaveProperty('day');
  });

  it('saves the day report (PDF and CSV, Italian) into the folder at day close; it reads back', async () => {
    const folder = path.join(fx.dir, 'reports');
    await invoke('reports.settings.set', { folder, language: 'it' });
    const created = await invoke('manifests.closeDay');
    expect(created.length).toBeGreaterThan(0);
    const day = romeDay(Date.now());
    const csvText = fs.readFileSync(path.join(folder, `rapporto-${day}.csv`), 'utf8');
    const rows = parse(csvText, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r['Operatore'])).toEqual(['Marco', 'Anna', 'Anna']);
    expect(rows.map((r) => r['Ordine'])).toEqual(['#801', '#802', '#803']);
    for (const r of rows) {
      expect(r['Ora (Europa/Roma)']).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(r['Lettera di vettura']).toMatch(/^\S+$/);
      expect(Number(r['Costo'])).toBeGreaterThan(0);
    }
    const pdf = new Uint8Array(fs.readFileSync(path.join(folder, `rapporto-${day}.pdf`)));
    const text = (await pdfTextItems(pdf)).flat().join(' ');
    expect(text).toContain('Rapporto del giorno');
    expect(text).toContain('Banco: Banco 3');
    expect(text).toContain('Totali per operatore');
    expect(text).toContain('Marco');
    expect(text).toContain(`#${created[0]!.id}`);
    // Nothing of the English report's own words is left (carriers' and contracts' names are data).
    expect(text).not.toMatch(/\b(?:Day report|Bench|Packers?|Totals?|Shipments?|Weight|Time|Orders?|Status|Cost|Carrier|Contract|Tracking number|by packer|per packer|Shop)\b/);
    // The charts are in it as images (one per chart but the cost chart of a single day).
    expect((await pdfImageCounts(pdf)).reduce((a, n) => a + n, 0)).toBe(4);
  });

  it('makes the report on demand in English without writing a file', async () => {
    const r = await invoke('reports.dayReport', { language: 'en' });
    expect(r.savedTo).toBeNull();
    expect(r.csvFileName).toMatch(/^day-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header] = parse(r.csv, { bom: true }) as string[][];
    expect(header).toEqual(['Time (Europe/Rome)', 'Packer', 'Shop', 'Order', 'Carrier', 'Contract', 'Tracking number', 'Weight (kg)', 'Cost', 'Status']);
    expect(Buffer.from(r.pdfBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('signing out leaves nobody; the next shipment is nobody\'s', async () => {
    const s = await invoke('packers.signOut');
    expect(s.packer).toBeNull();
    await scanAndShip('#804');
    const stats = await invoke('reports.day', {});
    expect(stats.byPacker.find((p) => p.packerId === null)).toMatchObject({ shipments: 1, parcels: 1 });
  });

  it('five wrong PINs in a row refuse every PIN for a minute, the right one too; a right PIN before that resets the count', async () => {
    for (let i = 0; i < 4; i++) expect((await stationFailure(invoke('packers.unlock', { pin: '0000' }))).code).toBe('unknown_packer');
    expect((await invoke('packers.unlock', { pin: '1234' })).supervisorUnlocked).toBe(true);
    for (let i = 0; i < 5; i++) expect((await stationFailure(invoke('packers.signIn', { pin: '0000' }))).message).toContain('no packer has this PIN');
    const locked = await stationFailure(invoke('packers.unlock', { pin: '1234' }));
    expect(locked.code).toBe('unknown_packer');
    expect(locked.message).toMatch(/5 wrong PINs in a row: PINs are refused for \d+ s more/);
    expect(locked.details).toHaveProperty('pin');
    // A badge still signs in meanwhile.
    expect((await invoke('scan.resolve', { code: 'BADGE-MARCO' })).kind).toBe('packer');
  });
});
