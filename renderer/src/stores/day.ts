/** End of day: shipments not yet in a manifest, closing the day, manifest PDFs. */
import { create } from 'zustand';
import type { ManifestView, ShipmentView } from '../../../shared/contract';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { useApp } from './app';

interface DayState {
  unmanifested: ShipmentView[];
  manifests: ManifestView[];
  loading: boolean;
  closing: boolean;
  confirming: boolean;
  /** Ids of manifests created by the last close, highlighted in the list. */
  justCreated: number[];
  load(): Promise<void>;
  setConfirming(v: boolean): void;
  /** Closes the day (`manifests.closeDay`); ignored while a close is in flight. Afterwards `justCreated` names the new manifests. */
  closeDay(): Promise<void>;
  /** The manifest PDF as a Blob plus its file name (for a download link or the print tab). */
  pdf(id: number): Promise<{ blob: Blob; fileName: string } | null>;
}

/** base64 -> bytes (atob is fine for the few MB a manifest weighs). */
function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** End-of-day store: `shipments.unmanifested`, `manifests.list`, `manifests.closeDay`, `manifests.pdf`. */
export const useDay = create<DayState>()((set, get) => ({
  unmanifested: [],
  manifests: [],
  loading: false,
  closing: false,
  confirming: false,
  justCreated: [],

  async load() {
    set({ loading: true });
    try {
      const [unmanifested, manifests] = await Promise.all([invoke('shipments.unmanifested', {}), invoke('manifests.list', {})]);
      set({ unmanifested, manifests, loading: false });
    } catch (e) {
      set({ loading: false });
      useApp.getState().fail(t('endOfDay.loadFailed'), e);
    }
  },

  setConfirming(v) {
    set({ confirming: v });
  },

  async closeDay() {
    // A repeat (double Enter / Y) while the close is in flight is ignored: one POST /manifests per press.
    if (get().closing) return;
    const app = useApp.getState();
    set({ closing: true, confirming: false });
    try {
      const created = await invoke('manifests.closeDay', {});
      set({ closing: false, justCreated: created.map((m) => m.id) });
      const n = created.reduce((a, m) => a + m.totalShipments, 0);
      if (created.length === 0) app.flash('warn', t('endOfDay.nothingToClose'), t('endOfDay.nothingToCloseDetail'));
      else app.flash('ok', t('endOfDay.closed', { manifests: t('endOfDay.manifestCount', { count: created.length }), shipments: t('shipments.count', { count: n }) }), t('endOfDay.closedDetail'));
      await get().load();
      void app.refreshInfo();
    } catch (e) {
      set({ closing: false });
      app.fail(t('endOfDay.closeFailed'), e);
    }
  },

  async pdf(id) {
    try {
      const r = await invoke('manifests.pdf', { id });
      return { blob: new Blob([base64ToBytes(r.pdfBase64)], { type: 'application/pdf' }), fileName: r.fileName };
    } catch (e) {
      useApp.getState().fail(t('endOfDay.pdfFailed', { id }), e);
      return null;
    }
  },
}));
