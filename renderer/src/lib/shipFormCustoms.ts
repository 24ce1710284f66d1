/**
 * The customs declaration of the quote/ship form (spec: Customs >
 * CustomsDetail, Commodity) as the packer edits it: its lines from the order,
 * the value that follows the lines until typed, what the station remembers
 * per product and per exporter/importer, the `details` paths of its fields
 * (`customsDetail.commodities.0.harmonizedCode`) and its conversion to the
 * `customsDetail` of POST /shipments.
 */
import type { ShipmentRequest } from '../../../shared/platform';
import type { StationOrder } from '../../../shared/domain/order';
import type { CustomsProductView, CustomsSettings } from '../../../shared/contract/customs';
import { decimalText, parseDecimal } from './format';

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
 * when the destination is outside the EU customs territory (`customsOf` in
 * shipForm.ts). `customsValue` follows the sum of the lines until the
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
export function emptyCustoms(currency: string): CustomsDraft {
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

/** Amount as the form shows it, the bench's way: `12.5` -> `12,50` (Italian) / `12.50` (English), integers too. */
function amountText(n: number): string {
  return decimalText(Math.round(n * 100) / 100, 2, 2);
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
export function customsFromOrder(order: StationOrder): CustomsDraft {
  const c = emptyCustoms(order.currency || 'EUR');
  c.commodities = order.items.map((it) => ({ ...emptyCommodity(), sku: it.sku ?? '', description: it.name, quantity: String(it.quantity), unitValue: amountText(it.unitPrice) }));
  return withAutoValue(c);
}

/**
 * Fills what the packer has not typed from the remembered products (HS code,
 * country of manufacture, weight = unit weight x quantity) and the settings
 * (exporter/importer ids). Typed values are never overwritten.
 */
export function applyCustomsMemory(c: CustomsDraft, products: ReadonlyArray<Pick<CustomsProductView, 'sku' | 'description' | 'harmonizedCode' | 'countryOfManufacture' | 'unitWeightKg' | 'updatedAt'>>, settings: CustomsSettings | null): CustomsDraft {
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const commodities = c.commodities.map((l) => {
    const p = l.sku ? bySku.get(l.sku) : undefined;
    if (!p) return l;
    const q = parseDecimal(l.quantity);
    const weight = l.weight || (p.unitWeightKg !== null && q !== undefined && !Number.isNaN(q) ? decimalText(Math.round(p.unitWeightKg * q * 1000) / 1000) : '');
    return {
      ...l,
      harmonizedCode: l.harmonizedCode || (p.harmonizedCode ?? ''),
      countryOfManufacture: l.countryOfManufacture || (p.countryOfManufacture ?? ''),
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
export function draftToCustomsDetail(c: CustomsDraft): NonNullable<ShipmentRequest['customsDetail']> {
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

/** The commodity fields the packer fills when nothing is known, in the order the focus visits them. */
const NEEDED: ReadonlyArray<keyof CommodityDraft> = ['description', 'weight', 'countryOfManufacture', 'harmonizedCode'];

/**
 * What the declaration still misses (issue 24 item 6), as the Ship screen's
 * input ids in screen order (`customs-<line>-<field>`): per line its
 * description, weight (kg), made in and HS code when blank. Empty when the
 * declaration is complete: the focus then goes to Ship.
 */
export function missingCustomsFields(c: CustomsDraft): string[] {
  const out: string[] = [];
  c.commodities.forEach((l, i) => {
    for (const f of NEEDED) if (l[f].trim() === '') out.push(`customs-${i}-${f}`);
  });
  return out;
}

/** A commodity of the core's plan (`shipping.plan`'s `request.customsDetail.commodities`), as far as it fills a line. */
export interface PlannedCommodity {
  sku?: string | null | undefined;
  description: string;
  weight: { value: number };
  countryOfManufacture: string;
  harmonizedCode?: string | null | undefined;
}

/**
 * Fills the blank fields of each line from the core's plan (product data, the
 * parcel weight split over the lines, the rule's customs defaults); a line is
 * matched by SKU, else by its place. What the packer typed is never replaced.
 */
export function applyPlannedCommodities(c: CustomsDraft, planned: readonly PlannedCommodity[]): CustomsDraft {
  const commodities = c.commodities.map((l, i) => {
    const p = (l.sku ? planned.find((x) => x.sku === l.sku) : undefined) ?? (l.sku ? undefined : planned[i]);
    if (!p) return l;
    return {
      ...l,
      description: l.description || p.description,
      weight: l.weight || (p.weight.value > 0 ? String(p.weight.value) : ''),
      countryOfManufacture: l.countryOfManufacture || p.countryOfManufacture,
      harmonizedCode: l.harmonizedCode || (p.harmonizedCode ?? ''),
    };
  });
  return { ...c, commodities };
}
