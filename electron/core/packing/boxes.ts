/**
 * `boxes.*` commands: the station's box presets (issue 11 "Box presets"),
 * kept in the setting `boxes.presets`. A training station that never saved
 * its own starts with {@link TRAINING_BOXES}; a station on a real platform
 * starts with none (the packer types the first box's dimensions, or adds
 * boxes in Settings).
 */
import type { Handlers } from '../../../shared/contract/commands';
import { BoxSettings, TRAINING_BOXES } from '../../../shared/contract/boxes';
import { defineSetting } from '../store';
import type { StationContext } from '../common/context';

const NO_BOXES: BoxSettings = { presets: [], defaultBox: null };

/** The setting `boxes.presets` of this station: a training station starts with {@link TRAINING_BOXES}, one on a real platform with none. */
function boxesSetting(ctx: Pick<StationContext, 'platform'>) {
  return defineSetting('boxes.presets', BoxSettings, ctx.platform.mode === 'sandbox' ? TRAINING_BOXES : NO_BOXES);
}

/** The station's box presets and default box (cm, kg). */
export function boxSettingsOf(ctx: Pick<StationContext, 'platform' | 'store'>): BoxSettings {
  return ctx.store.settings.get(boxesSetting(ctx));
}

/** Handlers of the `boxes` domain. */
export function createBoxesHandlers(ctx: StationContext) {
  const setting = boxesSetting(ctx);
  return {
    'boxes.get': async () => ctx.store.settings.get(setting),
    'boxes.set': async (input) => ctx.store.settings.set(setting, input),
  } satisfies Pick<Handlers, 'boxes.get' | 'boxes.set'>;
}
