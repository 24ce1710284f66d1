/**
 * Issue 23 item 4: where a carrier's PDF page holds more than the label (the
 * corpus's DHL A4 pages: the label above the cut line, the sender's copy
 * below), the label printer prints the label found on it and the whole page
 * goes to the A4 printer when one is set (the packing-slip printer in A4
 * format). A whole station (createStation, its own store so the PDF label can
 * be stored as a PDF-only carrier's would be), a folder label printer and a
 * folder A4 printer: the A4 folder receives the carrier's page, byte for byte
 * or copied from a longer PDF, with every print of the label; the preview
 * says what else the page holds and where it goes; a label-sized page sends
 * nothing; an A4 printer that cannot take the page does not stop the label.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStation, type Station } from '../../../../electron/core/station';
import { openStore, type Store } from '../../../../electron/core/store';
import { invokerOf, tempDir } from '../helpers';
import { storeShipmentWithLabel } from '../../../support/label-shipment';

const REAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/labels/real');
const A4_PAGE = fs.readFileSync(path.join(REAL, 'dhl-paket-privat-a4.pdf'));
const LABEL_SIZED = fs.readFileSync(path.join(REAL, 'dhl-paket-business.pdf'));

let tmp: ReturnType<typeof tempDir>;
let store: Store;
let station: Station;
const invoke = invokerOf(() => station);
const labelDir = (): string => path.join(tmp.dir, 'labels');
const a4Dir = (): string => path.join(tmp.dir, 'a4');

beforeEach(async () => {
  tmp = tempDir('station-a4-rest-');
  store = openStore(path.join(tmp.dir, 'station.sqlite'));
  station = await createStation(
    {
      dataDir: tmp.dir,
      // Never called: every label here is stored, printing needs no network.
      platform: { mode: 'platform', baseUrl: 'http://127.0.0.1:9/api/2026-09', authUrl: 'http://127.0.0.1:9/auth', clientId: 'c', clientSecret: 's', accountName: 'a' },
      printerUri: pathToFileURL(labelDir()).href,
      version: 'test',
      store,
    },
    { platformRateLimits: false, printerTimeoutMs: 1000 },
  );
});

afterEach(async () => {
  await station?.close();
  tmp?.cleanup();
});

/** A shipment whose carrier gave only a PDF label. */
function pdfShipment(trackingNumber: string, pdf: Uint8Array): void {
  storeShipmentWithLabel(store, trackingNumber, 'PDF', pdf, { contractCode: 'DHL-PAKET', carrierCode: 'DHL' });
}

const setA4Printer = (uri: string | null) => invoke('slips.settings.set', { printerUri: uri, format: 'a4', paperWidthMm: 80, when: 'on_demand', shopName: '' });
const files = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** Prints the label again (Alt+R): printed on the label printer. */
async function reprint(trackingNumber: string): Promise<void> {
  const job = await invoke('labels.reprint', { trackingNumber });
  expect(job.state).toBe('printed');
}

/**
 * What the A4 folder holds once everything queued was sent: the A4 page leaves after the label, in the
 * background, and the station's close waits for it (no polling).
 */
async function a4FilesAfterClose(): Promise<string[]> {
  await station.close();
  return files(a4Dir());
}

describe('the rest of an A4 PDF page goes to the A4 printer', () => {
  it('DHL A4 page: the label to the label printer, the whole page to the A4 folder with every print; the preview says so', async () => {
    pdfShipment('DHL0001', A4_PAGE);
    await setA4Printer(pathToFileURL(a4Dir()).href);

    const preview = await invoke('labels.preview', { trackingNumber: 'DHL0001' });
    expect(preview.pageRest).not.toBeNull();
    expect(preview.pageRest!.pages).toEqual([1]);
    expect(preview.pageRest!.a4Printer?.uri).toBe(pathToFileURL(a4Dir()).href);
    // The sender's copy below the cut line: about 180 × 130 mm as it lies on the page.
    expect(preview.pageRest!.parts).toHaveLength(1);
    const part = preview.pageRest!.parts[0]!;
    expect(part.page).toBe(1);
    expect(part.width).toBeGreaterThan(150);
    expect(part.width).toBeLessThan(200);
    expect(part.height).toBeGreaterThan(100);
    expect(part.height).toBeLessThan(150);
    // The preview renders the label found on the page, not the page shrunk.
    expect(preview.labelCount).toBe(1);
    expect(preview.adaptationNotes.map((n) => n.key)).toContain('pdfOtherParts');

    await reprint('DHL0001');
    // A reprint sends the page again, never over the first file.
    await reprint('DHL0001');
    expect(await a4FilesAfterClose()).toEqual(['DHL0001-a4-2.pdf', 'DHL0001-a4.pdf']);
    // A single-page PDF goes as the carrier made it.
    expect(Buffer.compare(fs.readFileSync(path.join(a4Dir(), 'DHL0001-a4.pdf')), A4_PAGE)).toBe(0);
    expect(files(labelDir()).filter((f) => f.endsWith('.zpl'))).toEqual(['DHL0001-2.zpl', 'DHL0001.zpl']);
  }, 60_000);

  it('a longer PDF: only the A4 page goes to the A4 printer, copied out of the carrier’s PDF', async () => {
    const doc = await PDFDocument.create();
    for (const src of [LABEL_SIZED, A4_PAGE]) {
      const from = await PDFDocument.load(src);
      const [page] = await doc.copyPages(from, [0]);
      doc.addPage(page!);
    }
    pdfShipment('DHL0002', await doc.save());
    await setA4Printer(pathToFileURL(a4Dir()).href);

    const preview = await invoke('labels.preview', { trackingNumber: 'DHL0002' });
    expect(preview.labelCount).toBe(2);
    expect(preview.pageRest?.pages).toEqual([2]);

    await reprint('DHL0002');
    expect(await a4FilesAfterClose()).toEqual(['DHL0002-a4.pdf']);
    const sent = await PDFDocument.load(fs.readFileSync(path.join(a4Dir(), 'DHL0002-a4.pdf')));
    expect(sent.getPageCount()).toBe(1);
    const size = sent.getPage(0).getSize();
    expect(Math.round(size.width)).toBe(595);
    expect(Math.round(size.height)).toBe(842);
  }, 60_000);

  it('no A4 printer set: the preview says the rest is not printed, and nothing else is written', async () => {
    pdfShipment('DHL0003', A4_PAGE);
    await setA4Printer(null);
    const preview = await invoke('labels.preview', { trackingNumber: 'DHL0003' });
    expect(preview.pageRest?.pages).toEqual([1]);
    expect(preview.pageRest?.a4Printer).toBeNull();
    await reprint('DHL0003');
    expect(await a4FilesAfterClose()).toEqual([]);
    expect(files(labelDir()).filter((f) => f.endsWith('.zpl'))).toEqual(['DHL0003.zpl']);
  }, 60_000);

  it('a slip printer on receipts is not an A4 printer; a label-sized PDF has no rest', async () => {
    pdfShipment('DHL0004', A4_PAGE);
    pdfShipment('DHL0005', LABEL_SIZED);
    await invoke('slips.settings.set', { printerUri: pathToFileURL(a4Dir()).href, format: 'escpos', paperWidthMm: 80, when: 'on_demand', shopName: '' });
    expect((await invoke('labels.preview', { trackingNumber: 'DHL0004' })).pageRest?.a4Printer).toBeNull();
    expect((await invoke('labels.preview', { trackingNumber: 'DHL0005' })).pageRest).toBeNull();
    await reprint('DHL0004');
    await reprint('DHL0005');
    expect(await a4FilesAfterClose()).toEqual([]);
  }, 60_000);

  it('an A4 printer that cannot take the page does not stop the label', async () => {
    pdfShipment('DHL0006', A4_PAGE);
    // A4 "folder" under a plain file: nothing can be written there.
    fs.writeFileSync(path.join(tmp.dir, 'not-a-folder'), 'x');
    await setA4Printer(pathToFileURL(path.join(tmp.dir, 'not-a-folder', 'a4')).href);
    await reprint('DHL0006');
    expect(await a4FilesAfterClose()).toEqual([]);
    expect(files(labelDir()).filter((f) => f.endsWith('.zpl'))).toEqual(['DHL0006.zpl']);
    expect(fs.statSync(path.join(tmp.dir, 'not-a-folder')).isFile()).toBe(true);
  }, 60_000);
});
