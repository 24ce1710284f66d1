/**
 * The Queue panel's commands against the sandbox over HTTP: `outbox.list`
 * shows queued, needs-attention and done rows with their local records and
 * last errors; `outbox.retry` sends a refused row again once its cause is
 * fixed (credit topped up); `outbox.dismiss` closes only a row the platform
 * surely refused, never one that may have reached it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShipResult, StationEvents } from '../../../shared/contract/commands';
import type { OutboxRowView } from '../../../shared/contract/views';
import type { StationOrder } from '../../../shared/domain/order';
import { recipientToParty } from '../../../shared/domain/order';
import { invokeCommand } from '../../../electron/core/station';
import { parcel, stationFailure as failure, switchableFetch } from './helpers';
import { useStation } from './station-fixture';

const net = switchableFetch();
const outboxEvents: Array<StationEvents['outbox.changed']> = [];

const fx = useStation({ printer: 'file', options: () => ({ fetch: net.fetch, platformTimeoutMs: 5000, outboxBackoff: { baseMs: 600_000 } }) });
const invoke = fx.invoke;

/** Resolves when row `id` reaches `state` (the worker's `outbox.changed` event: a readiness signal, no sleeps). */
function rowReaches(id: number, state: OutboxRowView['state']): Promise<void> {
  return new Promise((resolve) => {
    const off = fx.station.events.on('outbox.changed', (e) => {
      if (e.id === id && e.state === state) {
        off();
        resolve();
      }
    });
  });
}

async function newOrder(orderNumber: string): Promise<StationOrder> {
  return invoke('orders.create', {
    orderNumber,
    recipient: { name: 'Giulia Bianchi', street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' },
    items: [{ name: 'Vaso', quantity: 1, unitPrice: 20 }],
  });
}

function ship(o: StationOrder, province?: string): Promise<ShipResult> {
  const party = recipientToParty(o.recipient);
  const recipient = province === undefined ? party : { ...party, address: { ...party.address, province } };
  return invoke('shipping.shipOrder', { orderId: o.id, request: { recipient, packages: [parcel()] } });
}

beforeAll(async () => {
  fx.station.events.on('outbox.changed', (e) => outboxEvents.push(e));
});

describe('outbox commands (Queue panel)', () => {
  let refusedId: number;

  it('lists a shipment refused for lack of credit as needing attention, with the platform error and its status', async () => {
    const account = fx.sb.state.accounts[0]!;
    const balance = account.credit.balance;
    account.credit.balance = 0;
    const o = await newOrder('Q-1');
    const err = await failure(ship(o));
    expect(err.code).toBe('shipment_rejected');

    const list = await invoke('outbox.list', {});
    expect(list.done).toEqual([]);
    expect(list.pending).toHaveLength(1);
    const row = list.pending[0]!;
    expect(row).toMatchObject({
      kind: 'shipment.create',
      title: 'Ship order Q-1',
      orderNumber: 'Q-1',
      reference: 'Q-1',
      trackingNumber: null,
      state: 'needs_attention',
      attempts: 1,
      lastError: { code: 'shipment_rejected', status: 422 },
      canRetry: true,
      canDismiss: true,
      outcome: null,
    });
    expect(row.lastError?.message).toContain('Insufficient prepaid credit');
    expect(outboxEvents.some((e) => e.id === row.id && e.state === 'needs_attention')).toBe(true);
    expect((await invoke('app.info')).pendingOutbox).toBe(1);
    refusedId = row.id;
    account.credit.balance = balance;
  });

  it('retry sends it again in the background once the credit is back: the shipment exists, its label is stored', async () => {
    const done = rowReaches(refusedId, 'done');
    const queued = await invoke('outbox.retry', { id: refusedId });
    expect(queued.state).toBe('queued');
    expect(queued.canRetry).toBe(false);
    await done;
    const list = await invoke('outbox.list', {});
    expect(list.pending).toEqual([]);
    const row = list.done.find((r) => r.id === refusedId)!;
    expect(row).toMatchObject({ state: 'done', outcome: 'sent', attempts: 2, lastError: null, orderNumber: 'Q-1' });
    expect(row.trackingNumber).toMatch(/\S{6,}/);
    const order = await invoke('scan.resolve', { code: 'Q-1' });
    expect(order).toMatchObject({ kind: 'order', order: { shipmentTrackingNumber: row.trackingNumber } });
    const recent = await invoke('shipments.recent', {});
    expect(recent.find((s) => s.trackingNumber === row.trackingNumber)?.labelFormats).toContain('ZPL');
    // Sent twice from the queue, paid once: the platform holds one shipment with that reference.
    const onPlatform = fx.sb.state.shipments.filter((s) => s.reference === 'Q-1');
    expect(onPlatform).toHaveLength(1);
    expect((await failure(invoke('outbox.retry', { id: refusedId }))).code).toBe('invalid_state');
  });

  it('dismiss closes a row the platform refused (422), with the note; the backlog drops', async () => {
    const o = await newOrder('Q-2');
    expect((await failure(ship(o, 'Milano'))).code).toBe('validation_failed');
    const row = (await invoke('outbox.list', {})).pending[0]!;
    expect(row).toMatchObject({ title: 'Ship order Q-2', state: 'needs_attention', lastError: { code: 'validation_failed', status: 422 }, canDismiss: true });
    expect(Object.keys(row.lastError?.details ?? {})).toContain('recipient.address.province'); // what to fix, as the platform said
    expect((await invoke('app.info')).pendingOutbox).toBe(1);

    const dismissed = await invoke('outbox.dismiss', { id: row.id, note: '  Customer collects in person  ' });
    expect(dismissed).toMatchObject({ state: 'done', outcome: 'dismissed', note: 'Customer collects in person', lastError: { code: 'validation_failed' }, canDismiss: false });
    expect(outboxEvents.at(-1)).toEqual({ id: row.id, state: 'done' });
    expect((await invoke('app.info')).pendingOutbox).toBe(0);
    const list = await invoke('outbox.list', { doneLimit: 1 });
    expect(list.done.map((r) => r.id)).toEqual([row.id]);
    expect((await failure(invoke('outbox.dismiss', { id: row.id }))).code).toBe('invalid_state');

    // The form fixed, the order still ships: a new row for the same order.
    const res = await ship(o);
    expect(res.shipment.orderNumber).toBe('Q-2');
  });

  it('never dismisses a row that may have reached the platform: a queued row after a network failure is refused, then sent', async () => {
    const o = await newOrder('Q-3');
    net.state.down = true;
    try {
      expect((await failure(ship(o))).code).toBe('offline');
    } finally {
      net.state.down = false;
    }
    const row = (await invoke('outbox.list', {})).pending[0]!;
    expect(row).toMatchObject({ title: 'Ship order Q-3', state: 'queued', lastError: { code: 'offline', status: null, details: null }, canRetry: false, canDismiss: false });
    const err = await failure(invoke('outbox.dismiss', { id: row.id }));
    expect(err.code).toBe('invalid_state');
    expect((await failure(invoke('outbox.retry', { id: row.id }))).code).toBe('invalid_state');
    expect((await failure(invoke('outbox.dismiss', { id: 99_999 }))).code).toBe('not_found_locally');
    // Malformed on purpose: what the contract's schema must refuse, so the untyped transport call.
    expect((await failure(invokeCommand(fx.station.handlers, 'outbox.dismiss', { id: 'x' }))).details).toHaveProperty('id');
    // Shipping the order again sends that very row.
    const res = await ship(o);
    expect(res.shipment.orderNumber).toBe('Q-3');
    const done = (await invoke('outbox.list', {})).done.find((r) => r.id === row.id);
    expect(done).toMatchObject({ state: 'done', outcome: 'sent', trackingNumber: res.shipment.trackingNumber });
  });
});
