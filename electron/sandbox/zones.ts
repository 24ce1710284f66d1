/**
 * Price-list zone of a destination (the Rate's `zone`, spec: Rate "price-list
 * zone matched by the destination"). Italian zones follow the postal code
 * (CAP, completed to 5 digits by shared/domain/postal.ts), falling back to a
 * real Italian province only when there is no CAP; an Italian destination
 * with neither is refused, never priced as mainland. Other destinations
 * follow the country. The tables are a plausible model of
 * Italian carrier price lists, not any carrier's official list.
 */
import { EU_COUNTRIES, specialTerritoryOf } from '../../shared/domain/customs';
import { ITALIAN_CAP_RULE, completePostalCode, isItalianCap } from '../../shared/domain/postal';
import { italianProvinceCode } from '../../shared/platform/orders';
import type { ZoneId } from './model';

/**
 * CAPs of the Venice lagoon (historic centre, Giudecca, Lido, Pellestrina,
 * Murano, Burano) and of the minor islands (Capri, Ischia, Procida, Eolie,
 * Elba, Giglio, Ponza, Ventotene, Lampedusa, Linosa, Pantelleria, Egadi,
 * La Maddalena, Carloforte, Tremiti).
 */
const MINOR_ISLAND_CAPS: ReadonlySet<string> = new Set([
  '30121', '30122', '30123', '30124', '30125', '30126', '30133', '30135', '30141', '30142',
  '80071', '80073', '80074', '80075', '80076', '80077', '80079',
  '98050', '98055',
  '57030', '57031', '57032', '57033', '57034', '57036', '57037', '57038', '57039',
  '58012', '04027', '04031', '92010', '92031', '91017', '91023', '07024', '09014', '71040',
]);

const SICILY_CALABRIA_PROVINCES = new Set(['AG', 'CL', 'CT', 'EN', 'ME', 'PA', 'RG', 'SR', 'TP', 'CS', 'CZ', 'KR', 'RC', 'VV']);
const SARDINIA_PROVINCES = new Set(['CA', 'NU', 'OR', 'SS', 'SU', 'CI', 'OG', 'OT', 'VS']);

/** Neighbouring EU countries priced as zone 1; the rest of the EU is zone 2. */
const EU_ZONE_1: ReadonlySet<string> = new Set(['AT', 'BE', 'DE', 'FR', 'LU', 'NL', 'SI', 'MC']);

/** European countries outside the EU (zone `europe_non_eu`). */
const EUROPE_NON_EU: ReadonlySet<string> = new Set([
  'CH', 'LI', 'GB', 'NO', 'IS', 'SM', 'VA', 'AD', 'AL', 'BA', 'ME', 'MK', 'RS', 'XK', 'TR', 'UA', 'MD',
  'GI', 'JE', 'GG', 'IM', 'FO', 'AX', 'IC', 'EA',
]);

/**
 * An Italian destination whose zone cannot be told: the CAP is not 5 digits
 * after completion and the province is not an Italian province. The API
 * schemas refuse such addresses with 422 before pricing (shared/platform
 * `withItalianCap`), so reaching this is a caller's bug, not a price.
 */
export class UnknownItalianZoneError extends RangeError {
  constructor(
    readonly postalCode: string,
    readonly province: string | undefined,
  ) {
    super(`No Italian zone for postal code "${postalCode}"${province ? ` / province "${province}"` : ''}: ${ITALIAN_CAP_RULE}`);
    this.name = 'UnknownItalianZoneError';
  }
}

/**
 * Italian zone of a CAP: 1-4 digits are completed first (`7100` -> `07100`,
 * Sassari, Sardinia). Only when the CAP is not 5 digits does the province
 * decide, and only a real one (code or full name, e.g. `SS`, `Catania`).
 * @throws UnknownItalianZoneError when neither names a zone.
 */
export function italianZone(postalCode: string, province?: string): ZoneId {
  const cap = completePostalCode('IT', postalCode.replace(/\s/g, ''));
  if (isItalianCap(cap)) {
    if (MINOR_ISLAND_CAPS.has(cap)) return 'italy_minor_islands';
    const p2 = cap.slice(0, 2);
    if (['87', '88', '89', '90', '91', '92', '93', '94', '95', '96', '97', '98'].includes(p2)) return 'italy_calabria_sicily';
    if (['07', '08', '09'].includes(p2)) return 'italy_sardinia';
    return 'italy';
  }
  const prov = province === undefined ? undefined : italianProvinceCode(province);
  if (prov === undefined) throw new UnknownItalianZoneError(postalCode, province);
  if (SICILY_CALABRIA_PROVINCES.has(prov)) return 'italy_calabria_sicily';
  if (SARDINIA_PROVINCES.has(prov)) return 'italy_sardinia';
  return 'italy';
}

/**
 * Zone of a destination. `countryCode` ISO alpha-2 (any case). Special
 * territories outside the EU customs territory (Livigno, Canary Islands, ...)
 * are priced as `europe_non_eu`, like the non-EU European countries.
 * @throws UnknownItalianZoneError for an IT destination {@link italianZone} cannot place.
 */
export function zoneOf(countryCode: string, postalCode: string, province?: string): ZoneId {
  const cc = countryCode.trim().toUpperCase();
  if (specialTerritoryOf(cc, postalCode)) return 'europe_non_eu';
  if (cc === 'IT') return italianZone(postalCode, province);
  if (EU_ZONE_1.has(cc)) return 'eu_1';
  if (EU_COUNTRIES.has(cc)) return 'eu_2';
  if (EUROPE_NON_EU.has(cc)) return 'europe_non_eu';
  return 'world';
}
