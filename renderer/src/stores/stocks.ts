/**
 * Held shipments (stocks): the open ones from `stocks.list`, polled so the
 * header shows a badge when the carrier opens a new one (no inbound webhooks
 * on a bench PC), and instructions through `stocks.instruct` (outbox).
 * "New" = an open stock with an id above the highest the packer has seen on
 * the Stocks screen (kept in localStorage across restarts).
 */
import { create } from 'zustand';
import type { Stock, StockActionRequest } from '../../../shared/platform/tracking';
import type { FieldErrors } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useApp } from './app';

const SEEN_KEY = 'station.stocks.seenMaxId';

/** How often the open stocks are read again (ms). */
export const STOCK_POLL_MS = 15_000;

function readSeen(): number {
  try {
    return Number(localStorage.getItem(SEEN_KEY) ?? '0') || 0;
  } catch {
    return 0;
  }
}

/** Open stocks with an id above `seenMaxId`. */
export function newStockCount(stocks: readonly Pick<Stock, 'id' | 'status'>[], seenMaxId: number): number {
  return stocks.filter((s) => s.status === 'open' && s.id > seenMaxId).length;
}

interface StocksState {
  status: 'open' | 'instructed' | 'closed' | 'all';
  page: number;
  lastPage: number;
  total: number;
  stocks: Stock[];
  /** Open stocks as last polled (for the badge), whatever page the screen shows. */
  open: Stock[];
  seenMaxId: number;
  loading: boolean;
  sending: number | null;
  errors: FieldErrors;
  load(opts?: { status?: StocksState['status']; page?: number }): Promise<void>;
  poll(): Promise<void>;
  markSeen(): void;
  instruct(stock: Stock, request: StockActionRequest): Promise<boolean>;
}

/** Stocks store (see file comment). */
export const useStocks = create<StocksState>()((set, get) => ({
  status: 'open',
  page: 1,
  lastPage: 1,
  total: 0,
  stocks: [],
  open: [],
  seenMaxId: readSeen(),
  loading: false,
  sending: null,
  errors: {},

  async load(opts) {
    const status = opts?.status ?? get().status;
    const page = opts?.page ?? get().page;
    set({ loading: true, status, page });
    try {
      const res = await invoke('stocks.list', { status, page, perPage: 25 });
      set({ stocks: res.data, lastPage: res.meta.last_page, total: res.meta.total, loading: false, ...(status === 'open' && page === 1 ? { open: res.data } : {}) });
    } catch (e) {
      set({ loading: false });
      useApp.getState().fail(t('stocks.loadFailed'), e);
    }
  },

  async poll() {
    try {
      const res = await invoke('stocks.list', { status: 'open', page: 1, perPage: 200 });
      set({ open: res.data });
    } catch {
      // Offline: the badge keeps the last known count; the connection pill says why.
    }
  },

  markSeen() {
    const max = Math.max(get().seenMaxId, ...get().open.map((s) => s.id), ...get().stocks.map((s) => s.id));
    try {
      localStorage.setItem(SEEN_KEY, String(max));
    } catch {
      // storage unavailable: seen for this session only
    }
    set({ seenMaxId: max });
  },

  async instruct(stock, request) {
    const app = useApp.getState();
    // One press, one instruction (issue 14): a repeat while one is on its way is ignored. The
    // flag is set before the first await, so a second Enter's handler already sees it.
    if (get().sending !== null) return false;
    set({ sending: stock.id, errors: {} });
    try {
      const res = await invoke('stocks.instruct', { stockId: stock.id, trackingNumber: stock.trackingNumber, request });
      set({ sending: null });
      app.flash('ok', t('stocks.sent', { trackingNumber: res.trackingNumber }), t(res.sentToCarrier === false ? 'stocks.sentDetailNoApi' : 'stocks.sentDetail', { id: res.giacenzaId, status: res.status }));
      await Promise.all([get().load(), get().poll()]);
      return true;
    } catch (e) {
      const err = asStationError(e);
      set({ sending: null, errors: err.details ?? {} });
      app.fail(t('stocks.notSent'), err);
      return false;
    }
  },
}));
