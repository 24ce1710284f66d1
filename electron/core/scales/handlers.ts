/**
 * `scale.*` commands: read the scale's view, save the choice and reopen the
 * scale (the station's scale itself is station-scale.ts).
 */
import type { Handlers } from '../../../shared/contract/commands';
import type { StationContext } from '../common/context';
import { RequoteOnStableSetting, ScaleConfigSetting } from './station-scale';

/** Handlers of the `scale` domain. */
export function createScaleHandlers(ctx: StationContext) {
  return {
    'scales.get': async () => ctx.scale.view(),
    /** Saves the choice and reopens the scale; an unknown port is not an error (it may be plugged later): `problem` says it. */
    'scales.set': async ({ config, requoteOnStable }) => {
      if (requoteOnStable !== undefined) ctx.store.settings.set(RequoteOnStableSetting, requoteOnStable);
      if (config) {
        ctx.store.settings.set(ScaleConfigSetting, config);
        ctx.scale.configure(config);
      }
      const view = ctx.scale.view();
      ctx.events.emit('scales.changed', view);
      return view;
    },
  } satisfies Pick<Handlers, 'scales.get' | 'scales.set'>;
}
