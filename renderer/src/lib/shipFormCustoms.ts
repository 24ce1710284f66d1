/**
 * The customs declaration of the quote/ship form (spec: Customs >
 * CustomsDetail, Commodity) as the packer edits it: its lines from the order,
 * the value that follows the lines until typed, what the station remembers
 * per product and per exporter/importer. The fields as typed and their
 * `details` paths are the contract's (shared/contract/ship-form.ts); the core
 * builds the `customsDetail` of POST /shipments from them.
 */
import type { CommodityDraft, CustomsFields, PartyIdsDraft } from '../../../shared/contract/ship-form';
import type { StationOrder } from '../../../shared/domain/order';
import type { CustomsProductView, CustomsSettings } from '../../../shared/contract/customs';
import { decimalText, parseDecimal } from './format';

/**
 * The customs declaration as typed (spec: Customs > CustomsDetail). Sent only
 * when the destination is outside the EU customs territory (`customsOf` in
 * shipForm.ts). `customsValue` follows the sum of the lines until the
 * packer types it (`customsValueTyped`).
 */
export type CustomsDraft = CustomsFields & { customsValueTyped: boolean };

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
  return { sku: '', description: '', quantity: '1', unitValue: '', weight: '', originCountry: '', hsCode: '', quantityUnits: 'PCS', midCode: '' };
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
 * country of origin, weight = unit weight x quantity) and the settings
 * (exporter/importer ids). Typed values are never overwritten.
 */
export function applyCustomsMemory(c: CustomsDraft, products: ReadonlyArray<Pick<CustomsProductView, 'sku' | 'description' | 'hsCode' | 'originCountry' | 'unitWeightKg' | 'updatedAt'>>, settings: CustomsSettings | null): CustomsDraft {
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const commodities = c.commodities.map((l) => {
    const p = l.sku ? bySku.get(l.sku) : undefined;
    if (!p) return l;
    const q = parseDecimal(l.quantity);
    const weight = l.weight || (p.unitWeightKg !== null && q !== undefined && !Number.isNaN(q) ? decimalText(Math.round(p.unitWeightKg * q * 1000) / 1000) : '');
    return {
      ...l,
      hsCode: l.hsCode || (p.hsCode ?? ''),
      originCountry: l.originCountry || (p.originCountry ?? ''),
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

/** The commodity fields the packer fills when nothing is known, in the order the focus visits them. */
const NEEDED: ReadonlyArray<keyof CommodityDraft> = ['description', 'weight', 'originCountry', 'hsCode'];

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

/** A commodity of the core's plan (`shipping.plan`'s `request.customsDetail.commodities`: the wire's names), as far as it fills a line. */
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
      originCountry: l.originCountry || p.countryOfManufacture,
      hsCode: l.hsCode || (p.harmonizedCode ?? ''),
    };
  });
  return { ...c, commodities };
}
