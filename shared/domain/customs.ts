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
export const SPECIAL_TERRITORY_NAMES: Readonly<Record<SpecialTerritory, string>> = {
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
