/**
 * The identity of an order on the platform (issue 21): one text made from the
 * shop and the shop's order number. It is the order's reference on the
 * label, the `reference` of its shipments (POST /shipments, max 100; looked
 * up with GET /shipments?reference=; spec: Resources > Shipment request
 * fields, Endpoints > Shipments) and the `orderNumber` and
 * `recipient.reference` of POST /orders (max 100 and 50; spec: Resources >
 * Order, Value objects > Party).
 *
 * Rules, so that no two (shop, number) pairs ever share a reference and two
 * stations of one account that imported the same shop under the same name
 * compute the same one:
 * - the default shop's number as it is (`#1001`), the other shops' as
 *   `<shop> <number>` (`Bottega #1001`): the last space separates the shop
 *   from the number, because such a number never holds a space;
 * - a number ending like a later shipment's `-2` ... `-99` (`#1001-2`, a
 *   split order) gets a `~` after it (`#1001-2~`), so it never reads as the
 *   second shipment of `#1001` (see {@link shipmentReference}); `SO-1001`,
 *   `M-20260101-100`, `#1001-1`, `#1001-05` stay as they are;
 * - anything else (a number with spaces, `~` or control characters, a shop
 *   name with control characters or spaces around it, a text over
 *   {@link ORDER_REFERENCE_MAX} characters) becomes a readable, shortened text
 *   followed by ` ~` and 10 characters of a 64-bit FNV-1a hash of the pair
 *   (`Bottega artigiana del cuoio di ~7Q2M0X4KCB`); a plain reference never
 *   holds a last word starting with `~`, so the two kinds never meet.
 * The rules must never change: references already on the platform are found
 * by computing them again.
 */
import { DEFAULT_SHOP, type StationOrder } from './order';

/** Longest order reference (spec: Party.reference max 50, the tightest place it goes). */
export const ORDER_REFERENCE_MAX = 50;

/** Whitespace and control characters (spelled out so every station, whatever its Unicode tables, agrees). */
const isSpaceOrControl = (c: number) =>
  c <= 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0x1680 || (c >= 0x2000 && c <= 0x200f) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
/** Control characters only (a shop name may hold spaces, not line breaks or tabs). */
const isControl = (c: number) => c <= 0x1f || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0xfeff;
/** True when some UTF-16 unit of `s` satisfies `test`. */
function some(s: string, test: (c: number) => boolean): boolean {
  for (let i = 0; i < s.length; i++) if (test(s.charCodeAt(i))) return true;
  return false;
}
/** Most shipments of one order (after 98 cancels); {@link shipmentReference} numbers them `-2` to `-99`. */
export const MAX_SHIPMENTS_PER_ORDER = 99;
/** The end that a later shipment's reference adds: `-2` to `-99`, written without leading zeros. */
const NUMBER_SUFFIX = /-(?:[2-9]|[1-9]\d)$/;
/** Crockford base32: no I, L, O, U, so the hash reads back without doubt. */
const HASH_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const HASH_CHARS = 10;

/**
 * The order's reference: at most {@link ORDER_REFERENCE_MAX} characters,
 * different for every (shop, order number) pair, the same on every station
 * (module doc for the rules). `#1001` for the default shop, `Bottega #1001`
 * for shop Bottega.
 */
export function orderReference(order: Pick<StationOrder, 'shop' | 'orderNumber'>): string {
  const { shop, orderNumber } = order;
  const plainNumber = orderNumber !== '' && !some(orderNumber, isSpaceOrControl) && !orderNumber.includes('~');
  const plainShop = shop === DEFAULT_SHOP || (shop !== '' && shop === shop.trim() && !some(shop, isControl));
  if (plainNumber && plainShop) {
    const number = NUMBER_SUFFIX.test(orderNumber) ? `${orderNumber}~` : orderNumber;
    const ref = shop === DEFAULT_SHOP ? number : `${shop} ${number}`;
    if (ref.length <= ORDER_REFERENCE_MAX) return ref;
  }
  return hashedReference(shop, orderNumber);
}

/**
 * The `reference` of the order's `n`-th shipment (POST /shipments, max 100):
 * {@link orderReference} for the first, with `-2`, `-3`, ... for a later one
 * (after the earlier was cancelled). Never the same for two (shop, number, n).
 * @throws RangeError when `n` is not an integer from 1 to {@link MAX_SHIPMENTS_PER_ORDER}.
 */
export function shipmentReference(order: Pick<StationOrder, 'shop' | 'orderNumber'>, n = 1): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_SHIPMENTS_PER_ORDER) {
    throw new RangeError(`Shipment number must be an integer from 1 to ${MAX_SHIPMENTS_PER_ORDER}, got ${n}`);
  }
  const ref = orderReference(order);
  return n === 1 ? ref : `${ref}-${n}`;
}

/** Readable text of the pair, shortened, then ` ~` and the pair's hash. */
function hashedReference(shop: string, orderNumber: string): string {
  const tag = `~${hashOf(JSON.stringify([shop, orderNumber]))}`;
  // Runs of spaces and control characters read as one space.
  const clean = (s: string) => Array.from(s, (ch) => (isSpaceOrControl(ch.charCodeAt(0)) ? ' ' : ch)).join('').replace(/ +/g, ' ').trim();
  const number = clean(orderNumber);
  const shopText = shop === DEFAULT_SHOP ? '' : clean(shop);
  const room = ORDER_REFERENCE_MAX - tag.length - 1;
  let text: string;
  if (number.length >= room) text = number.slice(0, room);
  else if (shopText === '') text = number;
  else text = `${shopText.slice(0, room - number.length - 1).trimEnd()} ${number}`;
  text = text.trim();
  return text === '' ? tag : `${text} ${tag}`;
}

/** FNV-1a 64-bit over the UTF-8 bytes of `text`, as {@link HASH_CHARS} base32 characters (its top 50 bits). */
function hashOf(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  let out = '';
  for (let i = 0; i < HASH_CHARS; i++) {
    const shift = BigInt(64 - 5 * (i + 1));
    out += HASH_ALPHABET[Number((h >> shift) & 31n)] ?? '0';
  }
  return out;
}
