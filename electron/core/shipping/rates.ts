/** `rates.*` commands: quoting a parcel. */
import type { Handlers } from '../../../shared/contract/commands';
import type { Rate } from '../../../shared/platform/resources';
import type { StationContext } from '../common/context';

/** Rates cheapest first (by `price.total`, EUR); equal prices keep the platform's order. */
function sortRates(rates: readonly Rate[]): Rate[] {
  return rates
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.price.total - b.r.price.total || a.i - b.i)
    .map((x) => x.r);
}

/** Handlers of the `rates` domain. */
export function createRatesHandlers(ctx: StationContext) {
  return {
    /** POST /rates (spec: Endpoints > Rates), cheapest first. Empty when no contract serves the parcel. */
    'rates.quote': async ({ request }) => sortRates(await ctx.client.quote(request)),
  } satisfies Pick<Handlers, 'rates.quote'>;
}
