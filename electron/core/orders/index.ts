/**
 * Orders: Shopify CSV import and manual entry. (The CSV generator of the
 * benchmark and tests lives in test/fixtures/shopify/generate-shopify-csv.ts.)
 */
export {
  importShopifyCsv,
  parseShopifyCsv,
  parseShopifyTime,
  REQUIRED_COLUMNS,
  ShopifyImportError,
  type ParsedShopifyFile,
  type ParsedShopifyOrder,
  type ShopifyImportErrorCode,
  type ShopifyImportOptions,
} from './shopify-csv';
export { createManualOrder, type ManualOrderOptions } from './manual';
