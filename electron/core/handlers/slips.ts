/** `slips.*` commands: the packing-slip settings and jobs (electron/core/slips, issue 11). */
import type { Handlers } from '../../../shared/contract/commands';
import type { StationContext } from './context';

/** Handlers of the `slips` domain. */
export function createSlipsHandlers(ctx: StationContext) {
  return {
    'slips.settings': async () => ctx.slips.settings(),
    'slips.setSettings': async (input) => ctx.slips.setSettings(input),
    'slips.print': async ({ orderId }) => ctx.slips.request(orderId),
    'slips.list': async ({ orderId }) => ctx.slips.list(orderId),
  } satisfies Pick<Handlers, 'slips.settings' | 'slips.setSettings' | 'slips.print' | 'slips.list'>;
}
