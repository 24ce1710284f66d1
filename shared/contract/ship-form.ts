/**
 * The packer's form of the Quote and Ship screens as the screen sends it to
 * the core (issue 22 item 4): the recipient, the parcels, the options and the
 * customs lines exactly as typed (text: `1,25` and `1.25` both read by
 * `parseDecimal`, shared/domain/decimal.ts), and the rate the packer chose.
 * The core (electron/core/shipping/ship-form.ts) builds the platform's
 * request from it and names a bad field by the spec's `details` path
 * (`recipient.address.postalCode`, `packages.0.weight.value`,
 * `customsDetail.commodities.0.harmonizedCode`), which these paths are.
 */
import { z } from 'zod';

const text = z.string({ error: 'Must be text' });
const flag = z.boolean({ error: 'Must be true or false' });

/** Recipient fields as typed (flat; the core nests them into the spec's Party). */
const RecipientForm = z.object({
  name: text,
  company: text,
  street: text,
  street2: text,
  city: text,
  province: text,
  postalCode: text,
  countryCode: text,
  phone: text,
  email: text,
});
/** Recipient fields as typed. */
export type RecipientDraft = z.infer<typeof RecipientForm>;

/** One parcel as typed: weight kg, dimensions cm, and the box preset whose dimensions these are ('' when typed by hand). */
const ParcelForm = z.object({
  weight: text,
  /** True while `weight` is the weight known from product data (issue 24), not typed or weighed: the field says so. */
  fromProducts: flag.optional(),
  length: text,
  width: text,
  height: text,
  box: text,
});
/** One parcel as typed. */
export type ParcelDraft = z.infer<typeof ParcelForm>;

/** One commodity line of the customs declaration as typed (spec: Customs > Commodity). Value in the declaration currency, weight kg for the whole line. */
const CommodityForm = z.object({
  sku: text,
  description: text,
  quantity: text,
  unitValue: text,
  weight: text,
  /** Country of origin of the goods, ISO 3166-1 alpha-2 (the wire's `countryOfManufacture`). */
  originCountry: text,
  /** HS code, 6 to 10 digits (the wire's `harmonizedCode`). */
  hsCode: text,
  quantityUnits: text,
  midCode: text,
});
/** One commodity line as typed. */
export type CommodityDraft = z.infer<typeof CommodityForm>;

/** Exporter/importer identifiers as typed. */
const PartyIdsForm = z.object({ eori: text, vatNumber: text, taxId: text });
/** Exporter/importer identifiers as typed. */
export type PartyIdsDraft = z.infer<typeof PartyIdsForm>;

/**
 * The customs declaration as typed (spec: Customs > CustomsDetail). The core
 * sends it only when the destination is outside the EU customs territory
 * (shared/domain/customs.ts `customsStatus`).
 */
const CustomsForm = z.object({
  currency: text,
  customsValue: text,
  incoterm: text,
  dutiesPayment: text,
  contentType: text,
  exportReason: text,
  invoiceNumber: text,
  invoiceDate: text,
  exporter: PartyIdsForm,
  importer: PartyIdsForm,
  commodities: z.array(CommodityForm),
});
/** The customs declaration as typed. */
export type CustomsFields = z.infer<typeof CustomsForm>;

/**
 * The whole form: recipient, parcels, reference, options (amounts in EUR as
 * typed; COD and insurance sent only when enabled), customs lines and the
 * carrier delivery point the parcel goes to instead of the address (GET
 * /delivery-points), or null.
 */
export const ShipForm = z.object({
  recipient: RecipientForm,
  parcels: z.array(ParcelForm).min(1, { error: 'At least one parcel is required' }),
  reference: text,
  codEnabled: flag,
  codAmount: text,
  codMethod: text,
  insuranceEnabled: flag,
  insuranceAmount: text,
  notes: text,
  customs: CustomsForm,
  deliveryPoint: z.object({ id: text, carrier: text }).nullable(),
});
/** The form as the core reads it. */
export type ShipFormInput = z.infer<typeof ShipForm>;

/**
 * The rate the packer chose from the quote: its carrier and contract code
 * (`serviceType` on the wire) and the cash-on-delivery methods it offers
 * (method → label; spec: Resources > Rate `cashOnDeliveryMethods`).
 */
export const ChosenRate = z.object({
  carrierCode: z.string().trim().min(1, { error: 'Carrier code is required' }).max(200),
  contractCode: z.string().trim().min(1, { error: 'Contract code is required' }).max(200),
  cashOnDeliveryMethods: z.record(z.string().max(200), z.string().max(200)),
});
/** The rate the packer chose. */
export type ChosenRateInput = z.infer<typeof ChosenRate>;

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

/** The fields of a parcel a packer types (the box name is chosen, not typed). */
export type ParcelField = 'weight' | 'length' | 'width' | 'height';

/** Path of a package field in `details`: `packages.<i>.weight.value`, `packages.<i>.dimensions.length`. */
export function parcelPath(index: number, field: ParcelField): string {
  return field === 'weight' ? `packages.${index}.weight.value` : `packages.${index}.dimensions.${field}`;
}

/** The form's commodity fields the wire names otherwise (spec: Customs > Commodity). */
const COMMODITY_WIRE_NAMES: Partial<Record<keyof CommodityDraft, string>> = {
  hsCode: 'harmonizedCode',
  originCountry: 'countryOfManufacture',
  unitValue: 'unitValue.amount',
  weight: 'weight.value',
};

/**
 * Path of a commodity field in `details`, the wire's names: `hsCode` ->
 * `customsDetail.commodities.0.harmonizedCode`, `originCountry` ->
 * `customsDetail.commodities.0.countryOfManufacture`.
 */
export function commodityPath(index: number, field: keyof CommodityDraft): string {
  return `customsDetail.commodities.${index}.${COMMODITY_WIRE_NAMES[field] ?? field}`;
}

/** Paths of the declaration's own fields. */
export const CUSTOMS_PATHS = {
  customsValue: 'customsDetail.customsValue.amount',
  currency: 'customsDetail.customsValue.currency',
  incoterm: 'customsDetail.incoterm',
  dutiesPayment: 'customsDetail.dutiesPayment',
  contentType: 'customsDetail.contentType',
  exportReason: 'customsDetail.exportReason',
  invoiceNumber: 'customsDetail.invoiceNumber',
  invoiceDate: 'customsDetail.invoiceDate',
} as const;

/** Path of an exporter/importer identifier, e.g. `customsDetail.exporter.eori`. */
export function partyIdPath(party: 'exporter' | 'importer', field: keyof PartyIdsDraft): string {
  return `customsDetail.${party}.${field}`;
}

/** Message on a parcel that has no dimensions at all: the packer chooses a box. */
export const CHOOSE_BOX = 'Choose a box (Alt+1–9, or its number or barcode in Box) or type the dimensions';
