/**
 * Finding an order's shipment on the platform by its reference (issue 21):
 * GET /shipments?reference= (spec: Endpoints > Shipments), then the detail
 * GET /shipments/{ldv} for the recipient (the list gives a summary). A
 * shipment is the order's only when its `reference` is exactly the one the
 * station sent (the platform's filter ignores case) AND its recipient has
 * the same name, postal code and country. A shipment with the reference but
 * another recipient is never taken: it is returned apart, for the packer's
 * message, by the two callers (the look-up before the first POST,
 * `shipping/shipments.ts`, and the settle rule, `shipping/shipment-executor.ts`).
 */
import type { Shipment } from '../../../shared/platform/resources';
import type { PlatformClient } from '../platform/client-api';
import { PlatformError } from '../platform/errors';
import type { Store } from '../store';
import { coreText } from '../../../shared/contract/core-text';
import type { StationText } from '../../../shared/contract/views';

/** How many pages of GET /shipments a reference look-up reads at most (200 per page). */
const MAX_LOOKUP_PAGES = 5;

/** What tells one recipient from another: name, postal code, country (as sent or as the platform shows them). */
export interface RecipientKey {
  name: string;
  postalCode: string;
  countryCode: string;
}

/** Recipient fields of a Party or a Shipment's `recipient` (any may be missing in what a platform returns). */
interface RecipientLike {
  name?: string | undefined;
  address?: { postalCode?: string | undefined; countryCode?: string | undefined } | undefined;
}

/** The {@link RecipientKey} of a Party, or undefined when its name, postal code or country is missing. */
export function recipientKeyOf(party: RecipientLike | undefined): RecipientKey | undefined {
  const name = party?.name;
  const postalCode = party?.address?.postalCode;
  const countryCode = party?.address?.countryCode;
  if (name === undefined || postalCode === undefined || countryCode === undefined) return undefined;
  return { name, postalCode, countryCode };
}

/** Name compared without case, accents or extra spaces (carriers often upper-case and strip accents). */
const foldName = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
/** Postal code without case, spaces or dashes (`LT-01103` = `lt 01103`). */
const foldPostal = (s: string) => s.toUpperCase().replace(/[\s-]/g, '');

/** True when `a` and `b` are the same recipient by {@link RecipientKey}. */
function sameRecipient(a: RecipientKey, b: RecipientKey): boolean {
  return foldName(a.name) === foldName(b.name) && foldPostal(a.postalCode) === foldPostal(b.postalCode) && a.countryCode.trim().toUpperCase() === b.countryCode.trim().toUpperCase();
}

/** A recipient in words for the packer: `Ona Kazlauskienė, LT-01103 LT`. */
function recipientText(k: RecipientKey): string {
  return `${k.name}, ${k.postalCode} ${k.countryCode}`;
}

/** Outcome of {@link findByReference}. */
export interface ReferenceLookup {
  /** The newest shipment with the reference and the same recipient (detail), if any. */
  match?: Shipment;
  /** Shipments with the reference and another (or no) recipient: never the order's. */
  others: Shipment[];
}

/**
 * The platform's shipment of an order: exactly `reference`, recipient equal
 * to `recipient` by {@link sameRecipient}, held by no other local row than
 * `localShipmentId`; the newest when several match. `from` (`YYYY-MM-DD`)
 * bounds the search (platform default: the last 30 days).
 * @throws PlatformError from GET /shipments or GET /shipments/{ldv} (a 404 of
 *   a detail only drops that candidate).
 */
export async function findByReference(
  client: PlatformClient,
  store: Store,
  opts: { reference: string; recipient: RecipientKey; from?: string; localShipmentId?: number },
): Promise<ReferenceLookup> {
  const candidates: Shipment[] = [];
  for (let page = 1; page <= MAX_LOOKUP_PAGES; page++) {
    const res = await client.listShipments({ reference: opts.reference, ...(opts.from ? { from: opts.from } : {}), per_page: 200, page });
    for (const s of res.data) {
      if (s.reference !== opts.reference) continue;
      const local = store.shipments.getByTrackingNumber(s.trackingNumber);
      if (local && local.id !== opts.localShipmentId) continue;
      candidates.push(s);
    }
    if (res.meta.current_page >= res.meta.last_page) break;
  }
  candidates.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  const others: Shipment[] = [];
  for (const c of candidates) {
    let detail: Shipment = c;
    if (!recipientKeyOf(c.recipient)) {
      try {
        detail = await client.getShipment(c.trackingNumber);
      } catch (e) {
        if (e instanceof PlatformError && e.status === 404) continue;
        throw e;
      }
    }
    const key = recipientKeyOf(detail.recipient);
    if (key && detail.reference === opts.reference && sameRecipient(key, opts.recipient)) return { match: detail, others };
    others.push(detail);
  }
  return { others };
}

/**
 * The packer's words for shipments that carry the order's reference but
 * another recipient: which, for whom, and that the station did not take them
 * (core text `shipmentElsewhereOne`/`shipmentElsewhereMany`: `message` English, `text` for the screens).
 */
export function mismatchText(others: readonly Shipment[], reference: string, recipient: RecipientKey): { message: string; text: StationText } {
  const which = others
    .map((s) => {
      const k = recipientKeyOf(s.recipient);
      return k ? `${s.trackingNumber} (${recipientText(k)})` : s.trackingNumber;
    })
    .join(', ');
  return coreText(others.length > 1 ? 'shipmentElsewhereMany' : 'shipmentElsewhereOne', { which, reference, recipient: recipientText(recipient) });
}
