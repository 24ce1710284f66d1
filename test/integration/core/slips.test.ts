/**
 * Packing slips in the core (issue 11), against the sandbox over HTTP and a
 * receipt printer on a loopback TCP port: a slip printed with the label is
 * created with the shipment and printed once; a printer that is off keeps
 * the slip queued and prints it by itself, once, when it comes back; Alt+K
 * (`slips.print`) prints another on demand; `never` prints none; an A4 slip
 * goes to a folder as a PDF; a bad printer URI is refused naming the field.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStation } from '../../../electron/shell/start';
import type { SlipJobView } from '../../../shared/contract';
import { recipientToParty, type StationOrder } from '../../../shared/domain/order';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { decodeEscPos, escPosText } from '../../support/escpos';
import { closedPort } from './printing/fake-printer';
import { receiptPrinter } from './printing/receipt-printer';
import { FakeUsbPrinter, fakeBus } from '../../unit/core/printing/transports/fake-usb';
import { invokerOf, orderByNumber, parcel, stationConfig, stationFailure, tempDir } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 1000, platformRateLimits: false, slipRetryMs: 100 }) });
const invoke = fx.invoke;

beforeAll(async () => {
  const created = '2026-11-20 10:00:00 +0000';
  const ship = { name: 'Niccolò Bianchi', a1: 'Via Roma 1', city: 'Forlì', zip: '47121', prov: 'FC', country: 'IT' };
  await invoke('orders.importCsv', {
    fileName: 'slips.csv',
    content: shopifyCsv(
      [1, 2, 3, 4, 5].flatMap((n) =>
        order({ name: `#60${n}`, id: `660000000060${n}`, created, email: `c${n}@example.it`, ship, items: [{ q: '2', n: 'Tazza fatta a mano', p: '12.00', sku: 'TAZ-1' }, { q: '1', n: 'Piattino', p: '5.00', sku: 'PIA-2' }], total: '29.00' }),
      ),
    ),
  });
});

const byNumber = (orderNumber: string): Promise<StationOrder> => orderByNumber(invoke, orderNumber);

const ship = async (o: StationOrder) => (await invoke('shipping.shipOrder', { orderId: o.id, request: { recipient: recipientToParty(o.recipient), packages: [parcel()] } })).shipment.trackingNumber;

/** Waits until the order's slip jobs satisfy `ok` (the runner prints in the background). */
async function slipsOf(orderId: number, ok: (jobs: SlipJobView[]) => boolean): Promise<SlipJobView[]> {
  const until = Date.now() + 5000;
  for (;;) {
    const jobs = await invoke('slips.list', { orderId });
    if (ok(jobs)) return jobs;
    if (Date.now() > until) throw new Error(`slip jobs of order ${orderId} never settled: ${JSON.stringify(jobs)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('packing slips on a USB receipt printer (the usb library injected, an Epson on the bus)', () => {
  it('prints through the station\'s USB transport; unplugged half-way it is NOT PRINTED and never resent by itself', async () => {
    const epson = new FakeUsbPrinter({ manufacturer: 'EPSON', product: 'TM-T20III', serial: 'X7K1' }, { vendorId: 0x04b8, productId: 0x0e28 }, 6, 'MFG:EPSON;CMD:ESC/POS;MDL:TM-T20III;CLS:PRINTER;');
    const dir = tempDir();
    const usbStation = await startStation(stationConfig(fx.sb, dir.dir, fx.printer.uri), { platformTimeoutMs: 5000, printerTimeoutMs: 1000, platformRateLimits: false, slipRetryMs: 100, usb: fakeBus(epson) });
    const call = invokerOf(() => usbStation);
    try {
      await call('orders.importCsv', {
        fileName: 'usb.csv',
        content: shopifyCsv(
          ['#701', '#702'].flatMap((name, n) =>
            order({ name, id: `77000000070${n}`, created: '2026-11-20 10:00:00 +0000', email: 'u@example.it', ship: { name: 'Anna Verdi', a1: 'Via Po 2', city: 'Torino', zip: '10123', prov: 'TO', country: 'IT' }, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO-3' }], total: '30.00' }),
          ),
        ),
      });
      await call('slips.settings.set', { printerUri: 'usb://04b8:0e28', format: 'escpos', paperWidthMm: 80, when: 'with_label', shopName: 'Bottega Verdi' });
      const first = await orderByNumber(call, '#701');
      const ldv = (await call('shipping.shipOrder', { orderId: first.id, request: { recipient: recipientToParty(first.recipient), packages: [parcel()] } })).shipment.trackingNumber;
      const until = Date.now() + 5000;
      while ((await call('slips.list', { orderId: first.id }))[0]?.state !== 'printed') {
        if (Date.now() > until) throw new Error('USB slip never printed');
        await new Promise((r) => setTimeout(r, 25));
      }
      const ops = decodeEscPos(Buffer.concat(epson.received));
      expect(ops.find((o) => o.op === 'barcode')).toMatchObject({ data: '#701' });
      expect(escPosText(ops)).toContain(`Tracking ${ldv}`);

      // Unplugged after 100 bytes: part of the slip may be out; it fails and waits for Alt+K.
      epson.script.fail = { kind: 'unplug', afterBytes: Buffer.concat(epson.received).length + 100 }; // counted from the device's first byte
      const second = await orderByNumber(call, '#702');
      await call('shipping.shipOrder', { orderId: second.id, request: { recipient: recipientToParty(second.recipient), packages: [parcel()] } });
      const until2 = Date.now() + 5000;
      let jobs = await call('slips.list', { orderId: second.id });
      while (jobs[0]?.state !== 'failed') {
        if (Date.now() > until2) throw new Error(`USB slip never failed: ${JSON.stringify(jobs)}`);
        await new Promise((r) => setTimeout(r, 25));
        jobs = await call('slips.list', { orderId: second.id });
      }
      await new Promise((r) => setTimeout(r, 300)); // retry periods pass: nothing is sent again
      expect((await call('slips.list', { orderId: second.id }))[0]).toMatchObject({ state: 'failed', attempts: 1 });
    } finally {
      await usbStation.close();
      dir.cleanup();
    }
  });
});

describe('packing slips', () => {
  it('refuses a printer URI the station cannot use, naming the field, and keeps the saved settings', async () => {
    const before = await invoke('slips.settings.get', {});
    expect(before.printerUri).toBeNull();
    const refused = await stationFailure(invoke('slips.settings.set', { ...before, printerUri: 'ftp://printer' }));
    expect(refused.code).toBe('invalid_input');
    expect(Object.keys(refused.details ?? {})).toEqual(['printerUri']);
    const badWidth = await stationFailure(invoke('slips.settings.set', { ...before, paperWidthMm: 76 as 80 }));
    expect(Object.keys(badWidth.details ?? {})).toEqual(['paperWidthMm']);
    expect(await invoke('slips.settings.get', {})).toEqual(before);
    // No slip printer: Alt+K says so instead of queueing into nowhere.
    const o = await byNumber('#601');
    expect((await stationFailure(invoke('slips.print', { orderId: o.id }))).code).toBe('invalid_state');
  });

  it('with the label: one slip per shipment, created with it, printed once, decoded as the printer reads it', async () => {
    const printer = await receiptPrinter();
    try {
      await invoke('slips.settings.set', { printerUri: `socket://127.0.0.1:${printer.port}`, format: 'escpos', paperWidthMm: 80, when: 'with_label', shopName: 'Bottega Verdi' });
      const o = await byNumber('#601');
      const ldv = await ship(o);
      const [job] = await slipsOf(o.id, (j) => j[0]?.state === 'printed');
      expect(job).toMatchObject({ orderNumber: '#601', trackingNumber: ldv, requestedBy: 'auto', format: 'escpos', attempts: 1 });
      await new Promise((r) => setTimeout(r, 50)); // the connection's close lands after the write
      expect(printer.slips).toHaveLength(1);
      const ops = decodeEscPos(printer.slips[0]!);
      const text = escPosText(ops);
      expect(text).toContain('Bottega Verdi');
      expect(text).toContain('Niccolò Bianchi');
      expect(text).toContain('2 x Tazza fatta a mano');
      expect(text).toContain('   SKU PIA-2');
      expect(text).toContain(`Tracking ${ldv}`);
      expect(ops.find((x) => x.op === 'barcode')).toMatchObject({ data: '#601' });
      expect(ops.filter((x) => x.op === 'cut')).toHaveLength(1);

      // Alt+K: another slip, asked for, printed; the automatic one stays the only auto.
      const again = await invoke('slips.print', { orderId: o.id });
      expect(again).toMatchObject({ requestedBy: 'reprint', trackingNumber: ldv });
      const jobs = await slipsOf(o.id, (j) => j.length === 2 && j.every((x) => x.state === 'printed'));
      expect(jobs.filter((x) => x.requestedBy === 'auto')).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 50));
      expect(printer.slips).toHaveLength(2);
    } finally {
      await printer.close();
    }
  });

  it('a slip printer that is off keeps the slip and prints it by itself, once, when it is back', async () => {
    const port = await closedPort();
    await invoke('slips.settings.set', { printerUri: `socket://127.0.0.1:${port}`, format: 'escpos', paperWidthMm: 58, when: 'with_label', shopName: 'Bottega Verdi' });
    const o = await byNumber('#602');
    const ldv = await ship(o);
    const [waiting] = await slipsOf(o.id, (j) => j[0]?.state === 'queued' && (j[0]?.attempts ?? 0) >= 2);
    expect(waiting!.lastError).toMatch(/^Waiting for the slip printer/);
    // The label did not wait for the slip printer.
    expect((await invoke('shipments.get', { trackingNumber: ldv })).trackingNumber).toBe(ldv);

    const printer = await receiptPrinter(port);
    try {
      const [done] = await slipsOf(o.id, (j) => j[0]?.state === 'printed');
      expect(done!.lastError).toBeNull();
      await new Promise((r) => setTimeout(r, 300)); // more retry periods: nothing prints twice
      expect(printer.slips).toHaveLength(1);
      expect(escPosText(decodeEscPos(printer.slips[0]!))).toContain(`Tracking ${ldv}`);
      expect(await invoke('slips.list', { orderId: o.id })).toHaveLength(1);
    } finally {
      await printer.close();
    }
  });

  it('"never" prints no slip; on demand prints only when asked; A4 goes to a folder as a PDF', async () => {
    const folder = path.join(fx.dir, 'slips');
    await invoke('slips.settings.set', { printerUri: `file://${folder}`, format: 'a4', paperWidthMm: 80, when: 'never', shopName: '' });
    const never = await byNumber('#603');
    await ship(never);
    await new Promise((r) => setTimeout(r, 100));
    expect(await invoke('slips.list', { orderId: never.id })).toEqual([]);

    await invoke('slips.settings.set', { printerUri: `file://${folder}`, format: 'a4', paperWidthMm: 80, when: 'on_demand', shopName: '' });
    const onDemand = await byNumber('#604');
    await ship(onDemand);
    expect(await invoke('slips.list', { orderId: onDemand.id })).toEqual([]);
    const job = await invoke('slips.print', { orderId: onDemand.id });
    const [printed] = await slipsOf(onDemand.id, (j) => j[0]?.state === 'printed');
    expect(printed).toMatchObject({ id: job.id, format: 'pdf', requestedBy: 'reprint' });
    const files = fs.readdirSync(folder);
    expect(files).toEqual([`slip-604-${job.id}.pdf`]);
    expect(fs.readFileSync(path.join(folder, files[0]!)).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
