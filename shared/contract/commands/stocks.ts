/** Commands of held shipments (stocks) (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { StockActionRequest, StockStatusFilter, type Stock } from '../../platform/tracking';
import type { PaginatedOf } from '../../platform/common';
import { command } from './define';

/** Commands of held shipments (stocks). */
export const stocksCommands = {
  /** Held shipments (GET /stocks), one page, newest first; `status` default `open`. */
  'stocks.list': command<PaginatedOf<Stock>>()(
    z.object({ status: StockStatusFilter.default('open'), page: z.number().int().min(1).default(1), perPage: z.number().int().min(1).max(200).default(50) }),
  ),
  /** Release instructions for a held shipment (POST /stocks/{id}/actions through the outbox). */
  'stocks.instruct': command<Stock>()(
    z.object({ stockId: z.number().int().positive(), trackingNumber: z.string().optional(), request: StockActionRequest }),
  ),
} as const;
