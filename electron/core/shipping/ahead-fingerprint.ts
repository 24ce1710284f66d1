/**
 * What a label bought ahead was bought for (issue 43 item 3): a digest of the order's items (SKU and quantity),
 * its recipient's name and address, COD, and the rule that planned it. A label ahead whose order's digest differs
 * when a packer ships it was bought for another order (items, address or rule changed): it is cancelled and a new
 * label bought. The weight is compared on its own, with the verify tolerance.
 */
import { createHash } from 'node:crypto';
import type { StationOrder } from '../../../shared/domain/order';

/** JSON with every object's keys sorted and undefined left out: the warehouse's jsonb reorders keys. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * The digest of `order` planned by the rule named `ruleName` (null: none): SHA-256 hex of a canonical JSON of
 * the items (sorted by SKU), the recipient (name, address lines, postal code, city, province, country), the COD
 * amount and the rule's name. Stable across benches and restarts (no ids, no times).
 */
export function aheadFingerprint(order: StationOrder, ruleName: string | null): string {
  const r = order.recipient;
  const items = order.items.map((i) => [i.sku ?? '', i.name, i.quantity]).sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1])));
  const canonical = canonicalJson({ items, recipient: r, rule: ruleName, total: order.total ?? null, payment: order.paymentStatus, delivery: order.delivery });
  return createHash('sha256').update(canonical).digest('hex');
}
