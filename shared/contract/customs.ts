/**
 * Station-side customs shapes (issue 10): the exporter/importer identifiers
 * kept in the station's settings, and a product's remembered customs data.
 * Identifier formats: EORI = 2-letter country + up to 15 letters/digits
 * (EU Regulation 1352/2013 Annex, e.g. `IT12345678901`); VAT number =
 * 2-letter country + 2 to 13 letters/digits (`IT12345678901`, `CHE123456789`).
 */
import { z } from 'zod';
import type { ProductView } from './products';

const upper = (s: string) => s.trim().toUpperCase().replace(/\s+/g, '');
const optionalId = (pattern: RegExp, message: string) =>
  z
    .string()
    .transform(upper)
    .pipe(z.union([z.literal(''), z.string().regex(pattern, { error: message })]))
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .default(null);

/** One party's identifiers as the settings keep them: each normalised (upper case, no spaces) or null. */
const CustomsPartyIds = z.object({
  eori: optionalId(/^[A-Z]{2}[A-Z0-9]{1,15}$/, 'EORI is 2 letters of the country then up to 15 letters or digits (e.g. IT12345678901)'),
  vatNumber: optionalId(/^[A-Z]{2}[A-Z0-9]{2,13}$/, 'VAT number is 2 letters of the country then 2 to 13 letters or digits (e.g. IT12345678901)'),
  taxId: optionalId(/^[A-Z0-9]{2,20}$/, 'Tax id is 2 to 20 letters or digits'),
});
type CustomsPartyIds = z.output<typeof CustomsPartyIds>;

/** Customs identifiers of the station: the shop as exporter, and default importer ids (e.g. a fiscal representative), each field may be null. */
export const CustomsSettings = z.object({
  exporter: CustomsPartyIds,
  importer: CustomsPartyIds,
});
export type CustomsSettings = z.output<typeof CustomsSettings>;

/** A product's remembered customs data: the product data of the SKU (./products.ts, electron/core/store/products-repo.ts). */
export type CustomsProductView = ProductView;

/**
 * A suggestion of the HS code field (`customs.hsCodes.search`): a code of GET /taric
 * (spec: Endpoints > Customs codes; `description` Italian, `descriptionEn`
 * English or null), or, with `sku`, a code the station's own product data
 * holds for a similar item (`description` is that product's, as declared).
 */
export interface HsSuggestion {
  code: string;
  description: string;
  descriptionEn: string | null;
  /** The SKU the code was declared for, when the suggestion comes from the station's products. */
  sku?: string;
}
