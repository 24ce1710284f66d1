/**
 * Tracking of the shipment shown on the Scan screen (`shipments.tracking`):
 * loaded when a shipment is opened, refreshed with Alt+T. A late answer for
 * a shipment no longer shown is dropped; a refresh that cannot reach the
 * platform keeps the timeline already read.
 */
import { create } from 'zustand';
import type { StationError, TrackingView } from '../../../shared/contract';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';

interface TrackingState {
  /** Tracking number (LDV) the section shows. */
  trackingNumber: string | null;
  view: TrackingView | null;
  loading: boolean;
  /** Why the platform's record could not be read and the station had no last known status either. */
  error: StationError | null;
  /** Shows `trackingNumber`'s tracking (from scratch when it is another shipment). */
  load(trackingNumber: string): Promise<void>;
  /** Reads the shown shipment's tracking again (Alt+T); nothing when none is shown. */
  refresh(): Promise<void>;
  clear(): void;
}

/**
 * When a refresh could not reach the platform (`source: 'local'`) but this
 * screen already read the shipment's tracking, that reading is the better
 * "last known": keep its events and time, marked unavailable with the new reason.
 */
export function keepLastRead(previous: TrackingView | null, next: TrackingView): TrackingView {
  if (next.source !== 'local' || !previous || previous.trackingNumber !== next.trackingNumber) return next;
  return { ...previous, source: 'local', unavailable: next.unavailable };
}

/** Tracking store (see file comment). */
export const useTracking = create<TrackingState>()((set, get) => ({
  trackingNumber: null,
  view: null,
  loading: false,
  error: null,

  async load(trackingNumber) {
    const same = get().trackingNumber === trackingNumber;
    set({ trackingNumber, loading: true, error: null, ...(same ? {} : { view: null }) });
    try {
      const view = await invoke('shipments.tracking', { trackingNumber });
      if (get().trackingNumber === trackingNumber) set({ view: keepLastRead(get().view, view), loading: false });
    } catch (e) {
      if (get().trackingNumber === trackingNumber) set({ error: asStationError(e), loading: false });
    }
  },

  async refresh() {
    const trackingNumber = get().trackingNumber;
    if (trackingNumber) await get().load(trackingNumber);
  },

  clear() {
    set({ trackingNumber: null, view: null, loading: false, error: null });
  },
}));
