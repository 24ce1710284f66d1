/** Commands of orders: import (CSV, pieces), list, fix, settings, send to the platform, scan (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { OrderPageQuery, OrderSettings, ORDER_LIMITS, ShopName, type ImportReport, type OrderFacets, type OrderPage, type StationOrder } from '../../domain/order';
import type { ImportUploadView } from '../views';
import { command, Empty, IMPORT_CHUNK_BASE64, INPUT_LIMITS, BoundedManualOrderInput, OrderIdInput, IMPORT_CHUNK_BYTES, type OrdersSubmitView, type ScanResult } from './define';

/** Commands of orders: import (CSV, pieces), list, fix, settings, send to the platform, scan. */
export const ordersCommands = {
  /**
   * Import a Shopify "Export orders" CSV for a shop. `contentBase64`: the file's
   * bytes (the encoding is detected from them: UTF-8, UTF-16, Windows-1252);
   * `content`: text already decoded (older screens). One of the two.
   */
  'orders.importCsv': command<ImportReport>()(
    z
      .object({
        fileName: z.string().min(1, { error: 'File name is required' }).max(INPUT_LIMITS.fileName, { error: `File name is too long (max ${INPUT_LIMITS.fileName} characters)` }),
        content: z.string().max(INPUT_LIMITS.csvChars, { error: 'The file is larger than 32 MiB' }).optional(),
        // base64 of the bytes: 4 characters per 3 bytes, so the file itself may be up to 24 MiB.
        contentBase64: z.string().max(INPUT_LIMITS.csvChars, { error: 'The file is larger than 24 MiB' }).optional(),
        shop: ShopName.optional(),
      })
      .refine((v) => v.content !== undefined || v.contentBase64 !== undefined, { error: 'The file content is missing', path: ['content'] }),
    { longText: ['content', 'contentBase64'] },
  ),
  /**
   * Starts a chunked upload of an export of any size up to the station's
   * limit (`maxBytes`, 256 MiB): the file goes in `orders.importChunk`
   * pieces of at most `chunkBytes` bytes, then `orders.importFinish` imports
   * it as a stream while scan, quote and ship keep answering.
   * @throws `import_failed` (details `size`) when `size` is over the limit, naming it.
   */
  'orders.importBegin': command<ImportUploadView>()(
    z.object({
      fileName: z.string().min(1, { error: 'File name is required' }).max(INPUT_LIMITS.fileName, { error: `File name is too long (max ${INPUT_LIMITS.fileName} characters)` }),
      size: z.number().int({ error: 'Size must be a whole number of bytes' }).min(0, { error: 'Size must be a whole number of bytes' }),
      shop: ShopName.optional(),
    }),
  ),
  /** One piece of an upload, at byte `offset` (pieces in order, each at most `chunkBytes`). @throws `not_found_locally`, `invalid_input` naming `offset` or `dataBase64`. */
  'orders.importChunk': command<{ received: number }>()(
    z.object({
      importId: z.string().min(1).max(64),
      offset: z.number().int().min(0),
      dataBase64: z.string().max(IMPORT_CHUNK_BASE64, { error: `A piece is larger than ${IMPORT_CHUNK_BYTES} bytes` }),
    }),
    { longText: ['dataBase64'] },
  ),
  /** Imports an uploaded file (progress in `imports.changed`); the upload is removed afterwards. @throws `import_failed`, `not_found_locally`. */
  'orders.importFinish': command<ImportReport>()(z.object({ importId: z.string().min(1).max(64) })),
  /** A page of the order list: view, search (number, name, city, SKU), filters, sorting. */
  'orders.page': command<OrderPage>()(OrderPageQuery),
  /** Shops, countries and shipping methods of open orders (the list's filters). */
  'orders.facets': command<OrderFacets>()(Empty),
  /** One order by its local id. */
  'orders.get': command<StationOrder>()(z.object({ id: OrderIdInput })),
  /** Complete an order that needs a fix: its postal code and/or a shorter note (max 255). */
  'orders.fix': command<StationOrder>()(
    z.object({
      id: OrderIdInput,
      postalCode: z.string().trim().min(1, { error: 'Postal code is required' }).max(ORDER_LIMITS.postalCode, { error: `Postal code is too long (max ${ORDER_LIMITS.postalCode} characters)` }).optional(),
      notes: z.string().trim().max(ORDER_LIMITS.notes, { error: `Notes are too long (max ${ORDER_LIMITS.notes} characters)` }).optional(),
    }),
  ),
  /** Send orders to the platform's order list (POST /orders via the outbox, batches of up to 100). */
  'orders.submit': command<OrdersSubmitView>()(
    z.object({ ids: z.array(OrderIdInput).min(1, { error: 'Choose at least one order' }).max(1000, { error: 'At most 1000 orders at a time' }) }),
  ),
  /** Order settings: unpaid orders allowed, pickup method names per shop. */
  'orders.settings.get': command<OrderSettings>()(Empty),
  /** Save the order settings. */
  'orders.settings.set': command<OrderSettings>()(OrderSettings),
  /** Create an order by hand (manual form). */
  'orders.create': command<StationOrder>()(BoundedManualOrderInput),

  /** Resolve a scanned code: order number (with or without `#`) or tracking number (LDV). */
  'scan.resolve': command<ScanResult>()(
    z.object({ code: z.string().trim().min(1, { error: 'Scan or type a code' }).max(INPUT_LIMITS.scanCode, { error: `Code is too long (max ${INPUT_LIMITS.scanCode} characters)` }) }),
  ),
  /**
   * Opens an order chosen from the list (or among several shops' orders of one number) as a scan opens it:
   * claimed for this bench in the warehouse (issue 35), `claimedBy` when another bench packs it. Errors:
   * not_found_locally naming `orderId`.
   */
  'scan.open': command<ScanResult>()(z.object({ orderId: OrderIdInput }).strict()),
  /** The packer lets the open order go (Esc on the Scan screen, a shipment by hand): its warehouse claim ends (issue 35). */
  'scan.release': command<{ released: boolean }>()(Empty),
} as const;
