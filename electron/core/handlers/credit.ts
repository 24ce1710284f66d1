/** `credit.*` commands. */
import type { Handlers } from '../../../shared/contract/commands';
import type { StationContext } from './context';

/** Handlers of the `credit` domain. */
export function createCreditHandlers(ctx: StationContext) {
  return {
    /** GET /credit: current balance (EUR); remembered for the header. */
    'credit.get': async () => {
      ctx.lastCredit = await ctx.client.getCredit();
      return ctx.lastCredit;
    },
  } satisfies Pick<Handlers, 'credit.get'>;
}
