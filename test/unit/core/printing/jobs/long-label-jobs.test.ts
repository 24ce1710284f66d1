/**
 * Issue 36 item 2 in the print queue (electron/core/printing/jobs/service.ts,
 * long-labels.ts): a label longer than the stock whose barcodes would print
 * under 90 % of their module is held with the sentence saying what to load;
 * the packer prints it shrunk anyway (noted on the job), or a new profile or
 * printer prints it by itself; a rule's printer for long labels takes it; a
 * label with only text past the stock's end prints at 100 % with a note.
 * The labels are fitted by the real fitZplToStock (rendered to find the ink).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPrinterService } from '../../../../../electron/core/printing/jobs/service';
import type { PrinterService } from '../../../../../electron/core/common/services';
import { createEmitter } from '../../../../../electron/core/common/events';
import { openStore, type Store } from '../../../../../electron/core/store';
import { PrinterProfilesSetting } from '../../../../../electron/core/printing/jobs/service-api';
import { stopZplPreviewWorker } from '../../../../../electron/core/printing/zpl/preview';
import type { PrinterProfile } from '../../../../../shared/contract/printer-profile';
import type { PrintJobView } from '../../../../../shared/contract/views';
import { ScriptedPrinter } from '../../../../support/scripted-printer';
import { storeShipmentWithLabel } from '../../../../support/label-shipment';

/** 4 × 8.9 in at 203 dpi, a Code 128 at its top and one at 7.9 in: no shrink keeps them at 90 % on 4 × 6 in. */
const LONG = '^XA^PW812^LL1827^FO50,50^BY3^BCN,200,N^FD>;12345678^FS^FO50,1600^BY3^BCN,200,N^FD>;87654321^FS^XZ';
/** A barcode at the top, a line of text at 6.4 in: only text past the end of 4 × 6 in. */
const TEXT_PAST = '^XA^PW812^LL1400^FO50,50^BY3^BCN,200,N^FD>;12345678^FS^FO50,1300^A0N,40,40^FDFragile^FS^XZ';
const SENTENCE = 'This label is 4 × 8.9 in: load 4 × 9 in labels, or choose a printer profile for them';

const profile = (heightMm: number): PrinterProfile => ({ dpi: 203, widthMm: 101.6, heightMm, darkness: 20, speedIps: 4, media: 'direct_thermal', topOffsetDots: 0 });

let dir: string;
let store: Store;
let svc: PrinterService | undefined;
const events: PrintJobView[] = [];

function shipment(trackingNumber: string, zpl: string): void {
  storeShipmentWithLabel(store, trackingNumber, 'ZPL', zpl, { contractCode: 'DHL-PAKET', carrierCode: 'DHL' });
}

function service(printers: ScriptedPrinter[]): PrinterService {
  const emitter = createEmitter();
  emitter.on('printJobs.changed', (j) => events.push(j));
  const byUri = new Map(printers.map((p) => [p.uri, p]));
  svc = createPrinterService({ store, events: emitter, uri: printers[0]!.uri, open: (uri) => byUri.get(uri)!, retryMs: 40, confirmPollMs: 5 });
  return svc;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'long-jobs-'));
  store = openStore(path.join(dir, 'station.db'));
  events.length = 0;
});
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(() => stopZplPreviewWorker());

describe('a label longer than the stock in the print queue', () => {
  it('is held with the sentence, prints nothing, stays in the waiting list, and a reprint joins it', async () => {
    const p = new ScriptedPrinter();
    store.settings.set(PrinterProfilesSetting, { [p.uri]: profile(152.4) });
    const s = service([p]);
    shipment('DHL100', LONG);
    const out = await s.printLabel('DHL100', 'auto');
    expect(out.job).toMatchObject({ state: 'held', lastError: SENTENCE, lastErrorText: { key: 'jobHeldTooLong', values: { width: 4, height: 8.9, loadWidth: 4, loadHeight: 9 } } });
    expect(out.error).toMatchObject({ code: 'label_too_long', message: SENTENCE });
    expect(p.printed).toEqual([]);
    expect(s.pending().map((j) => [j.trackingNumber, j.state])).toEqual([['DHL100', 'held']]);
    expect(events.at(-1)).toMatchObject({ state: 'held' });
    const again = await s.printLabel('DHL100', 'reprint');
    expect(again.job?.id).toBe(out.job?.id);
    expect(store.printJobs.list()).toHaveLength(1);
    expect(p.printed).toEqual([]);
  }, 30_000);

  it('prints shrunk at the packer’s word, the printed job saying so; only a held job can', async () => {
    const p = new ScriptedPrinter();
    store.settings.set(PrinterProfilesSetting, { [p.uri]: profile(152.4) });
    const s = service([p]);
    shipment('DHL101', LONG);
    const held = (await s.printLabel('DHL101', 'auto')).job!;
    const out = await s.printShrunk(held.id);
    expect(out.error).toBeNull();
    expect(out.job).toMatchObject({ id: held.id, state: 'printed', attempts: 1, lastErrorText: { key: 'jobPrintedShrunk', values: { width: 4, height: 8.9 } } });
    expect(out.job?.lastError).toMatch(/^Printed shrunk to \d\d % at the packer’s word: the label is 4 × 8\.9 in, longer than the labels loaded$/);
    expect(p.printed).toHaveLength(1);
    expect(p.printed[0]).toContain('>;87654321');
    await expect(s.printShrunk(held.id)).rejects.toMatchObject({ code: 'invalid_state' });
    await expect(s.printShrunk(9999)).rejects.toMatchObject({ code: 'not_found_locally' });
  }, 30_000);

  it('prints by itself at 100 % once the printer’s profile says longer labels are loaded', async () => {
    const p = new ScriptedPrinter();
    store.settings.set(PrinterProfilesSetting, { [p.uri]: profile(152.4) });
    const s = service([p]);
    shipment('DHL102', LONG);
    const held = (await s.printLabel('DHL102', 'auto')).job!;
    expect(held.state).toBe('held');
    s.setProfile(profile(254), p.uri);
    await waitFor(() => store.printJobs.get(held.id)?.state === 'printed');
    expect(store.printJobs.get(held.id)).toMatchObject({ state: 'printed', lastError: null, shrinkAllowed: false });
    expect(p.printed).toHaveLength(1);
    // Not shrunk: the second barcode keeps its place at 1600 dots.
    expect(p.printed[0]).toContain('^FO50,1600');
  }, 30_000);

  it('prints by itself on a printer chosen with longer labels, and is held again on one still too short', async () => {
    const short = new ScriptedPrinter('socket://10.0.0.9:9100');
    const alsoShort = new ScriptedPrinter('socket://10.0.0.10:9100');
    const long = new ScriptedPrinter('socket://10.0.0.11:9100');
    store.settings.set(PrinterProfilesSetting, { [short.uri]: profile(152.4), [alsoShort.uri]: profile(140), [long.uri]: profile(254) });
    const s = service([short, alsoShort, long]);
    shipment('DHL103', LONG);
    const held = (await s.printLabel('DHL103', 'auto')).job!;
    await s.setUri(alsoShort.uri);
    await waitFor(() => store.printJobs.get(held.id)?.state === 'held' && store.printJobs.get(held.id)?.printerUri === alsoShort.uri, () => JSON.stringify(store.printJobs.get(held.id)));
    expect(alsoShort.printed).toEqual([]);
    await s.setUri(long.uri);
    await waitFor(() => store.printJobs.get(held.id)?.state === 'printed');
    expect([short.printed.length, alsoShort.printed.length, long.printed.length]).toEqual([0, 0, 1]);
  }, 30_000);

  it('goes to the printer a rule names for long labels, pinned there, and prints there at its size', async () => {
    const inUse = new ScriptedPrinter('socket://10.0.0.9:9100');
    const long = new ScriptedPrinter('socket://10.0.0.11:9100');
    store.settings.set(PrinterProfilesSetting, { [inUse.uri]: profile(152.4), [long.uri]: profile(254) });
    const s = service([inUse, long]);
    shipment('DHL104', LONG);
    shipment('DHL105', '^XA^PW812^LL1218^FO50,50^BY3^BCN,200,N^FD>;55555555^FS^XZ');
    const out = await s.printLabel('DHL104', 'auto', { longLabelPrinterUri: long.uri });
    expect(out.job).toMatchObject({ state: 'printed', printerUri: long.uri, lastError: null });
    expect([inUse.printed.length, long.printed.length]).toEqual([0, 1]);
    expect(events.some((e) => e.lastErrorText?.key === 'jobLongLabelSent' && e.lastError === `Longer than the labels loaded in ${inUse.uri}: sent to ${long.uri}, the shipping rule’s printer for long labels`)).toBe(true);
    // A label that fits stays on the printer in use, whatever the rule names for long ones.
    const fits = await s.printLabel('DHL105', 'auto', { longLabelPrinterUri: long.uri });
    expect(fits.job).toMatchObject({ state: 'printed', printerUri: inUse.uri });
    // Its reprint goes the same way: the long-label printer travels with the label.
    const again = await s.printLabel('DHL104', 'reprint');
    expect(again.job).toMatchObject({ state: 'printed', printerUri: long.uri });
  }, 30_000);

  it('with only text past the stock’s end prints at 100 %, the job saying how much was left off; a held job can be cancelled', async () => {
    const p = new ScriptedPrinter();
    store.settings.set(PrinterProfilesSetting, { [p.uri]: profile(152.4) });
    const s = service([p]);
    shipment('DHL106', TEXT_PAST);
    const out = await s.printLabel('DHL106', 'auto');
    expect(out.job).toMatchObject({ state: 'printed', lastErrorText: { key: 'jobPrintedCut' } });
    expect(out.job?.lastError).toMatch(/^Printed at 100 %: \d+(\.\d)? mm of text and lines past the end of the label left off$/);
    // At 100 %: the barcode's module unchanged, the label moved up into its 50-dot blank margin.
    expect(p.printed[0]).toContain('^FO50,0^BY3^BCN,200,N');
    shipment('DHL107', LONG);
    const held = (await s.printLabel('DHL107', 'auto')).job!;
    expect(s.cancel(held.id)).toMatchObject({ state: 'failed' });
    expect(s.pending()).toEqual([]);
  }, 30_000);
});

/** Waits (at most 10 s) until `done` holds. */
async function waitFor(done: () => boolean, said: () => string = () => ''): Promise<void> {
  const until = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out ${said()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
