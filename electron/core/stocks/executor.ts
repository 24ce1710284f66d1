/**
 * Outbox rows `stock.instruct`: POST /stocks/{id}/actions (spec: Endpoints >
 * Stocks; States > Stock), release instructions for a held shipment. The
 * carrier may charge for a redelivery or a return, so the call is queued and
 * reconciled like the other costing calls (pickups.ts's pattern).
 *
 * Before sending a row again after an earlier attempt, the executor reads
 * the stock (GET /stocks/{id}): instructions already registered with the
 * same action are adopted; other instructions, or a closed stock, need the
 * packer (`needs_attention`). A 409 on the send is reconciled the same way.
 */
import type { z } from 'zod';
import type { Stock, StockActionRequest } from '../../../shared/platform/tracking';
import { PlatformError } from '../platform/errors';
import type { PlatformClient } from '../platform/client-api';
import type { OutboxRecord } from '../store';
import { OutboxAttention } from '../outbox/press-errors';
import type { OutboxExecutor } from '../outbox/worker';
import { coreText } from '../../../shared/contract/core-text';

/** Payload of a `stock.instruct` row: the stock, its shipment (for the Queue title) and the parsed instructions. */
export interface StockInstructPayload {
  stockId: number;
  trackingNumber: string | null;
  request: z.output<typeof StockActionRequest>;
}

/** What the platform gave, and whether it was an earlier attempt's outcome. */
export interface StockSent {
  stock: Stock;
  adopted: boolean;
}

/** Dependencies of {@link createStockExecutor}. */
export interface StockExecutorDeps {
  client: PlatformClient;
  /** After the row is done (events). */
  after?: (row: OutboxRecord<StockInstructPayload>, stock: Stock) => void;
}

/**
 * The stock as it stands when instructions may already be there: adopted when
 * they are ours, else an {@link OutboxAttention} naming what the platform holds.
 */
function reconcile(stock: Stock, action: string): StockSent | undefined {
  if (stock.action === null && stock.status === 'open') return undefined;
  if (stock.action === action) return { stock, adopted: true };
  const said = stock.action
    ? coreText('stockHasInstructions', { id: stock.id, trackingNumber: stock.trackingNumber, current: stock.action, action })
    : coreText('stockNotOpen', { id: stock.id, trackingNumber: stock.trackingNumber, status: stock.status, action });
  throw new OutboxAttention('invalid_state', said.message, said.text);
}

/** Executor of `stock.instruct` rows; the outcome is the platform's Stock. */
export function createStockExecutor(deps: StockExecutorDeps): OutboxExecutor<StockInstructPayload, StockSent, Stock, Stock> {
  const { client } = deps;
  return {
    async send(row) {
      const { stockId, request } = row.payload;
      if (row.attempts > 1) {
        const done = reconcile(await client.getStock(stockId), request.action);
        if (done) return done;
      }
      try {
        return { stock: await client.instructStock(stockId, request), adopted: false };
      } catch (e) {
        if (e instanceof PlatformError && e.status === 409) {
          const done = reconcile(await client.getStock(stockId), request.action);
          if (done) return done;
        }
        throw e;
      }
    },
    commit(_row, sent) {
      return { local: sent.stock, result: { stockId: sent.stock.id, action: sent.stock.action, adopted: sent.adopted } };
    },
    async after(row, stock) {
      deps.after?.(row, stock);
      return stock;
    },
  };
}
