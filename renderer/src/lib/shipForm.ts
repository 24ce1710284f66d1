/**
 * The quote/ship form as the packer edits it (text fields): the form state
 * the screens keep and send as the packer's intent (`shipping.quote`,
 * `shipping.check`, `shipping.shipOrder` with `form`); the core builds the
 * platform's request from it and names bad fields by the spec's `details`
 * paths (`recipient.address.postalCode`, `packages.0.weight.value`), so the
 * platform's own 422 `details` land on the same fields. The parcels are in
 * shipFormParcels.ts, the customs declaration in shipFormCustoms.ts.
 */
import type { FieldErrors } from '../../../shared/platform';
import type { StationOrder } from '../../../shared/domain/order';
import { orderReference } from '../../../shared/domain/order-reference';
import { customsStatus, type CustomsStatus } from '../../../shared/domain/customs';
import { CUSTOMS_PATHS, RECIPIENT_PATHS, commodityPath, parcelPath, partyIdPath, type ParcelDraft, type RecipientDraft } from '../../../shared/contract/ship-form';
import { parseDecimal } from './format';
import { customsFromOrder, emptyCustoms, type CustomsDraft } from './shipFormCustoms';
import { emptyParcel, type BoxChoice } from './shipFormParcels';

/** The whole form: recipient, parcels, reference and options. Amounts in EUR. */
export interface ShipDraft {
  recipient: RecipientDraft;
  parcels: ParcelDraft[];
  reference: string;
  codEnabled: boolean;
  codAmount: string;
  codMethod: string;
  insuranceEnabled: boolean;
  insuranceAmount: string;
  notes: string;
  customs: CustomsDraft;
  /** The carrier delivery point the parcel is delivered to instead of the address (GET /delivery-points), or null. */
  deliveryPoint: { id: string; carrier: string; name: string; street: string; city: string } | null;
}

/** Empty form (manual shipment without an order). */
export function emptyDraft(box?: BoxChoice): ShipDraft {
  return {
    recipient: { name: '', company: '', street: '', street2: '', city: '', province: '', postalCode: '', countryCode: 'IT', phone: '', email: '' },
    parcels: [emptyParcel(box)],
    reference: '',
    codEnabled: false,
    codAmount: '',
    codMethod: '',
    insuranceEnabled: false,
    insuranceAmount: '',
    notes: '',
    customs: emptyCustoms('EUR'),
    deliveryPoint: null,
  };
}

/** Whether the form's destination needs a customs declaration, and why (shared/domain/customs.ts, the sandbox's own rule). */
export function customsOf(d: ShipDraft): CustomsStatus {
  const r = d.recipient;
  return customsStatus(r.countryCode, r.postalCode, r.city);
}

/** Form prefilled from an order: recipient, reference = {@link orderReference} (shop and number), notes. */
export function draftFromOrder(order: StationOrder, box?: BoxChoice): ShipDraft {
  const r = order.recipient;
  const d = emptyDraft(box);
  d.recipient = {
    name: r.name,
    company: r.company ?? '',
    street: r.street,
    street2: r.street2 ?? '',
    city: r.city,
    province: r.province ?? '',
    postalCode: r.postalCode,
    countryCode: r.countryCode,
    phone: r.phone ?? '',
    email: r.email ?? order.email ?? '',
  };
  // Shop + number when the station packs for several shops (`Istanbul #2236`), so labels never look alike.
  d.reference = orderReference(order);
  // A shop note may span lines; the courier's note is one line (ShipmentOptions.notes, max 255).
  d.notes = (order.notes ?? '').replace(/\s*[\r\n]+\s*/g, ' ').trim();
  d.customs = customsFromOrder(order);
  return d;
}

/**
 * What a quote answers, as a key: the destination and the parcels and the COD
 * and insurance amounts as numbers (so `1,5` and `1.5` are the same parcel).
 * A quote whose key differs from the form's is stale.
 */
export function quoteKey(d: ShipDraft): string {
  const n = (s: string) => parseDecimal(s) ?? null;
  const r = d.recipient;
  return JSON.stringify([
    r.postalCode.trim(), r.countryCode.trim(), r.city.trim(), r.province.trim(),
    d.parcels.map((p) => [n(p.weight), n(p.length), n(p.width), n(p.height)]),
    d.codEnabled ? n(d.codAmount) : false,
    d.insuranceEnabled ? n(d.insuranceAmount) : false,
  ]);
}

/** The first message for `path`, or undefined. */
export function firstError(errors: FieldErrors, path: string): string | undefined {
  return errors[path]?.[0];
}

/** Keys of `errors` that no field in `known` shows (listed at the top of the form so nothing is lost). */
export function unplacedErrors(errors: FieldErrors, known: ReadonlySet<string>): Array<[string, string[]]> {
  return Object.entries(errors).filter(([k]) => !known.has(k));
}

/** Every path the ship form shows a message under, for {@link unplacedErrors}. */
export function shipFormPaths(d: ShipDraft): Set<string> {
  const s = new Set<string>(Object.values(RECIPIENT_PATHS));
  d.parcels.forEach((_, i) => {
    for (const f of ['weight', 'length', 'width', 'height'] as const) s.add(parcelPath(i, f));
  });
  for (const p of ['packages', 'reference', 'options.cod', 'options.cod.amount', 'options.cod.method', 'options.insurance.amount', 'options.notes', 'options.deliveryPoint', 'options.deliveryPoint.id', 'options.deliveryPoint.carrier']) s.add(p);
  if (customsOf(d).required) {
    for (const p of Object.values(CUSTOMS_PATHS)) s.add(p);
    for (const p of ['customsDetail', 'customsDetail.commodities', 'customsDetail.customsValue']) s.add(p);
    for (const party of ['exporter', 'importer'] as const) for (const f of ['eori', 'vatNumber', 'taxId'] as const) s.add(partyIdPath(party, f));
    d.customs.commodities.forEach((_, i) => {
      for (const f of ['description', 'quantity', 'unitValue', 'weight', 'originCountry', 'hsCode', 'quantityUnits', 'midCode', 'sku'] as const) s.add(commodityPath(i, f));
    });
  }
  return s;
}

/**
 * Key handling of the rate list: digits 1..9 choose that rate, arrows move the
 * highlight, Enter chooses the highlighted one. A key held with Alt, Ctrl or
 * Meta is never the list's (Alt+digit chooses a box preset: one key, one action).
 * Returns the action, or null when the key is not for the list.
 */
export function rateKeyAction(
  key: string,
  highlighted: number,
  count: number,
  modifiers: { altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean } = {},
): { choose: number } | { highlight: number } | null {
  if (count === 0 || modifiers.altKey || modifiers.ctrlKey || modifiers.metaKey) return null;
  if (/^[1-9]$/.test(key)) {
    const i = Number(key) - 1;
    return i < count ? { choose: i } : null;
  }
  if (key === 'Enter') return { choose: Math.min(Math.max(highlighted, 0), count - 1) };
  if (key === 'ArrowDown') return { highlight: Math.min(highlighted + 1, count - 1) };
  if (key === 'ArrowUp') return { highlight: Math.max(highlighted - 1, 0) };
  if (key === 'Home') return { highlight: 0 };
  if (key === 'End') return { highlight: count - 1 };
  return null;
}
