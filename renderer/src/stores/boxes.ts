/**
 * The station's box presets (`boxes.settings.get` / `boxes.settings.set`, issue 11): loaded at
 * start, used by the job store for a new parcel's box and by Quote/Ship to
 * choose one (Alt+1..9, the Box field, a scanned box barcode).
 */
import { create } from 'zustand';
import type { BoxSettings } from '../../../shared/contract';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { useApp } from './app';

interface BoxesState {
  settings: BoxSettings;
  loaded: boolean;
  load(): Promise<void>;
  /** Saves the whole list. @throws the StationError of a refused list (its `details` name the fields). */
  save(settings: BoxSettings): Promise<BoxSettings>;
}

/** Box presets store. */
export const useBoxes = create<BoxesState>()((set) => ({
  settings: { presets: [], defaultBox: null, marginCm: 0 },
  loaded: false,
  async load() {
    try {
      set({ settings: await invoke('boxes.settings.get', {}), loaded: true });
    } catch (e) {
      useApp.getState().fail(t('boxes.notLoaded'), e);
    }
  },
  async save(settings) {
    const saved = await invoke('boxes.settings.set', settings);
    set({ settings: saved, loaded: true });
    return saved;
  },
}));
