/**
 * Product data per SKU (issue 24 item 3): weight, size, HS code, country of
 * origin and the customs description in the bench's language, imported and
 * exported as CSV (`sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description`),
 * learnt from each shipment and declaration as suggestions the packer confirms.
 */

/** The CSV columns of product data, in file order. */
export const PRODUCT_CSV_COLUMNS = ['sku', 'weightKg', 'lengthCm', 'widthCm', 'heightCm', 'hsCode', 'originCountry', 'description', 'shipsAlone'] as const;

/**
 * One product as the station knows it. Weights kg per piece (> 0), sizes cm
 * (> 0), `hsCode` 6-10 digits, `originCountry` ISO 3166-1
 * alpha-2; each null when not known.
 */
export interface ProductView {
  sku: string;
  description: string;
  hsCode: string | null;
  originCountry: string | null;
  unitWeightKg: number | null;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  /** The product needs a parcel of its own (a glass carafe): the station's box choice never packs it with other pieces. */
  shipsAlone: boolean;
  updatedAt: string;
}

/** The fields of a product a suggestion may change. */
export type ProductField = 'description' | 'hsCode' | 'originCountry' | 'unitWeightKg';

/** A value learnt from a shipment or declaration that differs from the product data, waiting for the packer. Values as text (`0.35`, `IT`). */
export interface ProductSuggestionView {
  id: number;
  sku: string;
  field: ProductField;
  current: string | null;
  proposed: string;
  /** Where it was seen, e.g. `shipment Bottega #1001`. */
  source: string;
  createdAt: string;
}

/** `products.importCsv`: how many rows were new, changed, the same. */
export interface ProductsImportView {
  imported: number;
  updated: number;
  unchanged: number;
}

/**
 * An order's weight from product data: the sum of unit weight × quantity of
 * its lines (fulfilled lines aside) when every line's SKU has a weight, else
 * null and the SKUs (or line names) without one.
 */
export interface OrderWeightView {
  weightKg: number | null;
  missing: string[];
}
