/** End of day: shipments not yet in a manifest, closing the day, manifest PDFs. */
import { create } from 'zustand';
import type { DayReportView, DayStatsView, ManifestView, ReportRange, ShipmentView } from '../../../shared/contract';
import { invoke } from '../api';
import { language, t } from '../lib/i18n';
import { useApp } from './app';
import { money } from '../lib/format';
import { asStationError } from '../lib/errors';
import { coreTextOf } from '../lib/coreText';

interface DayState {
  unmanifested: ShipmentView[];
  manifests: ManifestView[];
  loading: boolean;
  closing: boolean;
  confirming: boolean;
  /** Ids of manifests created by the last close, highlighted in the list. */
  justCreated: number[];
  /** End of day's figures (issue 26), for `range`; null until loaded. */
  stats: DayStatsView | null;
  range: ReportRange;
  /** True while the day report is being made. */
  reporting: boolean;
  load(): Promise<void>;
  /** Shows `range` (day, week, month) and loads its figures. */
  setRange(range: ReportRange): Promise<void>;
  /** Makes the day report in the bench's language (`reports.dayReport`, also saved when a folder is set); null when it failed. */
  report(): Promise<DayReportView | null>;
  setConfirming(v: boolean): void;
  /** Closes the day (`manifests.closeDay`); ignored while a close is in flight. Afterwards `justCreated` names the new manifests. */
  closeDay(): Promise<void>;
  /** The bench is in a warehouse (issue 43 item 4): the day closes once for every bench, not here. */
  inWarehouse: boolean;
  /** True while the warehouse's close asked here runs. */
  closingWarehouse: boolean;
  /**
   * Closes the day for the whole warehouse from this bench (`warehouse.closeDay`, a supervisor's command): `pin`
   * (the supervisor's, when given) unlocks first. Says the close's figures, or why it did not happen.
   */
  closeWarehouseDay(pin: string): Promise<void>;
  /** The manifest PDF as a Blob plus its file name (for a download link or the print tab). */
  pdf(id: number): Promise<{ blob: Blob; fileName: string } | null>;
}

/** base64 -> bytes (atob is fine for the few MB a manifest weighs). */
export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** End-of-day store: `shipments.unmanifested`, `manifests.list`, `manifests.closeDay`, `manifests.pdf`, `reports.day`, `reports.dayReport`. */
export const useDay = create<DayState>()((set, get) => ({
  unmanifested: [],
  manifests: [],
  loading: false,
  closing: false,
  confirming: false,
  justCreated: [],
  stats: null,
  range: 'day',
  reporting: false,
  inWarehouse: false,
  closingWarehouse: false,

  async load() {
    set({ loading: true });
    void invoke('warehouse.status', {}).then(
      (w) => set({ inWarehouse: w.since !== null }),
      () => undefined,
    );
    // The charts' figures come on their own: they show without waiting for the list of every shipment.
    const range = get().range;
    void invoke('reports.day', { range }).then(
      (stats) => {
        if (get().range === range) set({ stats });
      },
      (e: unknown) => useApp.getState().fail(t('dayCharts.loadFailed'), e),
    );
    try {
      const [unmanifested, manifests] = await Promise.all([invoke('shipments.unmanifested', {}), invoke('manifests.list', {})]);
      set({ unmanifested, manifests, loading: false });
    } catch (e) {
      set({ loading: false });
      useApp.getState().fail(t('endOfDay.loadFailed'), e);
    }
  },

  async setRange(range) {
    set({ range });
    try {
      set({ stats: await invoke('reports.day', { range }) });
    } catch (e) {
      useApp.getState().fail(t('dayCharts.loadFailed'), e);
    }
  },

  async report() {
    if (get().reporting) return null;
    set({ reporting: true });
    try {
      const r = await invoke('reports.dayReport', { language: language(), save: true });
      set({ reporting: false });
      return r;
    } catch (e) {
      set({ reporting: false });
      useApp.getState().fail(t('dayCharts.reportFailed'), e);
      return null;
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
      // A bench in a warehouse: the day closes on the supervisor's page (issue 43 item 4), said as where, not as a failure.
      const err = asStationError(e);
      const where = err.text?.key.startsWith('dayClosedByWarehouse') ? coreTextOf(err.text) : null;
      if (where) {
        set({ inWarehouse: true });
        app.flash('warn', where);
      } else app.fail(t('endOfDay.closeFailed'), e);
    }
  },

  async closeWarehouseDay(pin) {
    if (get().closingWarehouse) return;
    const app = useApp.getState();
    set({ closingWarehouse: true });
    try {
      if (pin.trim() !== '') await invoke('packers.unlock', { pin: pin.trim() });
      const c = await invoke('warehouse.closeDay', {});
      const manifests = c.manifests.map((m) => `${m.contract}: ${m.shipments}`).join(' · ');
      const detail = [
        manifests,
        c.cancelled > 0 ? t('endOfDay.warehouseCancelled', { count: c.cancelled, refunded: money(c.refunded) }) : '',
        c.cancelRefused > 0 ? t('endOfDay.warehouseCancelRefused', { count: c.cancelRefused }) : '',
        c.offlineBenches.length > 0 ? t('endOfDay.warehouseOffline', { benches: c.offlineBenches.join(', ') }) : '',
      ]
        .filter(Boolean)
        .join(' — ');
      app.flash('ok', t('endOfDay.warehouseClosed', { shipments: t('shipments.count', { count: c.shipments }) }), detail);
      await get().load();
    } catch (e) {
      app.fail(t('endOfDay.warehouseCloseFailed'), e);
    } finally {
      set({ closingWarehouse: false });
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
