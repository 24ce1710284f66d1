/**
 * EU customs territory rule of the Client Shipping API 2026-09 ("Shipment
 * request fields", `customsDetail`: required when the destination is outside
 * the EU customs territory — non-EU countries and the special territories
 * Canary Islands, Ceuta, Melilla, Livigno, Helgoland, Åland).
 *
 * Pure TypeScript so the sandbox (which answers 422 `customsDetail`) and the
 * station (which asks the packer for a customs declaration before sending)
 * apply the very same rule.
 */

/** The 27 EU member states (ISO 3166-1 alpha-2). Greece is `GR` (not the EU's `EL`). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

/** Special territories of EU countries outside the EU customs territory, as the spec lists them. */
export type SpecialTerritory = 'canary_islands' | 'ceuta' | 'melilla' | 'livigno' | 'helgoland' | 'aland';

/** Human names of the special territories, for messages. */
const SPECIAL_TERRITORY_NAMES: Readonly<Record<SpecialTerritory, string>> = {
  canary_islands: 'Canary Islands',
  ceuta: 'Ceuta',
  melilla: 'Melilla',
  livigno: 'Livigno',
  helgoland: 'Helgoland',
  aland: 'Åland',
};

/** Result of {@link customsStatus}. */
export interface CustomsStatus {
  /** true when a customs declaration (`customsDetail`) is required. */
  required: boolean;
  /** Set when the destination is a special territory of an EU country. */
  territory?: SpecialTerritory;
  /** Short English reason, suitable for a field message. */
  reason: string;
}

/** Digits of a postal code ("AX-22100" -> "22100", "35 010" -> "35010"). */
function digitsOf(postalCode: string): string {
  return postalCode.replace(/\D/g, '');
}

/**
 * Special territory of a destination, or undefined.
 * Rules (postal code prefixes): ES 35xxx/38xxx Canary Islands, ES 51xxx Ceuta,
 * ES 52xxx Melilla, IT 23041 Livigno, DE 27498 Helgoland, FI 22xxx or country
 * `AX` Åland; ISO codes `IC` (Canary Islands) and `EA` (Ceuta and Melilla) too.
 */
export function specialTerritoryOf(countryCode: string, postalCode: string): SpecialTerritory | undefined {
  const cc = countryCode.trim().toUpperCase();
  const pc = digitsOf(postalCode);
  switch (cc) {
    case 'IC':
      return 'canary_islands';
    case 'EA':
      return pc.startsWith('52') ? 'melilla' : 'ceuta';
    case 'AX':
      return 'aland';
    case 'ES':
      if (pc.startsWith('35') || pc.startsWith('38')) return 'canary_islands';
      if (pc.startsWith('51')) return 'ceuta';
      if (pc.startsWith('52')) return 'melilla';
      return undefined;
    case 'IT':
      return pc === '23041' ? 'livigno' : undefined;
    case 'DE':
      return pc === '27498' ? 'helgoland' : undefined;
    case 'FI':
      return pc.startsWith('22') && pc.length === 5 ? 'aland' : undefined;
    default:
      return undefined;
  }
}

/**
 * Whether a destination needs a customs declaration, and why.
 * `countryCode` is ISO 3166-1 alpha-2 (case-insensitive), `postalCode` as typed.
 * Inside: the 27 EU countries except their special territories. Outside:
 * every other country code (including EEA/EFTA states, the UK, San Marino,
 * Vatican) and the special territories.
 */
export function customsStatus(countryCode: string, postalCode: string): CustomsStatus {
  const cc = countryCode.trim().toUpperCase();
  const territory = specialTerritoryOf(cc, postalCode);
  if (territory) {
    return { required: true, territory, reason: `${SPECIAL_TERRITORY_NAMES[territory]} is outside the EU customs territory` };
  }
  if (EU_COUNTRIES.has(cc)) return { required: false, reason: 'Destination is inside the EU customs territory' };
  return { required: true, reason: `${cc} is outside the EU customs territory` };
}

/** Shorthand for `customsStatus(...).required`. */
export function requiresCustoms(countryCode: string, postalCode: string): boolean {
  return customsStatus(countryCode, postalCode).required;
}

/** Money as sent in a customs declaration. */
interface CustomsMoney {
  amount: number;
  currency: string;
}

/** Customs party identifiers, each string or null. */
interface CustomsPartyIds {
  eori: string | null;
  vatNumber: string | null;
  taxId: string | null;
}

/** A commodity line as sent (spec: Customs > Commodity); optional fields may be missing. */
interface CommodityInput {
  description: string;
  quantity: number;
  unitValue: CustomsMoney;
  weight: { value: number; units: string };
  countryOfManufacture: string;
  harmonizedCode?: string | null | undefined;
  quantityUnits?: string | undefined;
  totalValue?: CustomsMoney | undefined;
  midCode?: string | null | undefined;
  sku?: string | null | undefined;
}

/** A customs declaration as sent (spec: Customs > CustomsDetail); optional fields may be missing. */
export interface CustomsDetailInput {
  customsValue: CustomsMoney;
  commodities: CommodityInput[];
  incoterm?: string | undefined;
  dutiesPayment?: string | undefined;
  contentType?: string | undefined;
  exportReason?: string | undefined;
  invoiceNumber?: string | null | undefined;
  invoiceDate?: string | null | undefined;
  exporter?: Partial<Record<keyof CustomsPartyIds, string | null | undefined>> | undefined;
  importer?: Partial<Record<keyof CustomsPartyIds, string | null | undefined>> | undefined;
}

/** A commodity with every field present: defaults applied, `totalValue` computed when absent. */
interface CompletedCommodity {
  description: string;
  quantity: number;
  unitValue: CustomsMoney;
  weight: { value: number; units: string };
  countryOfManufacture: string;
  harmonizedCode: string | null;
  quantityUnits: string;
  totalValue: CustomsMoney;
  midCode: string | null;
  sku: string | null;
}

/** A customs declaration with every field present, as the platform keeps and echoes it. */
export interface CompletedCustomsDetail {
  customsValue: CustomsMoney;
  commodities: CompletedCommodity[];
  incoterm: string;
  dutiesPayment: string;
  contentType: string;
  exportReason: string;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  exporter: CustomsPartyIds;
  importer: CustomsPartyIds;
}

/** Defaults of a customs declaration (spec: CustomsDetail, Commodity). */
const CUSTOMS_DEFAULTS = {
  incoterm: 'DAP',
  dutiesPayment: 'RECIPIENT',
  contentType: 'MERCHANDISE',
  exportReason: 'SALE',
  quantityUnits: 'PCS',
} as const;

const cents = (n: number) => Math.round(n * 100) / 100;

function realDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const t = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return t.getUTCFullYear() === Number(m[1]) && t.getUTCMonth() === Number(m[2]) - 1 && t.getUTCDate() === Number(m[3]);
}

/**
 * Applies the platform's customs rules beyond the field formats:
 * - defaults: `incoterm` DAP, `dutiesPayment` RECIPIENT, `contentType`
 *   MERCHANDISE, `exportReason` SALE, `quantityUnits` PCS, absent optional
 *   fields null (`exporter`/`importer` with null identifiers);
 * - currencies are 3-letter ISO 4217 codes (upper-cased), and every
 *   commodity's `unitValue` and `totalValue` is in the `customsValue` currency;
 * - `totalValue` defaults to `quantity` x `unitValue` (rounded to cents); when
 *   sent it must equal that product (to the cent);
 * - `countryOfManufacture` is 2 letters (upper-cased); `invoiceDate` a real date.
 * The sum of the commodities is not checked against `customsValue` (carriers
 * accept a declared value that includes e.g. shipping).
 * @param path prefix of the error keys (default `customsDetail`)
 * @returns the completed declaration and the errors, keyed by field path
 *          (e.g. `customsDetail.commodities.0.totalValue.amount`); empty when valid.
 */
export function completeCustomsDetail(d: CustomsDetailInput, path = 'customsDetail'): { detail: CompletedCustomsDetail; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const err = (p: string, m: string) => (errors[`${path}.${p}`] ??= []).push(m);
  const currency = d.customsValue.currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) err('customsValue.currency', 'Currency must be a 3-letter ISO 4217 code (e.g. EUR)');
  const commodities = d.commodities.map((c, i): CompletedCommodity => {
    const unitCurrency = c.unitValue.currency.trim().toUpperCase();
    if (unitCurrency !== currency) err(`commodities.${i}.unitValue.currency`, `Unit value must be in the customs value currency (${currency})`);
    const expected = cents(c.quantity * c.unitValue.amount);
    let totalValue: CustomsMoney = { amount: expected, currency };
    if (c.totalValue) {
      const tc = c.totalValue.currency.trim().toUpperCase();
      if (tc !== currency) err(`commodities.${i}.totalValue.currency`, `Total value must be in the customs value currency (${currency})`);
      if (Math.abs(c.totalValue.amount - expected) > 0.005) {
        err(`commodities.${i}.totalValue.amount`, `Total value must be quantity x unit value (${c.quantity} x ${c.unitValue.amount} = ${expected.toFixed(2)})`);
      }
      totalValue = { amount: cents(c.totalValue.amount), currency: tc };
    }
    const country = c.countryOfManufacture.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) err(`commodities.${i}.countryOfManufacture`, 'Country of manufacture must be 2 letters (ISO 3166-1)');
    return {
      description: c.description,
      quantity: c.quantity,
      unitValue: { amount: c.unitValue.amount, currency: unitCurrency },
      weight: { value: c.weight.value, units: c.weight.units },
      countryOfManufacture: country,
      harmonizedCode: c.harmonizedCode ?? null,
      quantityUnits: c.quantityUnits ?? CUSTOMS_DEFAULTS.quantityUnits,
      totalValue,
      midCode: c.midCode ?? null,
      sku: c.sku ?? null,
    };
  });
  if (d.invoiceDate && !realDate(d.invoiceDate)) err('invoiceDate', 'Invoice date must be a real date YYYY-MM-DD');
  const ids = (p: CustomsDetailInput['exporter']): CustomsPartyIds => ({ eori: p?.eori ?? null, vatNumber: p?.vatNumber ?? null, taxId: p?.taxId ?? null });
  return {
    detail: {
      customsValue: { amount: d.customsValue.amount, currency },
      commodities,
      incoterm: d.incoterm ?? CUSTOMS_DEFAULTS.incoterm,
      dutiesPayment: d.dutiesPayment ?? CUSTOMS_DEFAULTS.dutiesPayment,
      contentType: d.contentType ?? CUSTOMS_DEFAULTS.contentType,
      exportReason: d.exportReason ?? CUSTOMS_DEFAULTS.exportReason,
      invoiceNumber: d.invoiceNumber ?? null,
      invoiceDate: d.invoiceDate ?? null,
      exporter: ids(d.exporter),
      importer: ids(d.importer),
    },
    errors,
  };
}
