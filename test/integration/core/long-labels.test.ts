/**
 * Issue 36 item 2 through the commands, against the sandbox: a label longer
 * than the stock loaded in the printer in use (the sandbox's 4 × 6 in labels
 * on 4 × 4 in stock, its barcodes to the end) is held with the sentence; the
 * packer prints it shrunk anyway (`printJobs.printShrunk`, noted on the job);
 * a profile saved for longer stock prints the others by themselves; and a
 * rule's `longLabelPrinter` sends its orders' long labels to the printer it
 * names (a local TCP listener with 4 × 8 in stock), at that printer's size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationOrder } from '../../../shared/domain/order';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { startFakePrinter, type FakePrinter } from './printing/fake-printer';
import { orderByNumber, stationFailure } from './helpers';
import { useStation } from './station-fixture';

let long: FakePrinter;
const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';
const roma = { name: 'Luca Verdi', a1: 'Via Appia 5', city: 'Roma', zip: '00184', prov: 'RM', country: 'IT' };
const profile = (heightMm: number) => ({ dpi: 203, widthMm: 101.6, heightMm, darkness: 20, speedIps: 4, media: 'direct_thermal', topOffsetDots: 0 }) as const;
const SENTENCE = /^This label is 4 × 6 in: load 4 × 6 in labels, or choose a printer profile for them$/;

beforeAll(async () => {
  long = await startFakePrinter('ready');
  await invoke('printers.profile.set', { uri: fx.printer.uri, profile: profile(101.6) });
  await invoke('printers.profile.set', { uri: long.uri, profile: profile(203.2) });
  await invoke('products.importCsv', { content: 'sku,weightKg,lengthCm,widthCm,heightCm\nTAZ,0.35,10,10,12\nLONG-TUBE,1.2,60,8,8\n' });
  await invoke('boxes.settings.set', { presets: [{ name: 'Tube', lengthCm: 70, widthCm: 12, heightCm: 12, tareKg: 0.2, barcode: null }], defaultBox: 'Tube' });
  await invoke('rules.import', {
    content: JSON.stringify({
      version: 1,
      rules: [
        { name: 'Tubi', when: { skus: { any: ['LONG-*'] } }, then: { rate: 'cheapest', longLabelPrinter: long.uri } },
        { name: 'Italia', when: { countries: ['IT'] }, then: { rate: 'cheapest' } },
      ],
    }),
  });
  await invoke('orders.importCsv', {
    fileName: 'bottega.csv',
    shop: 'Bottega',
    content: shopifyCsv([
      ...order({ name: '#6001', id: '4400000006001', created, email: 'a@example.it', ship: roma, items: [{ q: '1', n: 'Tubo', p: '40.00', sku: 'LONG-TUBE' }], total: '40.00' }),
      ...order({ name: '#6002', id: '4400000006002', created, email: 'b@example.it', ship: roma, items: [{ q: '1', n: 'Tazza', p: '12.00', sku: 'TAZ' }], total: '12.00' }),
      ...order({ name: '#6003', id: '4400000006003', created, email: 'c@example.it', ship: roma, items: [{ q: '1', n: 'Tazza', p: '12.00', sku: 'TAZ' }], total: '12.00' }),
    ]),
  });
});

afterAll(async () => {
  await long?.close();
});

const byNumber = (n: string): Promise<StationOrder> => orderByNumber(invoke, n);

describe('a label longer than the labels loaded', () => {
  it('goes to the printer the rule names for long labels, at that printer’s size', async () => {
    const o = await byNumber('#6001');
    const plan = await invoke('shipping.plan', { orderId: o.id });
    expect(plan).toMatchObject({ printerUri: null, longLabelPrinterUri: long.uri });
    const r = await invoke('shipping.shipOrder', { orderId: o.id });
    expect(r.printError).toBeNull();
    expect(r.printJob).toMatchObject({ printerUri: long.uri, state: 'printed', lastError: null });
    // 4 × 8 in at 203 dpi: the profile's size after ^XA.
    expect((await long.job(0)).toString('latin1')).toMatch(/\^XA\^PW812\^LL1624/);
    expect(long.jobs).toHaveLength(1);
    expect(fx.printer.jobs).toHaveLength(0);
  }, 60_000);

  it('is held with the sentence when no rule names a printer, and prints shrunk at the packer’s word, noted on the job', async () => {
    const r = await invoke('shipping.shipOrder', { orderId: (await byNumber('#6002')).id });
    expect(r.printJob).toMatchObject({ state: 'held', printerUri: fx.printer.uri, lastErrorText: { key: 'jobHeldTooLong' } });
    expect(r.printJob?.lastError).toMatch(SENTENCE);
    expect(r.printError).toMatchObject({ code: 'label_too_long' });
    expect(fx.printer.jobs).toHaveLength(0);
    const pending = await invoke('printJobs.pending', {});
    expect(pending.map((j) => [j.trackingNumber, j.state])).toEqual([[r.shipment.trackingNumber, 'held']]);
    // Only a held job is printed shrunk; an unknown one is named.
    expect((await stationFailure(invoke('printJobs.printShrunk', { id: 999_999 }))).code).toBe('not_found_locally');

    const printed = await invoke('printJobs.printShrunk', { id: r.printJob!.id });
    expect(printed).toMatchObject({ id: r.printJob!.id, state: 'printed', lastErrorText: { key: 'jobPrintedShrunk' } });
    expect(printed.lastError).toMatch(/^Printed shrunk to \d\d % at the packer’s word: the label is 4 × 6 in, longer than the labels loaded$/);
    expect(fx.printer.jobs).toHaveLength(1);
    expect((await fx.printer.job(0)).toString('latin1')).toMatch(/\^XA\^PW812\^LL812/);
    expect((await stationFailure(invoke('printJobs.printShrunk', { id: printed.id }))).code).toBe('invalid_state');
    // The shipment's print history keeps the note.
    const shipment = await invoke('shipments.get', { trackingNumber: r.shipment.trackingNumber });
    expect(shipment.printJobs.at(-1)).toMatchObject({ state: 'printed', lastErrorText: { key: 'jobPrintedShrunk' } });
  }, 60_000);

  it('prints by itself at its size once the printer’s profile says 4 × 6 in labels are loaded', async () => {
    const r = await invoke('shipping.shipOrder', { orderId: (await byNumber('#6003')).id });
    expect(r.printJob?.state).toBe('held');
    const before = fx.printer.jobs.length;
    await invoke('printers.profile.set', { uri: fx.printer.uri, profile: profile(152.4) });
    const until = Date.now() + 20_000;
    while ((await invoke('printJobs.pending', {})).length > 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 100));
    expect(await invoke('printJobs.pending', {})).toEqual([]);
    expect(fx.printer.jobs).toHaveLength(before + 1);
    expect((await fx.printer.job(before)).toString('latin1')).toMatch(/\^XA\^PW812\^LL1218/);
    const shipment = await invoke('shipments.get', { trackingNumber: r.shipment.trackingNumber });
    expect(shipment.printJobs.at(-1)).toMatchObject({ state: 'printed', lastError: null });
  }, 60_000);
});
