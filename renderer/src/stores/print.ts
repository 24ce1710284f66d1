/** Printer: the label printer in use (device URI, status), discovery, waiting jobs and reprints. */
import { create } from 'zustand';
import type { DiscoveredPrinterView, PrintJobView, PrinterView } from '../../../shared/contract';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { printerDetailText, printerNameText, printerStateText, t } from '../lib/i18n';
import { useApp } from './app';
import { coreMessage, jobNoteText } from '../lib/coreText';

interface PrintState {
  printer: PrinterView | null;
  checking: boolean;
  saving: boolean;
  uriError: string | null;
  /** Jobs queued or printing, oldest first (`printJobs.pending`). */
  pending: PrintJobView[];
  /** Printers found by the last `printers.discover`; null before the first search. */
  discovered: DiscoveredPrinterView[] | null;
  discovering: boolean;
  refresh(): Promise<void>;
  setUri(uri: string): Promise<boolean>;
  reprint(trackingNumber: string): Promise<void>;
  loadPending(): Promise<void>;
  /** Updates the waiting list from a `printJobs.changed` event. */
  jobChanged(job: PrintJobView): void;
  cancel(id: number): Promise<void>;
  /** Prints a held label (longer than the labels loaded) shrunk anyway: `printJobs.printShrunk`. */
  printShrunk(id: number): Promise<void>;
  discover(): Promise<void>;
}

/** Printer store: `printers.get`, `printers.set` (device URI), `labels.reprint`. */
export const usePrint = create<PrintState>()((set, get) => ({
  printer: null,
  checking: false,
  saving: false,
  uriError: null,
  pending: [],
  discovered: null,
  discovering: false,

  async refresh() {
    set({ checking: true });
    try {
      set({ printer: await invoke('printers.get', {}), checking: false });
    } catch (e) {
      set({ checking: false });
      useApp.getState().fail(t('print.statusFailed'), e);
    }
  },

  async setUri(uri) {
    const app = useApp.getState();
    if (uri.trim() === '') {
      set({ uriError: t('print.uriRequired') });
      return false;
    }
    set({ saving: true, uriError: null });
    try {
      const printer = await invoke('printers.set', { uri });
      set({ printer, saving: false });
      const detail = printerDetailText(printer);
      app.flash(printer.state === 'ready' ? 'ok' : 'warn', t('print.set', { name: printerNameText(printer) }), `${printerStateText(printer.state)}${detail ? ` — ${detail}` : ''}`);
      void app.refreshInfo();
      return true;
    } catch (e) {
      const err = asStationError(e);
      // The printer's own error (a core text) in the bench's language, the device's address kept.
      set({ saving: false, uriError: err.text ? coreMessage(err) : (err.details?.uri?.[0] ?? err.message) });
      app.fail(t('print.notChanged'), err);
      return false;
    }
  },

  async reprint(trackingNumber) {
    const app = useApp.getState();
    try {
      const job = await invoke('labels.reprint', { trackingNumber });
      if (job.state === 'failed') app.flash('error', t('print.reprintFailed', { trackingNumber: trackingNumber }), jobNoteText(job) ?? t('print.printerError'));
      else if (job.state === 'queued') app.flash('warn', t('print.labelWaits', { trackingNumber: trackingNumber }), jobNoteText(job) ?? t('print.labelWaitsDetail'));
      else if (job.state === 'held') app.flash('warn', t('print.job.held'), jobNoteText(job) ?? '');
      else app.flash('ok', t('print.sentAgain', { trackingNumber: trackingNumber }), job.printerUri);
    } catch (e) {
      app.fail(t('print.reprintFailed', { trackingNumber: trackingNumber }), e);
    }
    void get().refresh();
    void get().loadPending();
  },

  async loadPending() {
    try {
      set({ pending: await invoke('printJobs.pending', {}) });
    } catch (e) {
      useApp.getState().fail(t('print.jobsFailed'), e);
    }
  },

  jobChanged(job) {
    const open = job.state === 'queued' || job.state === 'printing' || job.state === 'held';
    const rest = get().pending.filter((j) => j.id !== job.id);
    set({ pending: open ? [...rest, job].sort((a, b) => a.id - b.id) : rest });
  },

  async cancel(id) {
    const app = useApp.getState();
    try {
      const job = await invoke('printJobs.cancel', { id });
      get().jobChanged(job);
      app.flash('ok', t('print.cancelled', { trackingNumber: job.trackingNumber }), t('print.cancelledDetail'));
    } catch (e) {
      app.fail(t('print.notCancelled'), e);
      void get().loadPending();
    }
  },

  async printShrunk(id) {
    const app = useApp.getState();
    try {
      const job = await invoke('printJobs.printShrunk', { id });
      get().jobChanged(job);
      if (job.state === 'printed') app.flash('ok', t('print.printedShrunk', { trackingNumber: job.trackingNumber }), jobNoteText(job) ?? job.printerUri);
      else app.flash('warn', t('print.labelWaits', { trackingNumber: job.trackingNumber }), jobNoteText(job) ?? t('print.labelWaitsDetail'));
    } catch (e) {
      app.fail(t('print.notPrintedShrunk', { trackingNumber: get().pending.find((j) => j.id === id)?.trackingNumber ?? String(id) }), e);
      void get().loadPending();
    }
  },

  async discover() {
    set({ discovering: true });
    try {
      set({ discovered: await invoke('printers.discover', {}), discovering: false });
    } catch (e) {
      set({ discovering: false });
      useApp.getState().fail(t('print.searchFailed'), e);
    }
  },
}));
