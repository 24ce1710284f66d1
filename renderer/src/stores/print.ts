/** Printer: the label printer in use (device URI, status) and reprints. */
import { create } from 'zustand';
import type { PrinterView } from '../../../shared/contract';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { useApp } from './app';

interface PrintState {
  printer: PrinterView | null;
  checking: boolean;
  saving: boolean;
  uriError: string | null;
  refresh(): Promise<void>;
  setUri(uri: string): Promise<boolean>;
  reprint(trackingNumber: string): Promise<void>;
}

/** Printer store: `printers.get`, `printers.set` (device URI), `labels.reprint`. */
export const usePrint = create<PrintState>()((set, get) => ({
  printer: null,
  checking: false,
  saving: false,
  uriError: null,

  async refresh() {
    set({ checking: true });
    try {
      set({ printer: await invoke('printers.get', {}), checking: false });
    } catch (e) {
      set({ checking: false });
      useApp.getState().fail('Printer status unavailable', e);
    }
  },

  async setUri(uri) {
    const app = useApp.getState();
    if (uri.trim() === '') {
      set({ uriError: 'Printer URI is required, e.g. socket://192.168.1.50:9100' });
      return false;
    }
    set({ saving: true, uriError: null });
    try {
      const printer = await invoke('printers.set', { uri });
      set({ printer, saving: false });
      app.flash(printer.state === 'ready' ? 'ok' : 'warn', `Printer set: ${printer.name}`, `${printer.state}${printer.detail ? ` — ${printer.detail}` : ''}`);
      void app.refreshInfo();
      return true;
    } catch (e) {
      const err = asStationError(e);
      set({ saving: false, uriError: err.details?.uri?.[0] ?? err.message });
      app.fail('Printer not changed', err);
      return false;
    }
  },

  async reprint(trackingNumber) {
    const app = useApp.getState();
    try {
      const job = await invoke('labels.reprint', { trackingNumber });
      if (job.state === 'failed') app.flash('error', `Reprint of ${trackingNumber} failed`, job.lastError ?? 'Printer error');
      else app.flash('ok', `Label ${trackingNumber} sent again`, job.printerUri);
    } catch (e) {
      app.fail(`Reprint of ${trackingNumber} failed`, e);
    }
    void get().refresh();
  },
}));
