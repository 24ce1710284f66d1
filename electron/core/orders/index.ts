/**
 * Orders: Shopify CSV import and manual entry. (The CSV generator of the
 * benchmark and tests lives in test/fixtures/shopify/generate-shopify-csv.ts.)
 */
export { importShopifyCsv, parseShopifyCsv, parseShopifyTime, ShopifyImportError, MAX_IMPORT_BYTES, tooLargeError } from './shopify-csv';
export { createManualOrder } from './manual';
