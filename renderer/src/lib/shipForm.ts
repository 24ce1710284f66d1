/**
 * The quote/ship form as the packer edits it (text fields), and its
 * conversion to the platform's request bodies. Field errors come from the very
 * zod schemas the platform validates with (`RatesRequest`, `ShipmentRequest`
 * in shared/platform), keyed by the spec's `details` paths
 * (`recipient.address.postalCode`, `packages.0.weight.value`), so the
 * platform's own 422 `details` land on the same fields. The parcels and the
 * box rule are in shipFormParcels.ts, the customs declaration in
 * shipFormCustoms.ts.
 */
import { RatesRequest, ShipmentRequest, issuesToDetails, type FieldErrors, type Rate } from '../../../shared/platform';
import type { StationOrder } from '../../../shared/domain/order';
import { orderReference } from '../../../shared/domain/order-reference';
import { completeCustomsDetail, customsStatus, type CustomsStatus } from '../../../shared/domain/customs';
import { parseDecimal } from './format';
import { customsFromOrder, draftToCustomsDetail, emptyCustoms, partyIdPath, commodityPath, CUSTOMS_PATHS, type CustomsDraft } from './shipFormCustoms';
import { emptyPackage, packagePath, packagesOf, withChooseBox, type BoxChoice, type PackageDraft } from './shipFormParcels';

/** Recipient fields as typed (flat; nested into Party by {@link draftToShipmentRequest}). */
export interface RecipientDraft {
  name: string;
  company: string;
  street: string;
  street2: string;
  city: string;
  province: string;
  postalCode: string;
  countryCode: string;
  phone: string;
  email: string;
}

/** The whole form: recipient, parcels, reference and options. Amounts in EUR. */
export interface ShipDraft {
  recipient: RecipientDraft;
  packages: PackageDraft[];
  reference: string;
  codEnabled: boolean;
  codAmount: string;
  codMethod: string;
  insuranceEnabled: boolean;
  insuranceAmount: string;
  notes: string;
  customs: CustomsDraft;
  /** The carrier pickup point the parcel is delivered to instead of the address (GET /delivery-points), or null. */
  deliveryPoint: { id: string; carrier: string; name: string; street: string; city: string } | null;
}

/** Form field -> spec `details` path, for recipient fields. */
export const RECIPIENT_PATHS: Record<keyof RecipientDraft, string> = {
  name: 'recipient.name',
  company: 'recipient.company',
  street: 'recipient.address.street',
  street2: 'recipient.address.street2',
  city: 'recipient.address.city',
  province: 'recipient.address.province',
  postalCode: 'recipient.address.postalCode',
  countryCode: 'recipient.address.countryCode',
  phone: 'recipient.phone',
  email: 'recipient.email',
};

/** Empty form (manual shipment without an order). */
export function emptyDraft(box?: BoxChoice): ShipDraft {
  return {
    recipient: { name: '', company: '', street: '', street2: '', city: '', province: '', postalCode: '', countryCode: 'IT', phone: '', email: '' },
    packages: [emptyPackage(box)],
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

const blank = (s: string): string | undefined => (s.trim() === '' ? undefined : s.trim());

function moneyOf(text: string) {
  return { amount: parseDecimal(text) as number, currency: 'EUR' };
}

/** POST /rates body from the form (destination, parcels, COD and insurance amounts). */
export function draftToRatesRequest(d: ShipDraft): RatesRequest {
  const options: NonNullable<RatesRequest['options']> = {};
  if (d.codEnabled) options.cod = moneyOf(d.codAmount);
  if (d.insuranceEnabled) options.insurance = moneyOf(d.insuranceAmount);
  return {
    recipient: {
      address: {
        postalCode: d.recipient.postalCode.trim(),
        countryCode: d.recipient.countryCode.trim(),
        city: blank(d.recipient.city),
        province: blank(d.recipient.province),
      },
    },
    packages: packagesOf(d.packages),
    ...(Object.keys(options).length ? { options } : {}),
  };
}

/** POST /shipments body from the form and the chosen rate (its contract code goes in `serviceType`). */
export function draftToShipmentRequest(d: ShipDraft, rate: Pick<Rate, 'carrierCode' | 'contractCode'> | null): ShipmentRequest {
  const r = d.recipient;
  const options: NonNullable<ShipmentRequest['options']> = {};
  if (d.codEnabled) options.cod = { ...moneyOf(d.codAmount), ...(blank(d.codMethod) ? { method: d.codMethod.trim() } : {}) };
  if (d.insuranceEnabled) options.insurance = moneyOf(d.insuranceAmount);
  const notes = blank(d.notes);
  if (notes) options.notes = notes;
  if (d.deliveryPoint) options.deliveryPoint = { id: d.deliveryPoint.id, carrier: d.deliveryPoint.carrier };
  return {
    recipient: {
      name: r.name.trim(),
      company: blank(r.company),
      address: {
        street: r.street.trim(),
        street2: blank(r.street2),
        city: r.city.trim(),
        province: blank(r.province),
        postalCode: r.postalCode.trim(),
        countryCode: r.countryCode.trim(),
      },
      phone: blank(r.phone),
      email: blank(r.email),
    },
    packages: packagesOf(d.packages),
    reference: blank(d.reference),
    ...(rate ? { carrierCode: rate.carrierCode, serviceType: rate.contractCode } : {}),
    ...(Object.keys(options).length ? { options } : {}),
    ...(customsOf(d).required ? { customsDetail: draftToCustomsDetail(d.customs) } : {}),
  };
}

/** Field errors of the parcels + destination for a quote (RatesRequest schema). Empty when valid. */
export function validateForQuote(d: ShipDraft): FieldErrors {
  const res = RatesRequest.safeParse(draftToRatesRequest(d));
  const out: FieldErrors = res.success ? {} : issuesToDetails(res.error.issues);
  return withChooseBox(d.packages, out);
}

/**
 * Field errors of the whole shipment (ShipmentRequest schema) plus the bench's
 * own COD rule: with COD on, the method must be one the chosen contract
 * offers (`cashOnDeliveryMethods`), and a contract without methods takes no COD.
 */
export function validateForShip(d: ShipDraft, rate: (Pick<Rate, 'cashOnDeliveryMethods'> & Partial<Pick<Rate, 'carrierCode'>>) | null): FieldErrors {
  const req = draftToShipmentRequest(d, null);
  const res = ShipmentRequest.safeParse(req);
  const out: FieldErrors = withChooseBox(d.packages, res.success ? {} : issuesToDetails(res.error.issues));
  const customs = customsOf(d);
  if (customs.required) {
    // The platform's own rules beyond the formats (currencies, country of manufacture), same code as the sandbox.
    if (d.customs.commodities.length === 0) out['customsDetail.commodities'] = [`${customs.reason}: add at least one line to the customs declaration`];
    else if (res.success && res.data.customsDetail) {
      for (const [k, v] of Object.entries(completeCustomsDetail(res.data.customsDetail).errors)) (out[k] ??= []).push(...v.filter((m) => !out[k]?.includes(m)));
    }
  }
  if (d.deliveryPoint && rate && 'carrierCode' in rate && rate.carrierCode !== d.deliveryPoint.carrier) {
    (out['options.deliveryPoint.id'] ??= []).push(`This pickup point is served by ${d.deliveryPoint.carrier.toUpperCase()} only: choose one of its rates (F2), or deliver to the address`);
  }
  if (d.codEnabled && rate) {
    const methods = Object.keys(rate.cashOnDeliveryMethods);
    if (methods.length === 0) (out['options.cod.method'] ??= []).push('This contract does not take cash on delivery');
    else if (!methods.includes(d.codMethod)) (out['options.cod.method'] ??= []).push('Choose how the courier collects the cash');
  }
  return out;
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
  d.packages.forEach((_, i) => {
    for (const f of ['weight', 'length', 'width', 'height'] as const) s.add(packagePath(i, f));
  });
  for (const p of ['packages', 'reference', 'options.cod', 'options.cod.amount', 'options.cod.method', 'options.insurance.amount', 'options.notes', 'options.deliveryPoint', 'options.deliveryPoint.id', 'options.deliveryPoint.carrier']) s.add(p);
  if (customsOf(d).required) {
    for (const p of Object.values(CUSTOMS_PATHS)) s.add(p);
    for (const p of ['customsDetail', 'customsDetail.commodities', 'customsDetail.customsValue']) s.add(p);
    for (const party of ['exporter', 'importer'] as const) for (const f of ['eori', 'vatNumber', 'taxId'] as const) s.add(partyIdPath(party, f));
    d.customs.commodities.forEach((_, i) => {
      for (const f of ['description', 'quantity', 'unitValue', 'weight', 'countryOfManufacture', 'harmonizedCode', 'quantityUnits', 'midCode', 'sku'] as const) s.add(commodityPath(i, f));
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
