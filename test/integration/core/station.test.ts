/**
 * The station core end to end: a real sandbox over HTTP (port 0) and a TCP
 * listener on port 0 standing in for the label printer. One bench day in
 * order: import, scan, quote, ship and print, reprint without network, a
 * print failure, cancel, platform errors passed through, offline shipping
 * retried without a second shipment, pickup, closing the day.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShipResult } from '../../../shared/contract/commands';
import type { PrintJobView } from '../../../shared/contract/views';
import type { StationOrder } from '../../../shared/domain/order';
import type { Rate } from '../../../shared/platform/resources';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import type { PlatformClient } from '../../../electron/core/platform/client-api';
import { closedPort } from './printing/fake-printer';
import { clientFor, parcel, pickupDate, recipient, stationFailure as failure, switchableFetch } from './helpers';
import { useStation } from './station-fixture';

let direct: PlatformClient;
const net = switchableFetch();
const events: Array<{ name: string; payload: unknown }> = [];

const fx = useStation({ options: () => ({ fetch: net.fetch, platformTimeoutMs: 5000, printerTimeoutMs: 2000, outboxBackoff: { baseMs: 600_000 } }) });
const invoke = fx.invoke;

async function order(code: string): Promise<StationOrder> {
  const r = await invoke('scan.resolve', { code });
  if (r.kind !== 'order') throw new Error(`${code} is not an order: ${r.kind}`);
  return r.order;
}

/** The POST /shipments body for an order, as the ship form builds it. */
function shipRequest(o: StationOrder, packages = [parcel()]) {
  const r = o.recipient;
  return {
    recipient: {
      name: r.name,
      address: { street: r.street, city: r.city, postalCode: r.postalCode, countryCode: r.countryCode, ...(r.province ? { province: r.province } : {}) },
    },
    packages,
  };
}

beforeAll(async () => {
  for (const name of ['app.changed', 'shipments.changed', 'printJobs.changed', 'orders.changed', 'manifests.changed', 'pickups.changed'] as const) {
    fx.station.events.on(name, (payload) => events.push({ name, payload }));
  }
  direct = clientFor(fx.sb, 0);
});

describe('station core, one bench day', () => {
  let cheapest: Rate;
  let first: ShipResult;

  it('answers app.info with platform, connection, credit, printer and backlog', async () => {
    const info = await invoke('app.info');
    expect(info.platform).toEqual({ mode: 'platform', baseUrl: fx.sb.baseUrl, accountName: fx.sb.clients[0]!.clientId });
    expect(info.connection).toBe('online');
    expect(info.credit?.currency).toBe('EUR');
    expect(info.printer).toMatchObject({ uri: fx.printer.uri, state: 'ready' });
    expect(info.pendingOutbox).toBe(0);
    expect(fx.station.info.mode).toBe('platform');
  });

  it('imports a Shopify CSV and resolves order numbers with or without #, any case', async () => {
    const report = await invoke('orders.importCsv', { fileName: 'orders.csv', content: generateShopifyCsv(8) });
    expect(report.errors).toEqual([]);
    expect(report.imported).toBeGreaterThanOrEqual(7);
    const open = (await invoke('orders.page', { view: 'to_ship', limit: 500 })).orders;
    expect(open.length).toBe(report.imported);
    expect((await order('#1001')).orderNumber).toBe('#1001');
    expect((await order('1001')).orderNumber).toBe('#1001');

    await invoke('orders.create', {
      orderNumber: 'WEB-77',
      recipient: { name: 'Anna Neri', street: 'Via Roma 1', city: 'Torino', province: 'TO', postalCode: '10121', countryCode: 'IT' },
      items: [{ name: 'Vaso', quantity: 1, unitPrice: 20 }],
    });
    expect((await order('web-77')).orderNumber).toBe('WEB-77');
    expect(await invoke('scan.resolve', { code: 'NOPE-404' })).toEqual({ kind: 'unknown', code: 'NOPE-404' });
  });

  it('quotes cheapest first', async () => {
    const o = await order('#1001');
    const rates = await invoke('shipping.quote', { request: { recipient: { address: { postalCode: o.recipient.postalCode, countryCode: 'IT' } }, packages: [parcel()] } });
    expect(rates.length).toBeGreaterThanOrEqual(2);
    const totals = rates.map((r) => r.price.total);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    cheapest = rates[0]!;
  });

  it('ships an order: label stored, order shipped, ZPL printed at once on the printer', async () => {
    const credit = await invoke('credit.get');
    const o = await order('#1001');
    first = await invoke('shipping.shipOrder', { orderId: o.id, request: { ...shipRequest(o), serviceType: cheapest.contractCode } });
    const ldv = first.shipment.trackingNumber;
    expect(first.printError).toBeNull();
    expect(first.printJob).toMatchObject({ state: 'printed', requestedBy: 'auto', printerUri: fx.printer.uri });
    expect(first.shipment).toMatchObject({ reference: '#1001', orderNumber: '#1001', cancelled: false, labelFormats: ['ZPL', 'PDF'] });
    expect(first.shipment.carrier.contractCode).toBe(cheapest.contractCode);

    const bytes = await fx.printer.job(0);
    expect(bytes.toString('utf8')).toContain(ldv);
    expect(bytes.toString('utf8')).toContain('^XA');
    expect(first.printJob?.bytesWritten).toBe(bytes.length);

    expect((await order('#1001')).status).toBe('shipped');
    const after = await invoke('credit.get');
    expect(after.balance).toBeCloseTo(credit.balance - first.shipment.cost.amount, 2);
    expect(events.some((e) => e.name === 'shipments.changed' && (e.payload as { trackingNumber: string }).trackingNumber === ldv)).toBe(true);
    expect(events.some((e) => e.name === 'printJobs.changed' && (e.payload as PrintJobView).state === 'printed')).toBe(true);

    // Shipping the same order again is refused rather than paid twice.
    const again = await failure(invoke('shipping.shipOrder', { orderId: o.id, request: shipRequest(o) }));
    expect(again.code).toBe('invalid_state');
  });

  it('resolves tracking numbers: the shipment, one of its packages, one only the platform knows', async () => {
    const byLdv = await invoke('scan.resolve', { code: first.shipment.trackingNumber.toLowerCase() });
    expect(byLdv.kind === 'shipment' && byLdv.shipment.trackingNumber).toBe(first.shipment.trackingNumber);

    const o = await order('#1002');
    const two = await invoke('shipping.shipOrder', { orderId: o.id, request: shipRequest(o, [parcel(1), parcel(2)]) });
    expect(two.shipment.packageTrackingNumbers).toHaveLength(2);
    const second = two.shipment.packageTrackingNumbers[1]!;
    expect(second).not.toBe(two.shipment.trackingNumber);
    const byPackage = await invoke('scan.resolve', { code: second });
    expect(byPackage.kind === 'shipment' && byPackage.shipment.trackingNumber).toBe(two.shipment.trackingNumber);

    const elsewhere = await direct.createShipment({ recipient: recipient('Luca Verdi'), packages: [parcel()], reference: `PANEL-${Date.now()}` });
    const adopted = await invoke('scan.resolve', { code: elsewhere.trackingNumber });
    expect(adopted.kind).toBe('shipment');
    if (adopted.kind === 'shipment') {
      expect(adopted.shipment.recipient?.name).toBe('Luca Verdi');
      expect(adopted.shipment.labelFormats).toEqual([]);
    }
    const recent = await invoke('shipments.recent', {});
    expect(recent.map((s) => s.trackingNumber)).toContain(elsewhere.trackingNumber);
  });

  it('reprints from the stored label without touching the network', async () => {
    const jobsBefore = fx.printer.jobs.length;
    const callsBefore = net.state.calls.length;
    net.state.down = true;
    try {
      const job = await invoke('labels.reprint', { trackingNumber: first.shipment.trackingNumber });
      expect(job).toMatchObject({ state: 'printed', requestedBy: 'reprint' });
      const bytes = await fx.printer.job(jobsBefore);
      expect(bytes.toString('utf8')).toContain(first.shipment.trackingNumber);
      expect(net.state.calls.length).toBe(callsBefore);
    } finally {
      net.state.down = false;
    }
    const view = await invoke('shipments.get', { trackingNumber: first.shipment.trackingNumber });
    expect(view.printJobs.map((j) => j.requestedBy)).toEqual(['auto', 'reprint']);
  });

  it('keeps the shipment when the printer is unreachable; the job waits and prints by itself, once, when the printer is back', async () => {
    const deadUri = `socket://127.0.0.1:${await closedPort()}`;
    const view = await invoke('printers.set', { uri: deadUri });
    expect(view.state).toBe('unreachable');
    const o = await order('#1003');
    const res = await invoke('shipping.shipOrder', { orderId: o.id, request: shipRequest(o) });
    expect(res.shipment.trackingNumber).toBeTruthy();
    expect(res.printError?.code).toBe('printer_unreachable');
    expect(res.printJob).toMatchObject({ state: 'queued', requestedBy: 'auto', lastError: expect.stringContaining('Waiting') });
    expect((await order('#1003')).status).toBe('shipped');

    // A reprint while the label waits joins the waiting job: it will not come out twice.
    const joined = await invoke('labels.reprint', { trackingNumber: res.shipment.trackingNumber });
    expect(joined).toMatchObject({ id: res.printJob?.id, state: 'queued' });
    const pending = await invoke('printJobs.pending');
    expect(pending.map((j) => j.id)).toEqual([res.printJob?.id]);

    const jobsBefore = fx.printer.jobs.length;
    await invoke('printers.set', { uri: fx.printer.uri });
    expect((await fx.printer.job(jobsBefore)).toString('utf8')).toContain(res.shipment.trackingNumber);
    await vi.waitFor(async () => expect(await invoke('printJobs.pending')).toEqual([]));
    const after = await invoke('shipments.get', { trackingNumber: res.shipment.trackingNumber });
    expect(after.printJobs).toMatchObject([{ id: res.printJob?.id, state: 'printed', printerUri: fx.printer.uri, requestedBy: 'auto' }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(fx.printer.jobs.length).toBe(jobsBefore + 1);
    expect((await invoke('printers.get')).uri).toBe(fx.printer.uri);
  });

  it('cancels with a refund and reopens the order', async () => {
    const o = await order('#1003');
    const ldv = o.shipmentTrackingNumber!;
    const credit = await invoke('credit.get');
    const res = await invoke('shipments.cancel', { trackingNumber: ldv });
    expect(res.cancelled).toBe(true);
    expect(res.refunded).toBeGreaterThan(0);
    expect((await invoke('credit.get')).balance).toBeCloseTo(credit.balance + res.refunded, 2);
    expect((await invoke('shipments.get', { trackingNumber: ldv })).cancelled).toBe(true);
    expect((await order('#1003')).status).toBe('open');
    const twice = await failure(invoke('shipments.cancel', { trackingNumber: ldv }));
    expect(twice.code).toBe('invalid_state');

    // The reopened order ships again under a new reference.
    const again = await invoke('shipping.shipOrder', { orderId: o.id, request: shipRequest(o) });
    expect(again.shipment.reference).toBe('#1003-2');
  });

  it('checks input against the contract before any handler runs', async () => {
    const e = await failure(invoke('shipping.shipOrder', { request: { recipient: recipient(), packages: [] } }));
    expect(e.code).toBe('invalid_input');
    expect(Object.keys(e.details ?? {})).toContain('request.packages');
  });

  it('passes platform validation errors through with details; the row needs attention, no shipment is left', async () => {
    const o = await order('#1004');
    const bad = shipRequest(o);
    bad.recipient.address.province = 'Milano';
    const e = await failure(invoke('shipping.shipOrder', { orderId: o.id, request: bad }));
    expect(e.code).toBe('validation_failed');
    expect(Object.keys(e.details ?? {})).toContain('recipient.address.province');
    expect((await order('#1004')).status).toBe('open');
    expect((await invoke('shipments.recent', {})).map((s) => s.reference)).not.toContain('#1004');
    expect((await direct.listShipments({ reference: '#1004' })).data).toEqual([]);
    expect((await invoke('app.info')).pendingOutbox).toBe(1);
  });

  it('offline: the shipment stays queued in the order\'s one row; shipping the order again sends it once', async () => {
    const o = await order('#1004');
    const request = shipRequest(o);
    net.state.down = true;
    const e = await failure(invoke('shipping.shipOrder', { orderId: o.id, request }));
    net.state.down = false;
    expect(e.code).toBe('offline');
    const info = await invoke('app.info');
    // The refused row of this order took the new request: one open row per order (issue 7).
    expect(info.pendingOutbox).toBe(1);

    const res = await invoke('shipping.shipOrder', { orderId: o.id, request });
    expect(res.shipment.reference).toBe('#1004');
    const onPlatform = await direct.listShipments({ reference: '#1004' });
    expect(onPlatform.data).toHaveLength(1);
    expect(onPlatform.data[0]!.trackingNumber).toBe(res.shipment.trackingNumber);
    expect((await invoke('app.info')).pendingOutbox).toBe(0);
  });

  it('books a pickup through the outbox', async () => {
    const carriers = await direct.getCarriers();
    const contract = carriers.find((c) => c.canRequestPickup)!.contracts[0]!;
    const pickup = await invoke('pickups.book', { request: { serviceType: contract.contractCode, pickupDate: pickupDate(), packages: [parcel(), parcel(3)] } });
    expect(pickup.pickupId).toBeTruthy();
    const list = await invoke('pickups.list');
    expect(list.map((p) => p.pickupId)).toContain(pickup.pickupId);
    expect(events.some((e) => e.name === 'pickups.changed')).toBe(true);
  });

  it('closes the day: manifests with PDF for every unmanifested shipment; they can no longer be cancelled', async () => {
    const open = await invoke('shipments.unmanifested');
    expect(open.length).toBeGreaterThanOrEqual(4);
    expect(open.every((s) => !s.cancelled && s.manifestId === null)).toBe(true);
    const manifests = await invoke('manifests.closeDay');
    expect(manifests.length).toBeGreaterThanOrEqual(1);
    expect(manifests.reduce((n, m) => n + m.totalShipments, 0)).toBe(open.length);
    expect(manifests.every((m) => m.hasPdf)).toBe(true);
    expect(await invoke('shipments.unmanifested')).toEqual([]);
    const view = await invoke('shipments.get', { trackingNumber: first.shipment.trackingNumber });
    expect(manifests.map((m) => m.id)).toContain(view.manifestId);

    const pdf = await invoke('manifests.pdf', { id: manifests[0]!.id });
    expect(Buffer.from(pdf.pdfBase64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.fileName).toBe(`manifest-${manifests[0]!.id}.pdf`);
    expect((await invoke('manifests.list')).map((m) => m.id).sort()).toEqual(manifests.map((m) => m.id).sort());

    const e = await failure(invoke('shipments.cancel', { trackingNumber: first.shipment.trackingNumber }));
    expect(e.code).toBe('invalid_state');
    expect(await invoke('manifests.closeDay')).toEqual([]);
  });
});
