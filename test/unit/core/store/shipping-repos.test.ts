import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../electron/core/store';
import { tempStore, type testClock } from './helpers';

let store: Store;
let clock: ReturnType<typeof testClock>;
let cleanup: () => void;
beforeEach(() => ({ store, clock, cleanup } = tempStore()));
afterEach(() => cleanup());

const platformShipment = (ldv: string, reference: string) => ({
  id: 7001,
  trackingNumber: ldv,
  reference,
  status: { code: 2, key: 'shipped', label: 'Shipped' },
  carrier: { code: 'BRT', name: 'BRT', contractCode: 'BRT-EXP', contractName: 'Express' },
  cost: { total: 6.9, currency: 'EUR' },
});

function created(ldv = 'LDV000000001', reference = 'ST-1') {
  return store.shipments.recordPlatform({
    trackingNumber: ldv,
    platformId: 7001,
    reference,
    contractCode: 'BRT-EXP',
    carrierCode: 'BRT',
    statusKey: 'shipped',
    costTotal: 6.9,
    currency: 'EUR',
    platform: platformShipment(ldv, reference),
  });
}

describe('shipments repository', () => {
  it('completes a pending row with the platform answer, keeping its order and reference', () => {
    const order = store.orders.insert({
      orderNumber: '#1',
      createdAt: '2026-09-30T10:00:00.000Z',
      source: 'manual',
      recipient: { name: 'A', street: 'S', city: 'C', postalCode: '00100', countryCode: 'IT' },
      items: [],
      currency: 'EUR',
      status: 'open',
    });
    const pending = store.shipments.createPending({ reference: 'ST-1', orderId: order.id, contractCode: 'BRT-EXP' });
    expect(pending).toMatchObject({ trackingNumber: null, statusKey: null, reference: 'ST-1', orderId: order.id, platform: null });
    expect(store.shipments.getByReference('ST-1')?.id).toBe(pending.id);
    expect(store.shipments.listRecent()).toEqual([]); // pending rows are not "recent shipments"
    expect(store.shipments.listRecent({ includePending: true })).toHaveLength(1);

    clock.advance(1000);
    const done = store.shipments.recordPlatform(
      { trackingNumber: 'LDV000000001', platformId: 7001, statusKey: 'shipped', costTotal: 6.9, currency: 'EUR', platform: platformShipment('LDV000000001', 'ST-1') },
      { localId: pending.id },
    );
    expect(done).toMatchObject({
      id: pending.id,
      trackingNumber: 'LDV000000001',
      orderId: order.id,
      reference: 'ST-1',
      contractCode: 'BRT-EXP',
      statusKey: 'shipped',
      costTotal: 6.9,
      createdAt: '2026-10-01T08:00:00.000Z',
      updatedAt: '2026-10-01T08:00:01.000Z',
    });
    expect(done.platform).toEqual(platformShipment('LDV000000001', 'ST-1'));
    expect(store.shipments.listByOrder(order.id).map((s) => s.id)).toEqual([pending.id]);
  });

  it('upserts by tracking number and refuses a tracking number owned by another row', () => {
    const a = created();
    const again = store.shipments.recordPlatform({ trackingNumber: 'LDV000000001', statusKey: 'in_transit', platform: { x: 1 } });
    expect(again.id).toBe(a.id);
    expect(again.statusKey).toBe('in_transit');
    expect(again.costTotal).toBe(6.9); // fields left out keep their value
    const other = store.shipments.createPending({ reference: 'ST-2' });
    expect(() =>
      store.shipments.recordPlatform({ trackingNumber: 'LDV000000001', platform: {} }, { localId: other.id }),
    ).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(() => store.shipments.recordPlatform({ trackingNumber: 'X', platform: {} }, { localId: 999 })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('status, cancel, manifest assignment and the unmanifested list', () => {
    created('LDV1', 'R1');
    created('LDV2', 'R2');
    created('LDV3', 'R3');
    store.shipments.setStatus('LDV1', 'in_transit');
    expect(store.shipments.getByTrackingNumber('LDV1')?.statusKey).toBe('in_transit');
    store.shipments.markCancelled('LDV2');
    expect(store.shipments.getByTrackingNumber('LDV2')?.cancelledAt).toBe('2026-10-01T08:00:00.000Z');
    expect(store.shipments.listUnmanifested().map((s) => s.trackingNumber)).toEqual(['LDV1', 'LDV3']);
    expect(store.shipments.listUnmanifested({ carrierCode: 'GLS' })).toEqual([]);

    const m = store.manifests.save({ platformId: 55, carrierCode: 'BRT', totalShipments: 2, totalCost: 13.8, createdAt: '2026-10-01T17:00:00+02:00' });
    expect(store.shipments.assignManifest(['LDV1', 'LDV3', 'NOPE'], m.id)).toBe(2);
    expect(store.shipments.assignManifest(['LDV1'], m.id)).toBe(0); // already in a manifest
    expect(store.shipments.listUnmanifested()).toEqual([]);
    expect(store.shipments.listByManifest(m.id).map((s) => s.trackingNumber)).toEqual(['LDV1', 'LDV3']);
    expect(() => store.shipments.setStatus('NOPE', 'shipped')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('deletes only pending rows', () => {
    const p = store.shipments.createPending({ reference: 'R' });
    const s = created();
    expect(() => store.shipments.deletePending(s.id)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    store.shipments.deletePending(p.id);
    expect(store.shipments.getById(p.id)).toBeUndefined();
  });
});

describe('labels repository', () => {
  it('stores the decoded bytes exactly as received and returns the latest per format', () => {
    created();
    const zpl = '^XA^FO50,50^A0N,40,40^FDLDV000000001^FS^XZ\r\n';
    const pdfBytes = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x0a]);
    const saved = store.labels.saveFromPlatform('LDV000000001', {
      zpl: Buffer.from(zpl, 'latin1').toString('base64'),
      pdf: Buffer.from(pdfBytes).toString('base64'),
    });
    expect(saved.map((l) => l.format)).toEqual(['ZPL', 'PDF']);
    expect(Buffer.from(store.labels.getLatest('LDV000000001', 'ZPL')!.bytes).toString('latin1')).toBe(zpl);
    expect([...store.labels.getLatest('LDV000000001', 'PDF')!.bytes]).toEqual([...pdfBytes]);
    expect(store.labels.getLatest('LDV000000001')?.format).toBe('PDF');
    expect(store.labels.listForShipment('LDV000000001')).toEqual([
      { id: saved[0]!.id, trackingNumber: 'LDV000000001', format: 'ZPL', size: zpl.length, createdAt: '2026-10-01T08:00:00.000Z' },
      { id: saved[1]!.id, trackingNumber: 'LDV000000001', format: 'PDF', size: 8, createdAt: '2026-10-01T08:00:00.000Z' },
    ]);
  });

  it('rejects invalid base64 naming the field, and a label of an unknown shipment', () => {
    created();
    expect(() => store.labels.saveBase64('LDV000000001', 'ZPL', '^XA not base64 ^XZ')).toThrow(
      expect.objectContaining({ code: 'invalid_input', details: { 'label.zpl': ['not valid base64'] } }),
    );
    expect(() => store.labels.saveFromPlatform('LDV000000001', { zpl: 'QUJD', pdf: '!!' })).toThrow(
      expect.objectContaining({ details: { 'label.pdf': ['not valid base64'] } }),
    );
    expect(store.labels.listForShipment('LDV000000001')).toEqual([]); // both or neither
    expect(() => store.labels.saveBase64('UNKNOWN', 'ZPL', 'QUJD')).toThrow(/FOREIGN KEY/);
    expect(() => store.labels.save('LDV000000001', 'ZPL', new Uint8Array())).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });
});

describe('print jobs repository', () => {
  function label() {
    created();
    return store.labels.saveBase64('LDV000000001', 'ZPL', Buffer.from('^XA^XZ').toString('base64'));
  }

  it('queued -> printing -> printed, with attempts and bytes written', () => {
    const l = label();
    const job = store.printJobs.enqueue({ labelId: l.id, printerUri: 'socket://10.0.0.5:9100', requestedBy: 'auto' });
    expect(job).toMatchObject({ state: 'queued', attempts: 0, trackingNumber: 'LDV000000001', bytesWritten: 0, printedAt: null });
    const claimed = store.printJobs.claimNext('socket://10.0.0.5:9100');
    expect(claimed).toMatchObject({ id: job.id, state: 'printing', attempts: 1 });
    expect(store.printJobs.claimNext()).toBeUndefined();
    clock.advance(500);
    const printed = store.printJobs.markPrinted(job.id, 6);
    expect(printed).toMatchObject({ state: 'printed', bytesWritten: 6, printedAt: '2026-10-01T08:00:00.500Z' });
    expect(() => store.printJobs.markPrinted(job.id, 6)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });

  it('a printer not ready keeps the job queued; giving up fails it; a second auto job is refused', () => {
    const l = label();
    const job = store.printJobs.enqueue({ labelId: l.id, printerUri: 'usb://0a5f:0181', requestedBy: 'auto' });
    expect(() => store.printJobs.enqueue({ labelId: l.id, printerUri: 'usb://0a5f:0181', requestedBy: 'auto' })).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
    expect(store.printJobs.claimNext('socket://other:9100')).toBeUndefined();
    store.printJobs.claimNext('usb://0a5f:0181');
    const back = store.printJobs.markFailed(job.id, 'paper out', { retry: true });
    expect(back).toMatchObject({ state: 'queued', lastError: 'paper out', attempts: 1 });
    store.printJobs.claim(job.id);
    expect(store.printJobs.markFailed(job.id, 'head open', { retry: false, bytesWritten: 3 })).toMatchObject({
      state: 'failed',
      attempts: 2,
      bytesWritten: 3,
    });
    const reprint = store.printJobs.enqueue({ labelId: l.id, printerUri: 'usb://0a5f:0181', requestedBy: 'reprint' });
    expect(store.printJobs.listForShipment('LDV000000001').map((j) => [j.id, j.requestedBy])).toEqual([
      [job.id, 'auto'],
      [reprint.id, 'reprint'],
    ]);
    expect(store.printJobs.list({ state: 'queued' }).map((j) => j.id)).toEqual([reprint.id]);
    expect(store.printJobs.cancelQueued(reprint.id).state).toBe('failed');
  });

  it('keeps a note worded as a core text with its key and values, and reads plain notes as before (issue 25)', () => {
    const l = label();
    const job = store.printJobs.enqueue({ labelId: l.id, printerUri: 'socket://10.0.0.5:9100', requestedBy: 'auto' });
    store.printJobs.claimNext();
    const note = { message: 'Waiting: Printer 10.0.0.5:9100 refused the connection', text: { key: 'jobWaiting', values: { error: 'Printer 10.0.0.5:9100 refused the connection', errorKey: 'socketRefused', 'error.where': '10.0.0.5:9100' } } };
    expect(store.printJobs.markFailed(job.id, note, { retry: true })).toMatchObject({ state: 'queued', lastError: note.message, lastErrorText: note.text });
    // Setting the same reason again changes nothing; a plain reason replaces it and has no text.
    expect(store.printJobs.setWaiting(note)).toEqual([]);
    const [plain] = store.printJobs.setWaiting('{"message": not JSON at all');
    expect(plain?.lastError).toBe('{"message": not JSON at all');
    expect(plain && 'lastErrorText' in plain).toBe(false);
  });

  it('failInterrupted fails jobs left printing instead of printing them again', () => {
    const l = label();
    const job = store.printJobs.enqueue({ labelId: l.id, printerUri: 'file:///tmp/x', requestedBy: 'auto' });
    store.printJobs.claimNext();
    expect(store.printJobs.failInterrupted()).toBe(1);
    expect(store.printJobs.get(job.id)).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/interrupted/) });
    expect(store.printJobs.claimNext()).toBeUndefined();
  });
});
