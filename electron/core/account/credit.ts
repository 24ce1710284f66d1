/** `credit.*` commands. */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { PlatformError } from '../platform/errors';
import type { StationContext } from '../common/context';

/** Handlers of the `credit` domain. */
export function createCreditHandlers(ctx: StationContext) {
  return {
    /** GET /credit: current balance (EUR); remembered for the header. */
    'credit.get': async () => {
      ctx.lastCredit = await ctx.client.getCredit();
      return ctx.lastCredit;
    },
    /** One page of GET /credit/movements, /invoices, /cod-lists or /returns (spec pagination). */
    'account.list': async ({ list, page, perPage }) => ctx.client.listFinance(list, { page, per_page: perPage }),
    /** GET /invoices/{id}, /cod-lists/{id} or /returns/{id}: the record with its lines. @throws the platform's code (404 `not_found`). */
    'account.detail': async ({ list, id }) => ctx.client.getFinanceDetail(list, id),
    /**
     * GET /invoices/{id}/pdf.
     * @throws StationError `unavailable` ("try later") when the platform answers 503; the platform's code otherwise.
     */
    'account.invoicePdf': async ({ id }) => {
      try {
        const inv = await ctx.client.getInvoicePdf(id);
        return { id, fileName: `invoice-${inv.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`, pdfBase64: inv.pdf };
      } catch (e) {
        if (e instanceof PlatformError && e.status === 503) throw new StationError('unavailable', `The invoice PDF cannot be made right now: try later (${e.message})`);
        throw e;
      }
    },
  } satisfies Pick<Handlers, 'credit.get' | 'account.list' | 'account.detail' | 'account.invoicePdf'>;
}
