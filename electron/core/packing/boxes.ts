/**
 * `boxes.*` commands: the station's box presets (issue 11 "Box presets"),
 * kept in the setting `boxes.presets`. A training station that never saved
 * its own starts with {@link trainingBoxes}, named in the bench's language
 * (setting `bench.language`); a station on a real platform
 * starts with none (the packer types the first box's dimensions, or adds
 * boxes in Settings).
 */
import type { Handlers } from '../../../shared/contract/commands';
import { BoxSettings, trainingBoxes } from '../../../shared/contract/boxes';
import { z } from 'zod';
import { BenchLanguageSetting, defineSetting } from '../store';
import type { StationContext } from '../common/context';
import { sharedKey } from '../common/services';

const NO_BOXES: BoxSettings = { presets: [], defaultBox: null };
/** `boxes.presets` as saved; null while this station never saved its own. */
const SAVED_BOXES = defineSetting('boxes.presets', BoxSettings.nullable(), null);
const BOXES = defineSetting('boxes.presets', BoxSettings, NO_BOXES);

/**
 * `boxes.marginCm` (issue 37 item 1): room kept between the items and each wall of a box when the
 * station chooses it (cm, 0 to 10; default 0: the inner size is what fits).
 */
export const BoxMarginSetting = defineSetting('boxes.marginCm', z.number().min(0).max(10), 0);

/**
 * The station's box presets and default box (cm, kg): the saved ones, else a
 * training station's {@link trainingBoxes} named in the bench's language of
 * the moment (read at each call), else none.
 */
export function boxSettingsOf(ctx: Pick<StationContext, 'platform' | 'store'>): BoxSettings {
  return ctx.store.settings.get(SAVED_BOXES) ?? (ctx.platform.mode === 'sandbox' ? trainingBoxes(ctx.store.settings.get(BenchLanguageSetting)) : NO_BOXES);
}

/** Handlers of the `boxes` domain. */
export function createBoxesHandlers(ctx: StationContext) {
  return {
    'boxes.settings.get': async () => boxSettingsOf(ctx),
    'boxes.settings.set': async (input) => {
      await ctx.warehouse.share([{ key: sharedKey.setting(BOXES.key), value: BOXES.schema.parse(input) }]);
      return ctx.store.settings.set(BOXES, input);
    },
  } satisfies Pick<Handlers, 'boxes.settings.get' | 'boxes.settings.set'>;
}
