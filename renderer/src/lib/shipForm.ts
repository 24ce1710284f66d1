/**
 * The quote/ship form as the packer edits it (text fields), and its
 * conversion to the platform's request bodies. Field errors come from the very
 * zod schemas the platform validates with (`RatesRequest`, `ShipmentRequest`
 * in shared/platform), keyed by the spec's `details` paths
 * (`recipient.address.postalCode`, `packages.0.weight.value`), so the
 * platform's own 422 `details` land on the same fields.
 */
import { RatesRequest, ShipmentRequest, issuesToDetails, type FieldErrors, type Rate } from '../../../shared/platform';
import type { StationOrder } from '../../../shared/domain/order';
import { orderReference } from '../../../shared/domain/order-reference';
import type { CustomsProductView, CustomsSettings } from '../../../shared/contract/customs';
import { completeCustomsDetail, customsStatus, type CustomsStatus } from '../../../shared/domain/customs';
import type { BoxPreset } from '../../../shared/contract/boxes';
import { parseDecimal } from './format';

/** One parcel as typed: weight kg, dimensions cm, and the box preset whose dimensions these are ('' when typed by hand). */
export interface PackageDraft {
  weight: string;
  length: string;
  width: string;
  height: string;
  box: string;
}

/** The fields of a parcel a packer types (the box name is chosen, not typed). */
export type PackageField = 'weight' | 'length' | 'width' | 'height';

/** A box as a new parcel takes it: preset name ('' for dimensions typed by hand) and dimensions cm as text. */
export interface BoxChoice {
  name: string;
  length: string;
  width: string;
  height: string;
}

/** The dimensions of a box preset as a parcel's text fields. */
export function boxChoice(preset: Pick<BoxPreset, 'name' | 'lengthCm' | 'widthCm' | 'heightCm'>): BoxChoice {
  return { name: preset.name, length: String(preset.lengthCm), width: String(preset.widthCm), height: String(preset.heightCm) };
}

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

/** One commodity line of the customs declaration as typed (spec: Customs > Commodity). Value in the declaration currency, weight kg for the whole line. */
export interface CommodityDraft {
  sku: string;
  description: string;
  quantity: string;
  unitValue: string;
  weight: string;
  countryOfManufacture: string;
  harmonizedCode: string;
  quantityUnits: string;
  midCode: string;
}

/** Exporter/importer identifiers as typed. */
export interface PartyIdsDraft {
  eori: string;
  vatNumber: string;
  taxId: string;
}

/**
 * The customs declaration as typed (spec: Customs > CustomsDetail). Sent only
 * when the destination is outside the EU customs territory
 * ({@link customsOf}). `customsValue` follows the sum of the lines until the
 * packer types it (`customsValueTyped`).
 */
export interface CustomsDraft {
  currency: string;
  customsValue: string;
  customsValueTyped: boolean;
  incoterm: string;
  dutiesPayment: string;
  contentType: string;
  exportReason: string;
  invoiceNumber: string;
  invoiceDate: string;
  exporter: PartyIdsDraft;
  importer: PartyIdsDraft;
  commodities: CommodityDraft[];
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

/** Path of a package field in `details`: `packages.<i>.weight.value`, `packages.<i>.dimensions.length`. */
export function packagePath(index: number, field: PackageField): string {
  return field === 'weight' ? `packages.${index}.weight.value` : `packages.${index}.dimensions.${field}`;
}

/**
 * A new parcel: blank weight and the given box (the one used last, or the
 * station's default preset). Without a box the dimensions stay blank and the
 * quote asks for one: never a silent default size (issue 14 item 3).
 */
export function emptyPackage(box?: BoxChoice): PackageDraft {
  return { weight: '', length: box?.length ?? '', width: box?.width ?? '', height: box?.height ?? '', box: box?.name ?? '' };
}

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

/** Enumerations of CustomsDetail and Commodity (spec: Customs), first = default. */
export const CUSTOMS_ENUMS = {
  incoterm: ['DAP', 'EXW', 'FCA', 'CPT', 'CIP', 'DPU', 'DDP', 'FOB', 'CFR', 'CIF'],
  dutiesPayment: ['RECIPIENT', 'SENDER', 'THIRD_PARTY'],
  contentType: ['MERCHANDISE', 'GIFT', 'SAMPLE', 'DOCUMENTS', 'RETURN', 'REPAIR', 'PERSONAL_EFFECTS'],
  exportReason: ['SALE', 'GIFT', 'SAMPLE', 'RETURN', 'REPAIR', 'PERSONAL'],
  quantityUnits: ['PCS', 'PR', 'DOZ', 'KG', 'L', 'M', 'M2', 'M3', 'SET'],
} as const;

/** A blank commodity line. */
export function emptyCommodity(): CommodityDraft {
  return { sku: '', description: '', quantity: '1', unitValue: '', weight: '', countryOfManufacture: '', harmonizedCode: '', quantityUnits: 'PCS', midCode: '' };
}

const noIds = (): PartyIdsDraft => ({ eori: '', vatNumber: '', taxId: '' });

/** A declaration with the spec's defaults (DAP, RECIPIENT, MERCHANDISE, SALE) and no lines. */
function emptyCustoms(currency: string): CustomsDraft {
  return {
    currency,
    customsValue: '',
    customsValueTyped: false,
    incoterm: 'DAP',
    dutiesPayment: 'RECIPIENT',
    contentType: 'MERCHANDISE',
    exportReason: 'SALE',
    invoiceNumber: '',
    invoiceDate: '',
    exporter: noIds(),
    importer: noIds(),
    commodities: [],
  };
}

/** Amount as the form shows it: `12.5` -> `12.50`, integers too; the decimal point (a comma is accepted when typed). */
function amountText(n: number): string {
  return (Math.round(n * 100) / 100).toFixed(2);
}

/** Sum of quantity x unit value of the lines that parse, or undefined when a line does not. */
function commoditiesTotal(lines: readonly CommodityDraft[]): number | undefined {
  let sum = 0;
  for (const l of lines) {
    const q = parseDecimal(l.quantity);
    const v = parseDecimal(l.unitValue);
    if (q === undefined || v === undefined || Number.isNaN(q) || Number.isNaN(v)) return undefined;
    sum += q * v;
  }
  return Math.round(sum * 100) / 100;
}

/** Keeps `customsValue` equal to the sum of the lines while the packer has not typed it. */
export function withAutoValue(c: CustomsDraft): CustomsDraft {
  if (c.customsValueTyped) return c;
  const total = commoditiesTotal(c.commodities);
  return { ...c, customsValue: total === undefined ? c.customsValue : amountText(total) };
}

/** Customs lines from the order's lines: description, quantity, unit value; currency of the order. */
function customsFromOrder(order: StationOrder): CustomsDraft {
  const c = emptyCustoms(order.currency || 'EUR');
  c.commodities = order.items.map((it) => ({ ...emptyCommodity(), sku: it.sku ?? '', description: it.name, quantity: String(it.quantity), unitValue: amountText(it.unitPrice) }));
  return withAutoValue(c);
}

/**
 * Fills what the packer has not typed from the remembered products (HS code,
 * country of manufacture, weight = unit weight x quantity) and the settings
 * (exporter/importer ids). Typed values are never overwritten.
 */
export function applyCustomsMemory(c: CustomsDraft, products: readonly CustomsProductView[], settings: CustomsSettings | null): CustomsDraft {
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const commodities = c.commodities.map((l) => {
    const p = l.sku ? bySku.get(l.sku) : undefined;
    if (!p) return l;
    const q = parseDecimal(l.quantity);
    const weight = l.weight || (p.unitWeightKg !== null && q !== undefined && !Number.isNaN(q) ? String(Math.round(p.unitWeightKg * q * 1000) / 1000) : '');
    return {
      ...l,
      harmonizedCode: l.harmonizedCode || (p.harmonizedCode ?? ''),
      countryOfManufacture: l.countryOfManufacture || p.countryOfManufacture,
      weight,
    };
  });
  const ids = (typed: PartyIdsDraft, saved: CustomsSettings['exporter'] | undefined): PartyIdsDraft => ({
    eori: typed.eori || (saved?.eori ?? ''),
    vatNumber: typed.vatNumber || (saved?.vatNumber ?? ''),
    taxId: typed.taxId || (saved?.taxId ?? ''),
  });
  return { ...c, commodities, exporter: ids(c.exporter, settings?.exporter), importer: ids(c.importer, settings?.importer) };
}

/** Whether the form's destination needs a customs declaration, and why (shared/domain/customs.ts, the sandbox's own rule). */
export function customsOf(d: ShipDraft): CustomsStatus {
  const r = d.recipient;
  return customsStatus(r.countryCode, r.postalCode, r.city);
}

/** Path of a commodity field in `details`, e.g. `customsDetail.commodities.0.harmonizedCode`. */
export function commodityPath(index: number, field: keyof CommodityDraft): string {
  const base = `customsDetail.commodities.${index}`;
  if (field === 'unitValue') return `${base}.unitValue.amount`;
  if (field === 'weight') return `${base}.weight.value`;
  return `${base}.${field}`;
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

const orNull = (s: string): string | null => (s.trim() === '' ? null : s.trim().toUpperCase().replace(/\s+/g, ''));

/** CustomsDetail body from the typed declaration (numbers parsed; blanks left for the schema to name). */
function draftToCustomsDetail(c: CustomsDraft): NonNullable<ShipmentRequest['customsDetail']> {
  const currency = c.currency.trim().toUpperCase();
  return {
    customsValue: { amount: parseDecimal(c.customsValue) as number, currency },
    commodities: c.commodities.map((l) => ({
      description: l.description.trim(),
      quantity: parseDecimal(l.quantity) as number,
      unitValue: { amount: parseDecimal(l.unitValue) as number, currency },
      weight: { value: parseDecimal(l.weight) as number, units: 'KG' as const },
      countryOfManufacture: l.countryOfManufacture.trim().toUpperCase(),
      harmonizedCode: l.harmonizedCode.trim() === '' ? null : l.harmonizedCode.replace(/[\s.]/g, ''),
      quantityUnits: l.quantityUnits as 'PCS',
      midCode: l.midCode.trim() === '' ? null : l.midCode.trim(),
      sku: l.sku.trim() === '' ? null : l.sku.trim(),
    })),
    incoterm: c.incoterm as 'DAP',
    dutiesPayment: c.dutiesPayment as 'RECIPIENT',
    contentType: c.contentType as 'MERCHANDISE',
    exportReason: c.exportReason as 'SALE',
    invoiceNumber: c.invoiceNumber.trim() === '' ? null : c.invoiceNumber.trim(),
    invoiceDate: c.invoiceDate.trim() === '' ? null : c.invoiceDate.trim(),
    exporter: { eori: orNull(c.exporter.eori), vatNumber: orNull(c.exporter.vatNumber), taxId: orNull(c.exporter.taxId) },
    importer: { eori: orNull(c.importer.eori), vatNumber: orNull(c.importer.vatNumber), taxId: orNull(c.importer.taxId) },
  };
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

function packagesOf(d: ShipDraft) {
  return d.packages.map((p) => ({
    weight: { value: parseDecimal(p.weight) as number, units: 'KG' as const },
    dimensions: {
      length: parseDecimal(p.length) as number,
      width: parseDecimal(p.width) as number,
      height: parseDecimal(p.height) as number,
      units: 'CM' as const,
    },
  }));
}

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
    packages: packagesOf(d),
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
    packages: packagesOf(d),
    reference: blank(d.reference),
    ...(rate ? { carrierCode: rate.carrierCode, serviceType: rate.contractCode } : {}),
    ...(Object.keys(options).length ? { options } : {}),
    ...(customsOf(d).required ? { customsDetail: draftToCustomsDetail(d.customs) } : {}),
  };
}

/** Message on a parcel that has no dimensions at all: the packer chooses a box. */
export const CHOOSE_BOX = 'Choose a box (Alt+1–9, or its number or barcode in Box) or type the dimensions';

/** Field errors of the parcels + destination for a quote (RatesRequest schema). Empty when valid. */
export function validateForQuote(d: ShipDraft): FieldErrors {
  const res = RatesRequest.safeParse(draftToRatesRequest(d));
  const out: FieldErrors = res.success ? {} : issuesToDetails(res.error.issues);
  return withChooseBox(d, out);
}

/** A parcel without any dimension gets one message, on its length, asking for a box (instead of three "required"). */
function withChooseBox(d: ShipDraft, errors: FieldErrors): FieldErrors {
  d.packages.forEach((p, i) => {
    if (p.length.trim() !== '' || p.width.trim() !== '' || p.height.trim() !== '') return;
    errors[packagePath(i, 'length')] = [CHOOSE_BOX];
    delete errors[packagePath(i, 'width')];
    delete errors[packagePath(i, 'height')];
  });
  return errors;
}

/**
 * When the carrier bills the volume rather than the weight: the rate's
 * billable weight (kg) above the parcels' real weight. Returns both figures
 * (kg) or null when the real weight decides (or the weights are not numbers).
 * Source: spec Rate `billableWeight` = max(real, volumetric).
 */
export function volumetricDecides(d: ShipDraft, rate: Pick<Rate, 'billableWeight' | 'volumetricWeight'>): { realKg: number; billableKg: number } | null {
  let realKg = 0;
  for (const p of d.packages) {
    const w = parseDecimal(p.weight);
    if (w === undefined || Number.isNaN(w)) return null;
    realKg += w;
  }
  const toKg = (w: { value: number; units: string }) => (w.units === 'G' ? w.value / 1000 : w.value);
  const billableKg = toKg(rate.billableWeight);
  return billableKg > realKg + 0.0005 && toKg(rate.volumetricWeight) >= billableKg - 0.0005 ? { realKg, billableKg } : null;
}

/**
 * Field errors of the whole shipment (ShipmentRequest schema) plus the bench's
 * own COD rule: with COD on, the method must be one the chosen contract
 * offers (`cashOnDeliveryMethods`), and a contract without methods takes no COD.
 */
export function validateForShip(d: ShipDraft, rate: (Pick<Rate, 'cashOnDeliveryMethods'> & Partial<Pick<Rate, 'carrierCode'>>) | null): FieldErrors {
  const req = draftToShipmentRequest(d, null);
  const res = ShipmentRequest.safeParse(req);
  const out: FieldErrors = withChooseBox(d, res.success ? {} : issuesToDetails(res.error.issues));
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
 * highlight, Enter chooses the highlighted one.
 * Returns the action, or null when the key is not for the list.
 */
export function rateKeyAction(key: string, highlighted: number, count: number): { choose: number } | { highlight: number } | null {
  if (count === 0) return null;
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
