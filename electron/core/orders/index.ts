/**
 * Orders: Shopify CSV import, manual entry, and the CSV generator used by the
 * benchmark and tests.
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
export {
  csvField,
  generateShopifyCsv,
  SHOPIFY_ORDER_COLUMNS,
  shopifyCsv,
  type GenerateShopifyCsvOptions,
  type ShopifyColumn,
  type ShopifyRow,
} from './generate-shopify-csv';
export { createManualOrder, type ManualOrderOptions } from './manual';
