/**
 * Conformance: POST /orders (spec: Endpoints > Orders, batch rules 1-4;
 * Resources > Order; Limits) over HTTP against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { OrdersResponse } from '../../../shared/platform/orders';
import { MONDAY_2026_09_14, start, type Caller, type ErrorBody } from '../sandbox/helpers';

/** A valid order for Rome; `over` replaces top-level fields. */
function order(orderNumber: string | undefined, over: Record<string, unknown> = {}) {
  return {
    ...(orderNumber !== undefined ? { orderNumber } : {}),
    recipient: { name: 'Anna Verdi', phone: '+39 333 1112223', address: { street: 'Via Merulana 120', city: 'Roma', postalCode: '00185' } },
    ...over,
  };
}

describe('conformance: POST /orders', () => {
  let sb: Sandbox;
  let a: Caller;
  let b: Caller;
  beforeAll(async () => {
    ({ sb, a, b } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  const book = () => sb.state.orderBook;
  const stored = (id: number) => {
    const o = book().orders.find((x) => x.id === id);
    if (!o) throw new Error(`order ${id} not stored`);
    return o;
  };

  it('creates orders (201) with the spec defaults: IT, today, 1 parcel, 1 kg, the company name', async () => {
    const r = await a('POST', '/orders', { orders: [order('WEB-1001'), order('WEB-1002', { parcels: 3, weight: { value: 500, units: 'G' }, senderReference: 'Negozio online' })] });
    expect(r.status).toBe(201);
    const body = OrdersResponse.parse(r.body);
    expect(body.skipped).toEqual([]);
    expect(body.created.map((c) => [c.orderNumber, c.itemsCount, c.shipped])).toEqual([
      ['WEB-1001', 0, false],
      ['WEB-1002', 0, false],
    ]);
    const first = stored(body.created[0]!.id);
    expect(first.recipient.address.countryCode).toBe('IT');
    expect(first.orderDate).toBe('2026-09-14');
    expect(first.parcels).toBe(1);
    expect(first.weightKg).toBe(1);
    expect(first.senderReference).toBe('Bottega Verdi S.r.l.');
    expect(first.accountId).toBe(sb.state.accounts[0]!.accountId);
    const second = stored(body.created[1]!.id);
    expect(second.parcels).toBe(3);
    expect(second.weightKg).toBe(0.5);
    expect(second.senderReference).toBe('Negozio online');
  });

  it('takes today in Europe/Rome from the simulated clock (22:30Z on the 14th is the 15th in Rome)', async () => {
    const late = await start({ clock: () => new Date('2026-09-14T22:30:00Z') });
    try {
      const r = await late.a('POST', '/orders', { orders: [order('WEB-LATE')] });
      expect(r.status).toBe(201);
      const one = late.sb.state.orderBook.orders.find((o) => o.id === OrdersResponse.parse(r.body).created[0]!.id);
      expect(one?.orderDate).toBe('2026-09-15');
      const dated = await late.a('POST', '/orders', { orders: [order('WEB-DATED', { orderDate: '2026-09-10' }), order('WEB-DT', { orderDate: '2026-09-11T23:30:00Z' })] });
      const ids = OrdersResponse.parse(dated.body).created.map((c) => c.id);
      expect(ids.map((id) => late.sb.state.orderBook.orders.find((o) => o.id === id)?.orderDate)).toEqual(['2026-09-10', '2026-09-12']);
    } finally {
      await late.sb.close();
    }
  });

  it('completes Italian postal codes with leading zeros and accepts a province by name, only in Italy', async () => {
    const r = await a('POST', '/orders', {
      orders: [
        order('WEB-ZIP-1', { recipient: { name: 'Marco Neri', address: { street: 'Via Nazionale 66', city: 'Roma', postalCode: '184', province: 'Roma' } } }),
        order('WEB-ZIP-2', { recipient: { name: 'Luca Fois', address: { street: 'Via Roma 2', city: 'Carloforte', postalCode: '9014', province: 'su' } } }),
        order('WEB-ZIP-3', { recipient: { name: 'Eva Lind', address: { street: 'Hauptstr. 5', city: 'Berlin', postalCode: '184', countryCode: 'de' } } }),
        order('WEB-ZIP-4', { recipient: { name: 'Ada Russo', address: { street: 'Via Emilia 1', city: 'Forlì', postalCode: '47121', province: 'forli cesena' } } }),
      ],
    });
    expect(r.status).toBe(201);
    const addr = OrdersResponse.parse(r.body).created.map((c) => stored(c.id).recipient.address);
    expect(addr.map((x) => [x.postalCode, x.province, x.countryCode])).toEqual([
      ['00184', 'RM', 'IT'],
      ['09014', 'SU', 'IT'],
      ['184', null, 'DE'],
      ['47121', 'FC', 'IT'],
    ]);
  });

  it('names an item without name after the catalog product with its SKU', async () => {
    const r = await a('POST', '/orders', {
      orders: [
        order('WEB-ITEMS', {
          items: [
            { sku: 'BV-OLIO-500', quantity: 2, unitPrice: 12.9 },
            { sku: 'BV-CAFFE-250' },
            { sku: 'CUSTOM-1', name: 'Cesto regalo', quantity: 1, unitPrice: 45 },
          ],
        }),
      ],
    });
    expect(r.status).toBe(201);
    const c = OrdersResponse.parse(r.body).created[0]!;
    expect(c.itemsCount).toBe(3);
    expect(stored(c.id).items).toEqual([
      { sku: 'BV-OLIO-500', name: 'Olio extravergine di oliva 500 ml', quantity: 2, unitPrice: 12.9 },
      { sku: 'BV-CAFFE-250', name: 'Caffè macinato miscela bar 250 g', quantity: 1, unitPrice: null },
      { sku: 'CUSTOM-1', name: 'Cesto regalo', quantity: 1, unitPrice: 45 },
    ]);
    // Another client's catalog is not this one's.
    const other = await b<ErrorBody>('POST', '/orders', { orders: [order('CR-1', { items: [{ sku: 'BV-OLIO-500' }] })] });
    expect(other.status).toBe(422);
    expect(other.body.error.details).toHaveProperty(['orders.0.items.0.name']);
  });

  it('creates no second order for an orderNumber already submitted: skipped with the existing id; 200 when all were present', async () => {
    const first = OrdersResponse.parse((await a('POST', '/orders', { orders: [order('WEB-2001'), order('WEB-2002')] })).body);
    const before = book().orders.length;
    const again = await a('POST', '/orders', { orders: [order('WEB-2001'), order('WEB-2002')] });
    expect(again.status).toBe(200);
    expect(OrdersResponse.parse(again.body)).toEqual({
      created: [],
      skipped: [
        { index: 0, orderNumber: 'WEB-2001', id: first.created[0]!.id },
        { index: 1, orderNumber: 'WEB-2002', id: first.created[1]!.id },
      ],
    });
    expect(book().orders.length).toBe(before);

    const mixed = await a('POST', '/orders', { orders: [order('WEB-2003'), order('WEB-2001'), order(undefined)] });
    expect(mixed.status).toBe(201);
    const m = OrdersResponse.parse(mixed.body);
    expect(m.created.map((c) => c.orderNumber)).toEqual(['WEB-2003', null]);
    expect(m.skipped).toEqual([{ index: 1, orderNumber: 'WEB-2001', id: first.created[0]!.id }]);
    // Orders without a number are never skipped.
    const twice = OrdersResponse.parse((await a('POST', '/orders', { orders: [order(undefined)] })).body);
    expect(twice.created).toHaveLength(1);
  });

  it('keeps order numbers per client: another client may use the same number', async () => {
    const mine = OrdersResponse.parse((await a('POST', '/orders', { orders: [order('SHARED-1')] })).body);
    const theirs = await b('POST', '/orders', { orders: [order('SHARED-1')] });
    expect(theirs.status).toBe(201);
    const t = OrdersResponse.parse(theirs.body);
    expect(t.skipped).toEqual([]);
    expect(t.created[0]!.id).not.toBe(mine.created[0]!.id);
    expect(stored(t.created[0]!.id).senderReference).toBe('Ceramiche Rossi S.n.c.');
  });

  it('rejects two orders with the same orderNumber in one call (orders.<i>.orderNumber), creating nothing', async () => {
    const before = book().orders.length;
    const r = await a<ErrorBody>('POST', '/orders', { orders: [order('DUP-A'), order('DUP-B'), order('DUP-C'), order('DUP-A')] });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(Object.keys(r.body.error.details ?? {})).toEqual(['orders.3.orderNumber']);
    expect(book().orders.length).toBe(before);
  });

  it('validates the batch as a whole: one invalid order rejects the call, details keyed orders.<i>.<path>', async () => {
    const before = book().orders.length;
    const bad = order('WHOLE-2', { recipient: { name: 'Senza CAP', address: { street: 'Via Roma 1', city: 'Roma' } } });
    const r = await a<ErrorBody>('POST', '/orders', { orders: [order('WHOLE-1'), bad, order('WHOLE-3')] });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual({ 'orders.1.recipient.address.postalCode': [expect.any(String)] });
    expect(book().orders.length).toBe(before);
    expect(book().orders.some((o) => o.orderNumber === 'WHOLE-1')).toBe(false);
  });

  it.each([
    ['no orders', { orders: [] }, 'orders'],
    ['orders missing', {}, 'orders'],
    ['101 orders', { orders: Array.from({ length: 101 }, (_, i) => order(`MANY-${i}`)) }, 'orders'],
    ['51 parcels', { orders: [order('P', { parcels: 51 })] }, 'orders.0.parcels'],
    ['0 parcels', { orders: [order('P', { parcels: 0 })] }, 'orders.0.parcels'],
    ['201 items', { orders: [order('I', { items: Array.from({ length: 201 }, () => ({ name: 'x' })) })] }, 'orders.0.items'],
    ['item quantity 0', { orders: [order('Q', { items: [{ name: 'x', quantity: 0 }] })] }, 'orders.0.items.0.quantity'],
    ['item without name nor known SKU', { orders: [order('N', { items: [{ sku: 'NOPE' }] })] }, 'orders.0.items.0.name'],
    ['recipient name missing', { orders: [order('R', { recipient: { address: { street: 'Via Roma 1', city: 'Roma', postalCode: '00185' } } })] }, 'orders.0.recipient.name'],
    ['street missing', { orders: [order('S', { recipient: { name: 'X', address: { city: 'Roma', postalCode: '00185' } } })] }, 'orders.0.recipient.address.street'],
    ['Italian postal code not digits', { orders: [order('Z', { recipient: { name: 'X', address: { street: 'Via Roma 1', city: 'Roma', postalCode: 'ABCDE' } } })] }, 'orders.0.recipient.address.postalCode'],
    ['unknown Italian province', { orders: [order('V', { recipient: { name: 'X', address: { street: 'Via Roma 1', city: 'Roma', postalCode: '00185', province: 'Narnia' } } })] }, 'orders.0.recipient.address.province'],
    ['country of 3 letters', { orders: [order('C', { recipient: { name: 'X', address: { street: 'Via Roma 1', city: 'Roma', postalCode: '00185', countryCode: 'ITA' } } })] }, 'orders.0.recipient.address.countryCode'],
    ['bad e-mail', { orders: [order('E', { recipient: { name: 'X', email: 'not-an-email', address: { street: 'Via Roma 1', city: 'Roma', postalCode: '00185' } } })] }, 'orders.0.recipient.email'],
    ['order date not real', { orders: [order('D', { orderDate: '2026-02-30' })] }, 'orders.0.orderDate'],
    ['order date malformed', { orders: [order('D', { orderDate: '14/09/2026' })] }, 'orders.0.orderDate'],
    ['COD in dollars', { orders: [order('M', { cod: { amount: 20, currency: 'USD' } })] }, 'orders.0.cod.currency'],
    ['negative total', { orders: [order('T', { total: -1 })] }, 'orders.0.total'],
    ['weight zero', { orders: [order('W', { weight: { value: 0 } })] }, 'orders.0.weight.value'],
    ['saveToAddressBook not boolean', { saveToAddressBook: 'yes', orders: [order('B')] }, 'saveToAddressBook'],
  ])('answers 422 for %s (%s)', async (_name, body, key) => {
    const r = await a<ErrorBody>('POST', '/orders', body);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });

  it('accepts 100 orders, 50 parcels and 200 items (the upper bounds)', async () => {
    const r = await a('POST', '/orders', {
      orders: [order('BIG-0', { parcels: 50, items: Array.from({ length: 200 }, (_, i) => ({ name: `Riga ${i}` })) }), ...Array.from({ length: 99 }, (_, i) => order(`BIG-${i + 1}`))],
    });
    expect(r.status).toBe(201);
    const body = OrdersResponse.parse(r.body);
    expect(body.created).toHaveLength(100);
    expect(body.created[0]!.itemsCount).toBe(200);
  });

  it('saves recipients in the address book only when asked, once per recipient', async () => {
    const account = sb.state.accounts[0]!.accountId;
    const before = book().contactsOf(account).length;
    await a('POST', '/orders', { orders: [order('AB-0')] });
    expect(book().contactsOf(account).length).toBe(before);

    const giulia = { name: 'Giulia Bianchi', email: 'giulia@example.it', address: { street: 'Via Torino 15', city: 'Milano', postalCode: '20123', province: 'MI' } };
    const r = await a('POST', '/orders', { saveToAddressBook: true, orders: [order('AB-1', { recipient: giulia }), order('AB-2', { recipient: { ...giulia, phone: '+39 02 555 0101' } })] });
    expect(r.status).toBe(201);
    const contacts = book().contactsOf(account).filter((c) => c.name === 'Giulia Bianchi');
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ email: 'giulia@example.it', phone: '+39 02 555 0101', address: { postalCode: '20123', countryCode: 'IT' } });
    // The other client's book is separate.
    expect(book().contactsOf(sb.state.accounts[1]!.accountId).some((c) => c.name === 'Giulia Bianchi')).toBe(false);
  });

  it('emits no event: shipment.created comes only when an operator ships the order', async () => {
    const seen: string[] = [];
    const off = sb.state.events.on('*', (e) => seen.push(e.kind));
    try {
      expect((await a('POST', '/orders', { orders: [order('EV-1')] })).status).toBe(201);
    } finally {
      off();
    }
    expect(seen).toEqual([]);
  });

  it('needs a token and answers 405 for another method', async () => {
    const r = await fetch(`${sb.baseUrl}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ orders: [order('X')] }) });
    expect(r.status).toBe(401);
    const g = await a<ErrorBody>('GET', '/orders');
    expect(g.status).toBe(405);
    expect(g.body.error.code).toBe('method_not_allowed');
  });
});
