/**
 * `stocks.*` commands (issue 10): held shipments (spec: Endpoints > Stocks).
 * Listing reads the platform; instructions go through the outbox like every
 * call that may cost money (stocks/executor.ts), written before sending and
 * awaited.
 */
import type { Handlers } from '../../../shared/contract/commands';
import type { Stock } from '../../../shared/platform/tracking';
import type { StockInstructPayload } from './executor';
import { emitAppChanged } from '../account/app';
import type { StationContext } from '../common/context';

/** Handlers of the `stocks` domain. */
export function createStocksHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    /** GET /stocks: one page (newest opened first), `status` default `open`. */
    'stocks.list': async ({ status, page, perPage }) => ctx.client.listStocks({ status, page, per_page: perPage }),
    /**
     * POST /stocks/{id}/actions through the outbox; resolves with the Stock as the platform
     * holds it after the instructions.
     * @throws StationError with the platform's code (`invalid_state` 409: already instructed,
     *   `validation_failed` with details such as `address.postalCode`), or `offline`/`timeout`
     *   (the row stays queued and is sent later).
     */
    'stocks.instruct': async ({ stockId, trackingNumber, request }): Promise<Stock> => {
      const payload: StockInstructPayload = { stockId, trackingNumber: trackingNumber ?? null, request };
      const row = store.outbox.enqueue({ kind: 'stock.instruct', payload, localRef: `stock:${stockId}` });
      emitAppChanged(ctx);
      return ctx.outbox.process<Stock>(row.id);
    },
  } satisfies Pick<Handlers, 'stocks.list' | 'stocks.instruct'>;
}
