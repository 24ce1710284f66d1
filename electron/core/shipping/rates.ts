/** Quoting a parcel (POST /rates): the step behind `shipping.quote`. */
import type { Rate, RatesRequest } from '../../../shared/platform';
import type { StationContext } from '../common/context';

/** Rates cheapest first (by `price.total`, EUR); equal prices keep the platform's order. */
function sortRates(rates: readonly Rate[]): Rate[] {
  return rates
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.price.total - b.r.price.total || a.i - b.i)
    .map((x) => x.r);
}

/** POST /rates (spec: Endpoints > Rates), cheapest first. Empty when no contract serves the parcel. */
export function rateQuoter(ctx: Pick<StationContext, 'client'>) {
  return async (request: RatesRequest): Promise<Rate[]> => sortRates(await ctx.client.quote(request));
}
