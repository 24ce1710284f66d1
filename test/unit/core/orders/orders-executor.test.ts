/** The `orders.submit` executor: the POST /orders body of a station order, batches, and `skipped` read as "already there". */
import { describe, expect, it } from 'vitest';
import { batches, createOrdersSubmitExecutor, platformOrderOf, type OrdersSubmitPayload } from '../../../../electron/core/orders/submit-executor';
import type { PlatformClient } from '../../../../electron/core/platform/client-api';
import type { OutboxRecord, Store } from '../../../../electron/core/store';
import type { StationOrder } from '../../../../shared/domain/order';
import type { OrdersRequest, OrdersResponse } from '../../../../shared/platform/orders';

const order = (over: Partial<StationOrder> = {}): StationOrder => ({
  id: 4,
  shop: 'Istanbul',
  orderNumber: '#2236',
  createdAt: '2026-11-20T10:00:00.000Z',
  source: 'shopify_csv',
  recipient: { name: 'Ayşe Yılmaz', street: 'Bağdat Cd. 120', city: 'İstanbul', postalCode: '34728', countryCode: 'TR' },
  items: [
    { sku: 'TR-CAY', name: 'Çay bardağı seti', quantity: 1, unitPrice: 450, fulfilled: true },
    { sku: 'TR-LOKUM', name: 'Lokum', quantity: 2, unitPrice: 120 },
  ],
  currency: 'TRY',
  status: 'open',
  paymentStatus: 'paid',
  delivery: 'ship',
  needsFix: [],
  ...over,
});

describe('orders.submit executor', () => {
  it('builds the order with shop + number as orderNumber and reference, and only the lines still to ship', () => {
    const built = platformOrderOf(order());
    expect(built).toEqual({
      ok: true,
      order: {
        recipient: { name: 'Ayşe Yılmaz', address: { street: 'Bağdat Cd. 120', city: 'İstanbul', postalCode: '34728', countryCode: 'TR' }, reference: 'Istanbul #2236' },
        orderNumber: 'Istanbul #2236',
        orderDate: '2026-11-20',
        items: [{ sku: 'TR-LOKUM', name: 'Lokum', quantity: 2, unitPrice: 120 }],
      },
    });
    expect(platformOrderOf(order({ recipient: { ...order().recipient, postalCode: '' } }))).toEqual({ ok: false, message: 'recipient.address.postalCode: Postal code is required' });
  });

  it('splits into batches of at most 100', () => {
    expect(batches(Array.from({ length: 250 }, (_, i) => i)).map((b) => b.length)).toEqual([100, 100, 50]);
  });

  it('reads created and skipped (already there) back to the local orders', async () => {
    const sent: OrdersRequest[] = [];
    const answer: OrdersResponse = {
      created: [{ id: 51, orderNumber: 'Istanbul #2237', itemsCount: 1, shipped: false }],
      skipped: [{ index: 0, orderNumber: 'Istanbul #2236', id: 50 }],
    };
    const client = { submitOrders: async (r: OrdersRequest) => (sent.push(r), answer) } as unknown as PlatformClient;
    const ex = createOrdersSubmitExecutor({ store: {} as Store, client });
    const a = platformOrderOf(order());
    const b = platformOrderOf(order({ id: 5, orderNumber: '#2237' }));
    if (!a.ok || !b.ok) throw new Error('orders should be valid');
    const row = { id: 1, attempts: 2, payload: { orders: [{ orderId: 4, order: a.order }, { orderId: 5, order: b.order }] } } as unknown as OutboxRecord<OrdersSubmitPayload>;
    const got = await ex.send(row);
    expect(sent[0]!.orders.map((o) => o.orderNumber)).toEqual(['Istanbul #2236', 'Istanbul #2237']);
    expect(ex.commit(row, got).result).toEqual({
      created: [{ orderId: 5, platformId: 51, orderNumber: 'Istanbul #2237' }],
      alreadyThere: [{ orderId: 4, platformId: 50, orderNumber: 'Istanbul #2236' }],
    });
  });
});
