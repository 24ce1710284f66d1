/**
 * Orders (spec: Endpoints > Orders, batch rules 1-4; Resources > Order):
 * `POST /orders` with `{saveToAddressBook?, orders[]}`.
 *
 * - 1 to 100 orders, validated as a whole: any invalid order rejects the call
 *   with 422 `validation_failed`, `details` keyed `orders.<i>.<field>`;
 * - an `orderNumber` repeated in the call is an error on the later one
 *   (`orders.<i>.orderNumber`); one already submitted creates nothing and is
 *   listed in `skipped` `{index, orderNumber, id}`;
 * - defaults: `countryCode` IT, `orderDate` today (Europe/Rome, simulated
 *   clock), `parcels` 1, `weight` 1 kg, `senderReference` the company name;
 *   an Italian postal code is completed with leading zeros; an Italian
 *   province may be the code or the full name (stored as the code); an item
 *   without `name` takes the catalog title of its SKU;
 * - `saveToAddressBook: true` saves the recipients of the created orders;
 * - 201 when at least one order was created, 200 when all were present.
 * Creating an order emits no event: `shipment.created` comes only when an
 * operator ships it, which the API cannot do.
 */
import type { FieldErrors } from '../../../shared/platform/common';
import { completePostalCode } from '../../../shared/domain/postal';
import { OrdersRequest, duplicateOrderNumbers, italianProvinceCode } from '../../../shared/platform/orders';
import { parseOrThrow, validationFailed } from '../errors';
import type { ApiRouter } from '../http';
import type { Account } from '../model';
import type { OrderItemRecord, OrderParty, OrderRecord } from '../orders';
import { round2 } from '../pricing';
import { isCalendarDate, localDate } from '../time';

type ParsedOrder = ReturnType<typeof OrdersRequest.parse>['orders'][number];

const nul = <T,>(v: T | undefined): T | null => (v === undefined || v === '' ? null : v);

/**
 * Applies the platform's defaults and rules to one parsed order. Problems are
 * added to `details` under `orders.<i>.`; the record is returned regardless
 * (it is only stored when the whole batch is valid).
 */
function buildOrder(account: Account, o: ParsedOrder, i: number, now: Date, details: FieldErrors): Omit<OrderRecord, 'id'> {
  const at = (path: string, msg: string) => (details[`orders.${i}.${path}`] ??= []).push(msg);
  const a = o.recipient.address;
  const countryCode = a.countryCode;
  const postalCode = completePostalCode(countryCode, a.postalCode);
  let province = nul(a.province);
  if (countryCode === 'IT') {
    if (!/^\d{5}$/.test(postalCode)) at('recipient.address.postalCode', 'Italian postal code must be 5 digits (leading zeros may be left out)');
    if (province !== null) {
      const code = italianProvinceCode(province);
      if (code === undefined) at('recipient.address.province', `Unknown Italian province "${province}": use the 2-letter code (e.g. MI) or the full name`);
      else province = code;
    }
  } else if (province !== null && province.length > 10) {
    at('recipient.address.province', 'Province must be at most 10 characters');
  }

  let orderDate = localDate(now);
  if (o.orderDate !== undefined) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(o.orderDate)) {
      if (isCalendarDate(o.orderDate)) orderDate = o.orderDate;
      else at('orderDate', 'Order date is not a real calendar date');
    } else {
      orderDate = localDate(new Date(o.orderDate));
    }
  }

  for (const [key, money] of [['cod', o.cod], ['insurance', o.insurance]] as const) {
    if (money && money.currency.toUpperCase() !== 'EUR') at(`${key}.currency`, 'Only EUR is accepted');
  }

  const catalog = account.catalog ?? [];
  const items: OrderItemRecord[] = o.items.map((it, j) => {
    let name = nul(it.name);
    if (name === null) {
      const product = it.sku !== undefined ? catalog.find((p) => p.sku === it.sku) : undefined;
      if (product) name = product.title;
      else at(`items.${j}.name`, it.sku ? `Name is required: SKU "${it.sku}" is not in the catalog` : 'Give the item a name or the SKU of a catalog product');
    }
    return { sku: nul(it.sku), name: name ?? '', quantity: it.quantity, unitPrice: it.unitPrice ?? null };
  });

  const recipient: OrderParty = {
    name: o.recipient.name,
    company: nul(o.recipient.company),
    address: { street: a.street, street2: nul(a.street2), city: a.city, province, postalCode, countryCode },
    phone: nul(o.recipient.phone),
    email: nul(o.recipient.email),
    reference: nul(o.recipient.reference),
  };
  const weightKg = o.weight.units === 'G' ? o.weight.value / 1000 : o.weight.value;
  return {
    accountId: account.accountId,
    orderNumber: o.orderNumber ?? null,
    orderDate,
    recipient,
    parcels: o.parcels,
    weightKg: Math.round(weightKg * 1000) / 1000,
    senderReference: o.senderReference ?? account.companyName,
    cod: o.cod && o.cod.amount > 0 ? { amount: round2(o.cod.amount), currency: 'EUR' } : null,
    insurance: o.insurance && o.insurance.amount > 0 ? { amount: round2(o.insurance.amount), currency: 'EUR' } : null,
    total: o.total ?? null,
    contentDescription: nul(o.contentDescription),
    notes: nul(o.notes),
    items,
    shipped: false,
    shipmentId: null,
    createdAt: now,
  };
}

/** Registers POST /orders. */
export function registerOrderRoutes(r: ApiRouter): void {
  r.post('/orders', ({ state, account, body, now }) => {
    const req = parseOrThrow(OrdersRequest, body);
    const details: FieldErrors = { ...duplicateOrderNumbers(req.orders) };
    const built = req.orders.map((o, i) => buildOrder(account, o, i, now, details));
    if (Object.keys(details).length) throw validationFailed(details);

    const book = state.orderBook;
    const created: Array<{ id: number; orderNumber: string | null; itemsCount: number; shipped: boolean }> = [];
    const skipped: Array<{ index: number; orderNumber: string; id: number }> = [];
    built.forEach((order, index) => {
      const existing = order.orderNumber !== null ? book.findByNumber(account.accountId, order.orderNumber) : undefined;
      if (existing && order.orderNumber !== null) {
        skipped.push({ index, orderNumber: order.orderNumber, id: existing.id });
        return;
      }
      const rec = book.add(order);
      if (req.saveToAddressBook) book.saveContact(account.accountId, rec.recipient, now);
      created.push({ id: rec.id, orderNumber: rec.orderNumber, itemsCount: rec.items.length, shipped: rec.shipped });
    });
    return { status: created.length > 0 ? 201 : 200, body: { created, skipped } };
  });
}
