/**
 * The open, paid one-line order to Rome that the renderer's store tests start
 * a job from (`useJob.startOrder`): only the fields the stores read.
 */
import type { StationOrder } from '../../shared/domain/order';

/** Order `id` (number `#<id>` unless given) of shop `main`: one 'TAZ-1' mug at 5 EUR to Giulia Rossi, 00184 Roma IT. */
export function sampleOrder(id: number, orderNumber = `#${id}`): StationOrder {
  return {
    id,
    orderNumber,
    shop: 'main',
    status: 'open',
    delivery: 'ship',
    needsFix: [],
    paymentStatus: 'paid',
    recipient: { name: 'Giulia Rossi', street: 'Via Roma 1', city: 'Roma', postalCode: '00184', countryCode: 'IT' },
    items: [{ sku: 'TAZ-1', name: 'Tazza', quantity: 1, unitPrice: 5 }],
    total: 5,
    currency: 'EUR',
  } as unknown as StationOrder;
}
