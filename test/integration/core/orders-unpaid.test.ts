/**
 * Unpaid orders (issue 12 item 4) in the core, against the sandbox: with
 * `orders.allowUnpaid` false, `shipping.shipOrder` refuses an unpaid order
 * whatever the client (the screen's question is not the only guard), names
 * the order and sends nothing; a paid order ships; allowing unpaid orders
 * again lets the same order ship.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { recipientToParty, type StationOrder } from '../../../shared/domain/order';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { orderByNumber, parcel, stationFailure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, platformRateLimits: false }) });
const invoke = fx.invoke;
const created = '2026-11-20 10:00:00 +0000';

beforeAll(async () => {
  const ship = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
  await invoke('orders.importCsv', {
    fileName: 'bottega.csv',
    shop: 'Bottega',
    content: shopifyCsv([
      ...order({ name: '#3001', id: '3300000003001', created, email: 'a@example.it', financial: 'pending', ship, items: [{ q: '1', n: 'Vaso', p: '30.00', sku: 'VASO' }], total: '30.00' }),
      ...order({ name: '#3002', id: '3300000003002', created, email: 'b@example.it', ship, items: [{ q: '1', n: 'Piatto', p: '20.00', sku: 'PIATTO' }], total: '20.00' }),
    ]),
  });
});

const byNumber = (orderNumber: string): Promise<StationOrder> => orderByNumber(invoke, orderNumber);

const ship = (o: StationOrder) => invoke('shipping.shipOrder', { orderId: o.id, request: { recipient: recipientToParty(o.recipient), packages: [parcel()] } });

describe('unpaid orders in shipping.shipOrder', () => {
  it('refuses an unpaid order where the station forbids it, naming the order, and sends nothing', async () => {
    const settings = await invoke('orders.settings.get', {});
    await invoke('orders.settings.set', { ...settings, allowUnpaid: false });
    const unpaid = await byNumber('#3001');
    expect(unpaid.paymentStatus).toBe('unpaid');
    const before = fx.sb.state.shipments.length;
    const err = await stationFailure(ship(unpaid));
    expect(err.code).toBe('invalid_state');
    expect(err.message).toContain('#3001 of Bottega is not paid');
    expect(err.details?.orderId?.[0]).toContain('#3001');
    expect(fx.sb.state.shipments.length).toBe(before);
    expect((await invoke('outbox.list', {})).pending).toEqual([]);
    expect((await byNumber('#3001')).status).toBe('open');
  });

  it('ships a paid order of the same shop meanwhile', async () => {
    const r = await ship(await byNumber('#3002'));
    expect(r.shipment.trackingNumber).toMatch(/^[A-Z]{2}\d{10}$/);
  });

  it('ships the unpaid order once unpaid orders are allowed again (the screen asks first)', async () => {
    const settings = await invoke('orders.settings.get', {});
    await invoke('orders.settings.set', { ...settings, allowUnpaid: true });
    const r = await ship(await byNumber('#3001'));
    expect(r.shipment.trackingNumber).toMatch(/^[A-Z]{2}\d{10}$/);
    expect((await byNumber('#3001')).status).toBe('shipped');
  });
});
