/**
 * Orders panel: the order list (paged from the core as it scrolls, searched
 * and filtered in SQLite), the Shopify CSV import for a shop with its report,
 * the manual order form, and opening an order for shipping (needs-fix form,
 * unpaid confirmation, store pickup refusal).
 */
import { create } from 'zustand';
import type { OrdersSubmitView } from '../../../shared/contract/commands';
import type { ImportProgressView } from '../../../shared/contract/views';
import type { ImportReport, ManualOrderInput, OrderFacets, OrderPageQuery, OrderSettings, StationOrder } from '../../../shared/domain/order';
import type { FieldErrors } from '../../../shared/platform';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { useApp } from './app';
import { useAutoShip } from './autoship';
import { useJob } from './job';
import { useVerify } from './verify';

/** Rows fetched per `orders.page` call. */
const PAGE_SIZE = 100;

/** The list's query without paging. */
type OrdersQuery = Required<Pick<OrderPageQuery, 'view' | 'sort'>> & Omit<OrderPageQuery, 'view' | 'sort' | 'offset' | 'limit' | 'after'>;

interface OrdersState {
  query: OrdersQuery;
  /** Orders matching the query, in all. */
  total: number;
  /** Loaded rows by position in the list (the rest are fetched when scrolled to). */
  rows: Map<number, StationOrder>;
  /** Bumped on every new query, so answers to an older one are dropped. */
  generation: number;
  loading: boolean;
  facets: OrderFacets;
  settings: OrderSettings;
  /** Orders chosen for "Send to platform", by id. */
  selected: Set<number>;
  lastShop: string;
  report: (ImportReport & { fileName: string }) | null;
  importing: boolean;
  /** The import under way: sending the file, then reading it in the core (`imports.changed`). */
  progress: ImportProgress | null;
  creating: boolean;
  /** `details` of a refused manual order (keys like `recipient.postalCode`). */
  createErrors: FieldErrors;
  /** The order whose missing fields the packer is completing. */
  fixing: StationOrder | null;
  fixErrors: FieldErrors;
  /** The unpaid order waiting for the packer's yes/no. */
  confirmUnpaid: StationOrder | null;
  /** Several shops share the scanned number: the packer chooses. */
  choices: { code: string; orders: StationOrder[] } | null;

  load(): Promise<void>;
  setQuery(patch: Partial<OrdersQuery>): void;
  /** Makes sure rows [from, to) are loaded (called by the virtual list as it scrolls). */
  ensureRange(from: number, to: number): Promise<void>;
  loadFacets(): Promise<void>;
  loadSettings(): Promise<void>;
  toggleSelected(id: number): void;
  clearSelected(): void;
  /** Sends the file in pieces (`orders.importBegin`/`importChunk`) and imports it (`orders.importFinish`). */
  importCsv(file: ImportFile, shop: string): Promise<void>;
  /** An `imports.changed` event: progress of the import under way (others are ignored). */
  importProgress(p: ImportProgressView): void;
  create(input: ManualOrderInput): Promise<StationOrder | null>;
  /** Opens an order for shipping: needs-fix form, unpaid confirmation, or straight to Quote. */
  openForShipping(order: StationOrder): void;
  confirmUnpaidYes(): void;
  closeDialogs(): void;
  fix(patch: { postalCode?: string; notes?: string }): Promise<void>;
  showChoices(code: string, orders: StationOrder[]): void;
  submitSelected(): Promise<OrdersSubmitView | null>;
  /** An `orders.submit` is on its way: a repeat press is ignored. */
  submitting: boolean;
}

const pageKey = (offset: number) => Math.floor(offset / PAGE_SIZE) * PAGE_SIZE;
/** Pages being fetched, per generation (so one scroll does not ask twice). */
const inFlight = new Set<string>();
/**
 * Keyset cursors of the current query by the position they continue from
 * (`"<generation>:<offset>"` → a page's `next`): scrolling on asks for the
 * rows after the last loaded one instead of skipping `offset` rows; a jump
 * far down the scrollbar, with no cursor for that position, uses the offset.
 */
const cursors = new Map<string, string>();
const keepCursor = (generation: number, offset: number, next: string | undefined) => {
  if (next !== undefined) cursors.set(`${generation}:${offset}`, next);
};

/** A file chosen for import: what the store reads of a DOM `File`. */
type ImportFile = { name: string; size: number; slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> } };

/**
 * Progress of an import: `sending` the file's bytes (`done` of `total`), then
 * `reading` it in the core (`done` bytes read of `total`, `rows` and `orders` found).
 */
interface ImportProgress {
  importId: string;
  phase: 'sending' | 'reading';
  done: number;
  total: number;
  rows: number;
  orders: number;
}

/** Base64 of bytes, in chunks (a 6 MB file must not overflow the call stack). */
function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function startShipping(o: StationOrder) {
  const app = useApp.getState();
  const job = useJob.getState();
  if (job.shipping && job.order) {
    // Its shipment is being made: a second scan (or another order) waits for the answer, so the
    // label that comes back lands on the order it was made for (issue 24 item 7).
    const shipping = job.order.orderNumber;
    app.flash('info', t(job.order.id === o.id ? 'orders.msg.beingShipped' : 'orders.msg.waitForShipping', { order: shipping, next: o.orderNumber }));
    return;
  }
  job.startOrder(o);
  // Scan to verify: the items are scanned on the Scan screen first (issue 14 item 5).
  if (useVerify.getState().begin(o)) {
    app.go('scan', { keepBanner: true });
    return;
  }
  const order = o.shop === 'main' ? o.orderNumber : `${o.orderNumber} (${o.shop})`;
  app.flash('ok', t('orders.msg.opened', { order, name: o.recipient.name }), t('orders.msg.openedDetail', { postalCode: o.recipient.postalCode, city: o.recipient.city, country: o.recipient.countryCode }));
  app.go('quote', { keepBanner: true });
  // A rule may ship it by itself now (its weight from product data): the countdown shows on Quote.
  void useAutoShip.getState().consider();
}

/** Orders store: `orders.page`, `orders.importCsv`, `orders.create`, `orders.fix`, `orders.submit`. */
export const useOrders = create<OrdersState>()((set, get) => ({
  query: { view: 'to_ship', sort: 'newest' },
  total: 0,
  rows: new Map(),
  generation: 0,
  loading: false,
  facets: { shops: [], countries: [], carriers: [] },
  settings: { allowUnpaid: true, pickupMethods: {} },
  submitting: false,
  selected: new Set(),
  lastShop: typeof localStorage !== 'undefined' ? (localStorage.getItem('orders.lastShop') ?? '') : '',
  report: null,
  importing: false,
  progress: null,
  creating: false,
  createErrors: {},
  fixing: null,
  fixErrors: {},
  confirmUnpaid: null,
  choices: null,

  async load() {
    const generation = get().generation + 1;
    set({ generation, loading: true });
    try {
      const page = await invoke('orders.page', { ...get().query, offset: 0, limit: PAGE_SIZE });
      if (get().generation !== generation) return;
      cursors.clear();
      keepCursor(generation, page.orders.length, page.next);
      const rows = new Map<number, StationOrder>();
      page.orders.forEach((o, i) => rows.set(i, o));
      set({ rows, total: page.total, loading: false });
    } catch (e) {
      set({ loading: false });
      useApp.getState().fail(t('orders.msg.loadFailed'), e);
    }
  },
  setQuery(patch) {
    set({ query: { ...get().query, ...patch } });
    void get().load();
  },
  async ensureRange(from, to) {
    const { generation, total } = get();
    for (let off = pageKey(from); off < Math.min(to, total); off += PAGE_SIZE) {
      if (get().rows.has(off) && get().rows.has(Math.min(off + PAGE_SIZE, total) - 1)) continue;
      const key = `${generation}:${off}`;
      if (inFlight.has(key)) continue;
      inFlight.add(key);
      try {
        const after = cursors.get(`${generation}:${off}`);
        const page = await invoke('orders.page', { ...get().query, offset: off, limit: PAGE_SIZE, ...(after !== undefined ? { after } : {}) });
        if (get().generation !== generation) return;
        keepCursor(generation, off + page.orders.length, page.next);
        const rows = new Map(get().rows);
        page.orders.forEach((o, i) => rows.set(off + i, o));
        set({ rows, total: page.total });
      } catch (e) {
        useApp.getState().fail(t('orders.msg.loadFailed'), e);
        return;
      } finally {
        inFlight.delete(key);
      }
    }
  },
  async loadFacets() {
    try {
      set({ facets: await invoke('orders.facets', {}) });
    } catch (e) {
      useApp.getState().fail(t('orders.msg.facetsFailed'), e);
    }
  },
  async loadSettings() {
    try {
      set({ settings: await invoke('orders.settings.get', {}) });
    } catch (e) {
      useApp.getState().fail(t('orders.msg.settingsFailed'), e);
    }
  },
  toggleSelected(id) {
    const selected = new Set(get().selected);
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    set({ selected });
  },
  clearSelected() {
    set({ selected: new Set() });
  },

  async importCsv(file, shop) {
    const app = useApp.getState();
    set({ importing: true, progress: null });
    try {
      const s = shop.trim();
      const shopInput = s !== '' ? { shop: s } : {};
      // The bytes, not file.text(): the core finds the encoding (UTF-8, UTF-16, Windows-1252).
      // In pieces: a 100 MB export is never one message nor one string (the core reads it as a stream).
      const { importId, chunkBytes } = await invoke('orders.importBegin', { fileName: file.name, size: file.size, ...shopInput });
      set({ progress: { importId, phase: 'sending', done: 0, total: file.size, rows: 0, orders: 0 } });
      for (let offset = 0; offset < file.size; offset += chunkBytes) {
        const piece = await file.slice(offset, Math.min(file.size, offset + chunkBytes)).arrayBuffer();
        const { received } = await invoke('orders.importChunk', { importId, offset, dataBase64: toBase64(piece) });
        set({ progress: { importId, phase: 'sending', done: received, total: file.size, rows: 0, orders: 0 } });
      }
      set({ progress: { importId, phase: 'reading', done: 0, total: file.size, rows: 0, orders: 0 } });
      const report = await invoke('orders.importFinish', { importId });
      if (s !== '') localStorage.setItem('orders.lastShop', s);
      set({ report: { ...report, fileName: file.name }, importing: false, progress: null, lastShop: s });
      const summary = t('orders.msg.importSummary', { imported: report.imported, updated: report.updated, unchanged: report.unchanged, left: report.skipped.length, cancelled: report.cancelled, toFix: report.warnings.length });
      if (report.errors.length) app.flash('warn', t('orders.msg.importedProblems', { file: file.name, shop: report.shop, count: report.errors.length }), summary);
      else app.flash('ok', t('orders.msg.imported', { file: file.name, shop: report.shop }), summary);
      await Promise.all([get().load(), get().loadFacets()]);
      // The next hand movement is a scan (focus map, renderer/README.md).
      app.refocus();
    } catch (e) {
      set({ importing: false, progress: null });
      app.fail(t('orders.msg.importFailed', { file: file.name }), e);
    }
  },
  importProgress(p) {
    const cur = get().progress;
    if (!cur || cur.importId !== p.importId || p.done) return;
    set({ progress: { importId: p.importId, phase: 'reading', done: p.bytesRead, total: p.bytesTotal, rows: p.rows, orders: p.orders } });
  },

  async create(input) {
    const app = useApp.getState();
    set({ creating: true, createErrors: {} });
    try {
      const order = await invoke('orders.create', input);
      set({ creating: false });
      app.flash('ok', t('orders.msg.created', { order: order.orderNumber }), `${order.recipient.name}, ${order.recipient.city}`);
      await get().load();
      return order;
    } catch (e) {
      const err = asStationError(e);
      set({ creating: false, createErrors: err.details ?? {} });
      app.fail(t('orders.msg.notCreated'), err);
      return null;
    }
  },

  openForShipping(o) {
    const app = useApp.getState();
    set({ choices: null });
    if (o.status === 'cancelled') {
      app.flash('error', t('orders.msg.cancelled', { order: o.orderNumber }), t('orders.msg.cancelledDetail'));
      return;
    }
    if (o.delivery === 'pickup') {
      app.flash('warn', t('orders.msg.inStore', { order: o.orderNumber }), t('orders.msg.inStoreDetail', { method: o.shippingMethod ?? '' }));
      return;
    }
    if (o.needsFix.length > 0) {
      set({ fixing: o, fixErrors: {} });
      return;
    }
    if (o.paymentStatus === 'unpaid') {
      if (!get().settings.allowUnpaid) {
        app.flash('error', t('orders.unpaidTitle', { order: o.orderNumber }), t('orders.msg.unpaidRefused'));
        return;
      }
      set({ confirmUnpaid: o });
      return;
    }
    startShipping(o);
  },
  confirmUnpaidYes() {
    const o = get().confirmUnpaid;
    set({ confirmUnpaid: null });
    if (o) startShipping(o);
  },
  closeDialogs() {
    set({ fixing: null, confirmUnpaid: null, choices: null, fixErrors: {} });
    useApp.getState().refocus();
  },
  async fix(patch) {
    const o = get().fixing;
    if (!o) return;
    try {
      const fixed = await invoke('orders.fix', { id: o.id, ...patch });
      set({ fixing: null, fixErrors: {} });
      useApp.getState().flash('ok', t('orders.msg.completed', { order: fixed.orderNumber }));
      void get().load();
      get().openForShipping(fixed);
    } catch (e) {
      const err = asStationError(e);
      set({ fixErrors: err.details ?? { postalCode: [err.message] } });
    }
  },
  showChoices(code, orders) {
    set({ choices: { code, orders } });
  },

  async submitSelected() {
    const app = useApp.getState();
    const ids = [...get().selected];
    // One press, one submission (issue 14): ignored while one is on its way (set before the first await).
    if (ids.length === 0 || get().submitting) return null;
    set({ submitting: true });
    try {
      const res = await invoke('orders.submit', { ids });
      set({ selected: new Set(), submitting: false });
      const refused = res.refused.length ? ` ${t('orders.msg.refused', { count: res.refused.length, messages: res.refused.slice(0, 3).map((r) => r.message).join('; ') })}` : '';
      app.flash(res.refused.length ? 'warn' : 'ok', t('orders.msg.queued', { count: res.queued }), `${t('orders.msg.batches', { count: res.outboxIds.length })}${refused}`);
      return res;
    } catch (e) {
      set({ submitting: false });
      app.fail(t('orders.msg.notSent'), e);
      return null;
    }
  },
}));
