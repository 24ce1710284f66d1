/**
 * What a packing slip says (issue 11), drawn the same on a receipt printer
 * (escpos.ts) and on A4 (pdf.ts): shop, order number, date (Europe/Rome,
 * dd/mm/yyyy), recipient, the lines still to ship, notes, tracking number;
 * the slip's own words in the bench's language (shared/print/slip-texts.ts).
 */
import { linesToShip, type StationOrder } from '../../../shared/domain/order';
import type { SlipLanguage } from '../../../shared/print/slip-texts';

/** The slip's text, ready to lay out. */
export interface SlipContent {
  shopName: string;
  /** The shop's order number as the packer scans it (`#1001`): printed and encoded as Code 128. */
  orderNumber: string;
  /** Printing date, `dd/mm/yyyy`, Europe/Rome. */
  date: string;
  /** Name, company, street lines, postal code + city (+ province), country: one per line, blanks dropped. */
  recipient: string[];
  /** Lines to ship: SKU (may be empty), title, quantity (integer ≥ 1). */
  lines: Array<{ sku: string; title: string; quantity: number }>;
  notes: string | null;
  trackingNumber: string | null;
  /** The carrier delivery point the parcel goes to (name, address), when the shipment has one. */
  deliveryPoint: string | null;
  /** The bench's language the slip's own words are drawn in (shared/print/slip-texts.ts); the order's texts stay as they are. */
  language: SlipLanguage;
}

let romeDate: Intl.DateTimeFormat | undefined;

/** `dd/mm/yyyy` of `ms` in Europe/Rome (the labels' and the platform's zone). */
function slipDate(ms: number): string {
  // Made on first use: the first time-zone formatter loads ICU's zone data (cold start, issue 15).
  romeDate ??= new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' });
  return romeDate.format(ms);
}

/**
 * The slip of `order`: `shopName` is used for the station's own shop
 * (`main`), other shops print their name; the tracking number when shipped;
 * `language` the bench's (setting `bench.language`), English when not given.
 */
export function slipContent(
  order: StationOrder,
  opts: { shopName: string; trackingNumber: string | null; nowMs: number; language?: SlipLanguage; deliveryPoint?: string | null },
): SlipContent {
  const r = order.recipient;
  const cityLine = [r.postalCode, r.city, r.province ? `(${r.province})` : ''].filter((s) => s && s.trim() !== '').join(' ');
  return {
    shopName: order.shop === 'main' ? opts.shopName : order.shop,
    orderNumber: order.orderNumber,
    date: slipDate(opts.nowMs),
    recipient: [r.name, r.company ?? '', r.street, r.street2 ?? '', cityLine, r.countryCode].map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => s !== ''),
    lines: linesToShip(order).map((i) => ({ sku: i.sku ?? '', title: i.name, quantity: i.quantity })),
    notes: order.notes?.replace(/\s+/g, ' ').trim() || null,
    trackingNumber: opts.trackingNumber,
    deliveryPoint: opts.deliveryPoint ?? null,
    language: opts.language ?? 'en',
  };
}
