/**
 * Orders typed in by hand at the bench (`orders.create`), validated with the
 * same {@link ManualOrderInput} schema the form uses.
 */
import { ManualOrderInput, type StationOrder } from '../../../shared/domain/order';
import { issuesToDetails } from '../../../shared/platform/common';
import { StoreError, type Store } from '../store';

/** Options of {@link createManualOrder}. */
export interface ManualOrderOptions {
  /** Clock for `createdAt` and generated numbers (default: system clock). */
  now?: () => Date;
}

/**
 * Validates `input` with {@link ManualOrderInput} and stores a `manual`, `open`
 * order created now. Without `orderNumber` the station assigns
 * `M-YYYYMMDD-NNN` (the day's next free number, in UTC).
 *
 * @throws StoreError `invalid_input` with `details` keyed by form field path
 *   (`recipient.postalCode`, `items.0.quantity`) when the input is invalid;
 *   `conflict` (details key `orderNumber`) when the number is already taken.
 */
export function createManualOrder(store: Store, input: unknown, opts: ManualOrderOptions = {}): StationOrder {
  const parsed = ManualOrderInput.safeParse(input);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues);
    const first = parsed.error.issues[0]?.message ?? 'invalid order';
    throw new StoreError('invalid_input', `Check the order: ${first}`, details);
  }
  const v = parsed.data;
  const now = (opts.now ?? (() => new Date()))();
  return store.tx(() => {
    const orderNumber = v.orderNumber ?? nextManualNumber(store, now);
    return store.orders.insert({
      orderNumber,
      ...(v.email !== undefined ? { email: v.email } : {}),
      createdAt: now.toISOString(),
      source: 'manual',
      recipient: v.recipient,
      items: v.items.map((it) => (it.sku === undefined ? { name: it.name, quantity: it.quantity, unitPrice: it.unitPrice } : it)),
      ...(v.total !== undefined ? { total: v.total } : {}),
      currency: v.currency,
      ...(v.notes !== undefined ? { notes: v.notes } : {}),
      status: 'open',
    });
  });
}

/** Next free `M-YYYYMMDD-NNN` for the day of `now` (UTC). */
function nextManualNumber(store: Store, now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  for (let n = 1; ; n++) {
    const candidate = `M-${day}-${String(n).padStart(3, '0')}`;
    if (!store.orders.getByNumber(candidate)) return candidate;
  }
}
