/**
 * `boxes.*` commands: the station's box presets (issue 11 "Box presets"),
 * kept in the setting `boxes.presets`, and the margin of the station's box
 * choice (issue 37), kept in `boxes.marginCm`; both are shared by the warehouse. A training station that never saved
 * its own starts with {@link trainingBoxes}, named in the bench's language
 * (setting `bench.language`); a station on a real platform
 * starts with none (the packer types the first box's dimensions, or adds
 * boxes in Settings).
 */
import type { Handlers } from '../../../shared/contract/commands';
import { BoxMarginCm, BoxSettings, trainingBoxes } from '../../../shared/contract/boxes';
import { BenchLanguageSetting, defineSetting } from '../store';
import type { StationContext } from '../common/context';
import type { z } from 'zod';
import { sharedKey } from '../common/services';

/** What `boxes.presets` holds: the presets and the default box (the margin has its own setting). */
const PresetsSetting = BoxSettings.transform(({ presets, defaultBox }) => ({ presets, defaultBox }));
type SavedPresets = z.output<typeof PresetsSetting>;
const NO_BOXES: SavedPresets = { presets: [], defaultBox: null };
/** `boxes.presets` as saved; null while this station never saved its own. */
const SAVED_BOXES = defineSetting('boxes.presets', PresetsSetting.nullable(), null);
const BOXES = defineSetting('boxes.presets', PresetsSetting, NO_BOXES);

/**
 * `boxes.marginCm` (issue 37 item 1): room kept between the items and each wall of a box when the
 * station chooses it (cm, 0 to 10; default 0: the inner size is what fits).
 */
const BoxMarginSetting = defineSetting('boxes.marginCm', BoxMarginCm, 0);

/**
 * The station's box presets and default box (cm, kg): the saved ones, else a
 * training station's {@link trainingBoxes} named in the bench's language of
 * the moment (read at each call), else none; with the margin of `boxes.marginCm` (cm).
 */
export function boxSettingsOf(ctx: Pick<StationContext, 'platform' | 'store'>): BoxSettings {
  const boxes = ctx.store.settings.get(SAVED_BOXES) ?? (ctx.platform.mode === 'sandbox' ? trainingBoxes(ctx.store.settings.get(BenchLanguageSetting)) : NO_BOXES);
  return { presets: boxes.presets, defaultBox: boxes.defaultBox, marginCm: ctx.store.settings.get(BoxMarginSetting) };
}

/** Handlers of the `boxes` domain. */
export function createBoxesHandlers(ctx: StationContext) {
  return {
    'boxes.settings.get': async () => boxSettingsOf(ctx),
    'boxes.settings.set': async (input) => {
      const { marginCm, ...presets } = BoxSettings.parse(input);
      await ctx.warehouse.share([
        { key: sharedKey.setting(BOXES.key), value: presets },
        { key: sharedKey.setting(BoxMarginSetting.key), value: marginCm },
      ]);
      ctx.store.settings.set(BOXES, presets);
      ctx.store.settings.set(BoxMarginSetting, marginCm);
      return boxSettingsOf(ctx);
    },
  } satisfies Pick<Handlers, 'boxes.settings.get' | 'boxes.settings.set'>;
}
