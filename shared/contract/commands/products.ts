/** Commands of product data per SKU (issue 24 item 3; see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { OrderWeightView, ProductSuggestionView, ProductsImportView, ProductView } from '../products';
import type { FollowedFileView } from '../rules';
import { command, Empty, OrderIdInput } from './define';
import { FollowPath } from './rules';

/** Commands of product data. */
export const productsCommands = {
  /** Products whose SKU or description contains `q` (all when empty, at most 500), by SKU. */
  'products.list': command<ProductView[]>()(z.object({ q: z.string().trim().max(100).optional() }).strict()),
  /**
   * Imports a product CSV (`sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description`,
   * `,` or `;`, decimal comma allowed): all rows or none; a bad row is refused naming its row and column.
   */
  'products.importCsv': command<ProductsImportView>()(z.object({ content: z.string() }).strict(), { longText: ['content'] }),
  /** Every product as CSV (the import's columns). */
  'products.exportCsv': command<{ content: string }>()(Empty),
  /** Values learnt from shipments that differ from the product data, waiting for the packer. */
  'products.suggestions': command<ProductSuggestionView[]>()(Empty),
  /** Accepts (the product takes the value) or rejects a suggestion. */
  'products.resolveSuggestion': command<{ product: ProductView | null }>()(
    z.object({ id: z.number().int().positive({ error: 'Suggestion id must be positive' }), accept: z.boolean({ error: 'Accept is true or false' }) }).strict(),
  ),
  /** The order's weight from product data (kg), or null and the lines without a weight. */
  'products.orderWeight': command<OrderWeightView>()(z.object({ orderId: OrderIdInput }).strict()),
  /** Where product data comes from (this station, or a shared file and the version running). */
  'products.source': command<FollowedFileView>()(Empty),
  /** Follows a shared product CSV (read at once, then whenever it changes), or stops (null). */
  'products.follow': command<FollowedFileView>()(FollowPath),
} as const;
