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
import { BenchLanguageSetting, defineSetting } from '../store';
import type { StationContext } from '../common/context';

const NO_BOXES: BoxSettings = { presets: [], defaultBox: null };

/** Handlers of the `boxes` domain. */
export function createBoxesHandlers(ctx: StationContext) {
  const training = ctx.platform.mode === 'sandbox';
  // The default (nothing saved yet) is read at each get: a training station's boxes are named in the bench's language of the moment.
  const setting = defineSetting('boxes.presets', BoxSettings, NO_BOXES);
  const saved = defineSetting('boxes.presets', BoxSettings.nullable(), null);
  return {
    'boxes.get': async () => ctx.store.settings.get(saved) ?? (training ? trainingBoxes(ctx.store.settings.get(BenchLanguageSetting)) : NO_BOXES),
    'boxes.set': async (input) => ctx.store.settings.set(setting, input),
  } satisfies Pick<Handlers, 'boxes.get' | 'boxes.set'>;
}
