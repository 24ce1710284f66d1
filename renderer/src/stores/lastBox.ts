/**
 * The box a new parcel starts with at this bench (kept in localStorage
 * `station.lastBox`): the one the packer used last, else the station's
 * default preset (stores/boxes.ts).
 */
import type { ParcelDraft } from '../../../shared/contract/ship-form';
import { boxChoice, type BoxChoice } from '../lib/shipFormParcels';
import { useBoxes } from './boxes';

const BOX_KEY = 'station.lastBox';

/**
 * The box a new parcel starts with: the one the packer used last (a preset by
 * its current dimensions, or dimensions typed by hand), else the station's
 * default preset, else none (blank dimensions: the quote asks for a box).
 */
export function startingBox(): BoxChoice | undefined {
  const { presets, defaultBox } = useBoxes.getState().settings;
  try {
    const raw = localStorage.getItem(BOX_KEY);
    if (raw) {
      const b = JSON.parse(raw) as { name?: unknown; length?: unknown; width?: unknown; height?: unknown };
      const name = typeof b.name === 'string' ? b.name : '';
      const preset = name ? presets.find((p) => p.name === name) : undefined;
      if (preset) return boxChoice(preset);
      // A hand-typed box is kept; a preset deleted since is not.
      if (name === '' && typeof b.length === 'string' && typeof b.width === 'string' && typeof b.height === 'string' && b.length !== '') return { name: '', length: b.length, width: b.width, height: b.height };
    }
  } catch {
    // unreadable: the default box applies
  }
  const preset = defaultBox ? presets.find((p) => p.name === defaultBox) : undefined;
  return preset ? boxChoice(preset) : undefined;
}

/** Remembers the box of `p` (preset name and dimensions cm as typed) for the next parcel. */
export function rememberBox(p: ParcelDraft | undefined): void {
  if (!p) return;
  try {
    localStorage.setItem(BOX_KEY, JSON.stringify({ name: p.box, length: p.length, width: p.width, height: p.height }));
  } catch {
    // storage unavailable: not important
  }
}

