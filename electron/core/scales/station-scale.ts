/**
 * The station's scale (electron/core/scales): the saved choice (settings
 * `scale.config`, `scale.requoteOnStable`), the running {@link ScaleService},
 * and `scales.changed` events for the header and the Quote/Ship weight. The
 * `scale.*` commands are in scale.ts.
 */
import { z } from 'zod';
import type { ScaleConfigView, ScaleView } from '../../../shared/contract/views';
import { loadHidLibrary, loadSerialLibrary } from './load';
import { createScaleService, type ScaleService, type ScaleServiceDeps } from './service';
import type { SettingsRepo } from '../store/settings-repo';
import { defineSetting } from '../store/settings-repo';
import type { StationEmitter } from '../common/events';
import type { StationScale } from '../common/services';

const ScaleConfigSchema: z.ZodType<ScaleConfigView> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('hid') }),
  z.object({ kind: z.literal('serial'), path: z.string().min(1), baudRate: z.number().int().min(300).max(115200), protocol: z.enum(['mt-sics', 'continuous']) }),
]);

/** Which scale; default: the first USB HID scale plugged (none plugged is a normal state). */
export const ScaleConfigSetting = defineSetting<ScaleConfigView>('scale.config', ScaleConfigSchema, { kind: 'hid' });
/** Re-quote at once on a new stable weight (default on: the usual bench flow). */
export const RequoteOnStableSetting = defineSetting('scale.requoteOnStable', z.boolean(), true);


/** Libraries the scale uses; tests and the e2e fake scale pass their own. */
export type ScaleLibraries = Pick<ScaleServiceDeps, 'loadHid' | 'loadSerial'> & Partial<Pick<ScaleServiceDeps, 'rescanMs' | 'pollMs'>>;

/** Starts the saved scale and publishes `scales.changed` on every change. */
export function createStationScale(settings: SettingsRepo, events: StationEmitter, libs?: ScaleLibraries): StationScale {
  const view = (): ScaleView => {
    const s = service.state();
    return {
      config: settings.get(ScaleConfigSetting),
      requoteOnStable: settings.get(RequoteOnStableSetting),
      connected: s.connected,
      name: s.name,
      reading: s.reading,
      problem: s.problem,
    };
  };
  let ready = false;
  const service: ScaleService = createScaleService(settings.get(ScaleConfigSetting), {
    loadHid: libs?.loadHid ?? loadHidLibrary,
    loadSerial: libs?.loadSerial ?? loadSerialLibrary,
    ...(libs?.rescanMs ? { rescanMs: libs.rescanMs } : {}),
    ...(libs?.pollMs ? { pollMs: libs.pollMs } : {}),
    onChange: () => {
      if (ready) events.emit('scales.changed', view());
    },
  });
  ready = true;
  return { view, configure: (config) => service.configure(config), close: () => service.close() };
}
