import { describe, expect, it } from 'vitest';
import { SANDBOX_DOMAIN, SandboxEvents, type SandboxEvent } from '../../../electron/sandbox/events';
import type { ShipmentRecord } from '../../../electron/sandbox/model';

const at = new Date('2026-09-14T08:00:00Z');
const ev = (kind: SandboxEvent['kind'], n = 0): SandboxEvent => ({ kind, accountId: 1017, at, payload: { n } });

describe('event bus (state.events)', () => {
  it('delivers by kind and to * listeners, in emission order, until unsubscribed', () => {
    const bus = new SandboxEvents();
    const got: string[] = [];
    const off = bus.on('tracking.update', (e) => got.push(`t${String(e.payload.n)}`));
    bus.on('*', (e) => got.push(`*${e.kind}`));
    bus.emit(ev('tracking.update', 1));
    bus.emit(ev('stock.opened'));
    off();
    bus.emit(ev('tracking.update', 2));
    expect(got).toEqual(['t1', '*tracking.update', '*stock.opened', '*tracking.update']);
    expect(bus.history.map((e) => e.kind)).toEqual(['tracking.update', 'stock.opened', 'tracking.update']);
  });

  it('keeps going when a listener throws, reporting it, and bounds its history', () => {
    const bus = new SandboxEvents();
    const errors: string[] = [];
    bus.onListenerError = (err, e) => errors.push(`${e.kind}: ${err instanceof Error ? err.message : String(err)}`);
    const got: number[] = [];
    bus.on('shipment.created', () => {
      throw new Error('boom');
    });
    bus.on('shipment.created', (e) => got.push(e.payload.n as number));
    bus.historyLimit = 3;
    for (let i = 0; i < 5; i++) bus.emit(ev('shipment.created', i));
    expect(got).toEqual([0, 1, 2, 3, 4]);
    expect(errors).toHaveLength(5);
    expect(errors[0]).toBe('shipment.created: boom');
    expect(bus.history.map((e) => e.payload.n)).toEqual([2, 3, 4]);
  });

  it('builds the shipment.created payload with the common fields first', () => {
    const bus = new SandboxEvents();
    const s = { id: 100001, accountId: 1017, trackingNumber: 'BR1234567890', contractCode: 'BRT-EXP-NAZ', statusCode: 2, reference: null, carrierName: 'BRT', createdAt: at } as unknown as ShipmentRecord;
    const e = bus.emitShipmentCreated(s);
    expect(e).toMatchObject({ kind: 'shipment.created', accountId: 1017, at });
    expect(e.payload).toEqual({
      event: 'shipment.created',
      timestamp: '2026-09-14T10:00:00+02:00',
      ldv: 'BR1234567890',
      contractCode: 'BRT-EXP-NAZ',
      statusCode: 2,
      domain: SANDBOX_DOMAIN,
      shipping_id: 100001,
      client_id: 1017,
      client_store_id: null,
      order_id: null,
      vector_name: 'BRT',
    });
    expect(Object.keys(e.payload).slice(0, 6)).toEqual(['event', 'timestamp', 'ldv', 'contractCode', 'statusCode', 'domain']);
  });
});
