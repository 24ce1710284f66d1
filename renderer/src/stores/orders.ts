/** Orders panel: open orders, Shopify CSV import with its report, manual order form. */
import { create } from 'zustand';
import type { ImportReport, ManualOrderInput, StationOrder } from '../../../shared/domain/order';
import type { FieldErrors } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { useApp } from './app';

interface OrdersState {
  orders: StationOrder[];
  loading: boolean;
  filter: string;
  report: (ImportReport & { fileName: string }) | null;
  importing: boolean;
  creating: boolean;
  /** `details` of a refused manual order (keys like `recipient.postalCode`). */
  createErrors: FieldErrors;
  load(): Promise<void>;
  setFilter(q: string): void;
  importCsv(file: { name: string; text(): Promise<string> }): Promise<void>;
  create(input: ManualOrderInput): Promise<StationOrder | null>;
}

/** Orders store: `orders.list` (open), `orders.importCsv` with its report, `orders.create`. */
export const useOrders = create<OrdersState>()((set, get) => ({
  orders: [],
  loading: false,
  filter: '',
  report: null,
  importing: false,
  creating: false,
  createErrors: {},

  async load() {
    set({ loading: true });
    try {
      const q = get().filter.trim();
      set({ orders: await invoke('orders.list', q ? { status: 'open', q } : { status: 'open' }), loading: false });
    } catch (e) {
      set({ loading: false });
      useApp.getState().fail('Could not load the orders', e);
    }
  },
  setFilter(q) {
    set({ filter: q });
    void get().load();
  },

  async importCsv(file) {
    const app = useApp.getState();
    set({ importing: true });
    try {
      const content = await file.text();
      const report = await invoke('orders.importCsv', { fileName: file.name, content });
      set({ report: { ...report, fileName: file.name }, importing: false });
      const summary = `${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skippedDuplicates} duplicates skipped, ${report.skippedNotShippable} not shippable`;
      if (report.errors.length) app.flash('warn', `Imported ${file.name} with ${report.errors.length} problem${report.errors.length === 1 ? '' : 's'}`, summary);
      else app.flash('ok', `Imported ${file.name}`, summary);
      await get().load();
    } catch (e) {
      set({ importing: false });
      app.fail(`Import of ${file.name} failed`, e);
    }
  },

  async create(input) {
    const app = useApp.getState();
    set({ creating: true, createErrors: {} });
    try {
      const order = await invoke('orders.create', input);
      set({ creating: false });
      app.flash('ok', `Order ${order.orderNumber} created`, `${order.recipient.name}, ${order.recipient.city}`);
      await get().load();
      return order;
    } catch (e) {
      const err = asStationError(e);
      set({ creating: false, createErrors: err.details ?? {} });
      app.fail('Order not created', err);
      return null;
    }
  },
}));
