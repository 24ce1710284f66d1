/**
 * Scale: the header's reading and the weight it gives Quote/Ship. Only a
 * stable weight above zero fills a parcel's weight ({@link parcelToWeigh}) (kg, as the scale
 * resolves it), once per new stable weight, so a typed weight is not
 * overwritten while the box sits still; on Quote it re-quotes at once when
 * the station's `scale.requoteOnStable` setting says so.
 */
import { create } from 'zustand';
import type { ScaleConfigView, ScaleView } from '../../../shared/contract';
import { isUsableWeight } from '../../../shared/domain/scale-weight';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { decimalText } from '../lib/format';
import { typedWeightKg } from '../lib/shipFormParcels';
import { useApp } from './app';
import { useAutoShip } from './autoship';
import { useBoxes } from './boxes';
import { useJob } from './job';
import { useVerify } from './verify';

interface ScaleState {
  scale: ScaleView | null;
  /** The last stable weight applied (kg), so the same reading is applied once. */
  applied: number | null;
  load(): Promise<void>;
  /** Saves the scale choice (`scales.set`). @throws the StationError of a refused value (its `details` name the field). */
  save(config: ScaleConfigView, requoteOnStable: boolean): Promise<ScaleView>;
  changed(view: ScaleView): void;
}

/** Text for the header: "1.230 kg", "1.100 kg (moving)", "OVER CAPACITY"… */
export function readingText(view: ScaleView | null): string {
  if (!view || view.config.kind === 'none') return t('scale.none');
  if (!view.connected) return view.problem ? t('scale.unavailable') : t('scale.notConnected');
  const r = view.reading;
  if (!r) return t('scale.waiting');
  const w = r.kg === null ? '' : `${decimalText(r.kg, r.decimals, r.decimals)} kg`;
  switch (r.status) {
    case 'stable':
      return w;
    case 'motion':
      return t('scale.moving', { weight: w });
    case 'zero':
      return t('scale.zero');
    case 'under_zero':
      return t('scale.underZero');
    case 'over_capacity':
      return t('scale.overCapacity');
    case 'fault':
      return t('scale.fault');
  }
}

/** The parcel a new weight goes to: the only one, else the first without a weight, else the last; -1 when none. */
export function parcelToWeigh(weights: string[]): number {
  if (weights.length <= 1) return weights.length - 1;
  const blank = weights.findIndex((w) => w.trim() === '');
  return blank >= 0 ? blank : weights.length - 1;
}

/** Scale store: `scales.get` at start, `scales.changed` events after. */
export const useScale = create<ScaleState>()((set, get) => ({
  scale: null,
  applied: null,

  async load() {
    try {
      get().changed(await invoke('scales.get', {}));
    } catch (e) {
      useApp.getState().fail(t('scale.loadFailed'), e);
    }
  },

  async save(config, requoteOnStable) {
    const view = await invoke('scales.set', { config, requoteOnStable });
    get().changed(view);
    return view;
  },

  changed(view) {
    set({ scale: view });
    const r = view.reading;
    if (!isUsableWeight(r)) {
      // The box was taken off (or the scale moved): the next stable weight is a new one.
      if (r && (r.status === 'zero' || r.status === 'under_zero')) set({ applied: null });
      return;
    }
    if (get().applied === r.kg) return;
    set({ applied: r.kg });
    const job = useJob.getState();
    const text = decimalText(r.kg, r.decimals, r.decimals);
    const index = parcelToWeigh(job.draft.parcels.map((p) => p.weight));
    if (index < 0 || job.draft.parcels[index]?.weight === text) return;
    job.setParcel(index, 'weight', text);
    // Scan to verify: the weight against the items' and the box's (single-parcel orders only: items are not split by parcel).
    if (job.draft.parcels.length === 1) {
      const box = useBoxes.getState().settings.presets.find((b) => b.name === job.draft.parcels[0]?.box);
      useVerify.getState().checkWeight(r.kg, box ? box.tareKg : null);
    }
    // A rule may ship the order by itself with this weight (issue 24 item 4); else, on Quote, re-quote when set to.
    const requote = () => {
      const screen = useApp.getState().screen;
      if (screen === 'quote' && view.requoteOnStable && !useJob.getState().quoting) void useJob.getState().quote();
    };
    const weightKg = typedWeightKg(useJob.getState().draft.parcels);
    if (weightKg === undefined || useJob.getState().order === null) requote();
    else void useAutoShip.getState().consider(weightKg).then((started) => started || requote());
  },
}));
