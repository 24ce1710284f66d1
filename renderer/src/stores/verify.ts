/**
 * Scan to verify (issue 14 item 5, optional per station): after an order is
 * scanned, the packer scans each item (its SKU, or a barcode the station
 * knows for it: `items.*`) on the Scan screen; progress shows "3 of 4 items";
 * a code that is not in the order, or one item too many, is a loud
 * `wrong_item` outcome. When every item is scanned the bench goes on to
 * Quote; Alt+Y skips with a reason (logged by `verify.skip`). Ship is refused
 * for an order that is neither verified nor skipped. With item weights known,
 * a stable scale weight is compared with the expected one (items + box tare).
 */
import { create } from 'zustand';
import type { ItemView, VerifySettings } from '../../../shared/contract';
import { linesToShip, type StationOrder } from '../../../shared/domain/order';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { decimalText } from '../lib/format';
import { useApp } from './app';

/** One order line being verified: `scanned` of `quantity`; `codes` match case-insensitively (SKU + alias barcodes). */
export interface VerifyLine {
  sku: string;
  name: string;
  quantity: number;
  scanned: number;
  codes: string[];
  unitWeightKg: number | null;
}

interface VerifyState {
  settings: VerifySettings | null;
  orderId: number | null;
  orderNumber: string;
  lines: VerifyLine[];
  /** Scans go to the items (the Scan screen shows the checklist). */
  active: boolean;
  skipped: boolean;
  /** The reason field of a skip is open (Alt+Y). */
  asking: boolean;
  loadSettings(): Promise<void>;
  /** Starts verifying `order` when the station verifies; true when it does (the caller stays on Scan). */
  begin(order: StationOrder): boolean;
  /** A scanned code while verifying: true when it was taken as an item (or refused as a wrong one). */
  takeScan(code: string): boolean;
  askSkip(): void;
  cancelSkip(): void;
  skip(reason: string): Promise<boolean>;
  /** Esc: stop verifying this order (Ship stays refused until it is verified or skipped). */
  abandon(): void;
  /** Why Ship must wait for `orderId` (null: it may ship). */
  shipBlock(orderId: number | undefined): string | null;
  /** A stable weight (kg) of a parcel in a box of `tareKg`: warns when it is off the expected weight. */
  checkWeight(kg: number, tareKg: number | null): void;
}

/** Items scanned and expected, as "3 of 4". */
export function progressOf(lines: readonly VerifyLine[]): { scanned: number; total: number } {
  return { scanned: lines.reduce((n, l) => n + l.scanned, 0), total: lines.reduce((n, l) => n + l.quantity, 0) };
}

/**
 * Tells the core about a refused scan (End of day counts them per packer). The packer already
 * sees the outcome; a record that cannot be sent is logged, never shown over it.
 */
function recordMismatch(orderId: number | null, code: string, kind: 'wrong_item' | 'too_many'): void {
  if (orderId === null) return;
  invoke('verify.mismatch', { orderId, code: code.trim().slice(0, 100), kind }).catch((e: unknown) => console.warn(`verify mismatch not recorded: ${String(e)}`));
}

/** True when a scanned code is the order number (with or without its `#`, any case). */
export function sameOrderNumber(code: string, orderNumber: string): boolean {
  const bare = (x: string) => x.trim().replace(/^#/, '').toLowerCase();
  return bare(code) !== '' && bare(code) === bare(orderNumber);
}

/** The line a code names (SKU or alias barcode, any case), preferring one not yet complete. */
export function lineFor(lines: readonly VerifyLine[], code: string): number {
  const c = code.trim().toLowerCase();
  const matches = lines.map((l, i) => (l.codes.includes(c) ? i : -1)).filter((i) => i >= 0);
  return matches.find((i) => lines[i]!.scanned < lines[i]!.quantity) ?? matches[0] ?? -1;
}

/**
 * The weight the parcel should have: items (quantity × unit weight) plus the
 * box's tare, kg; null when an item's weight is unknown.
 */
export function expectedWeightKg(lines: readonly VerifyLine[], tareKg: number | null): number | null {
  let kg = tareKg ?? 0;
  for (const l of lines) {
    if (l.unitWeightKg === null) return null;
    kg += l.quantity * l.unitWeightKg;
  }
  return Math.round(kg * 1000) / 1000;
}

/** Scan-to-verify store (see file comment). */
export const useVerify = create<VerifyState>()((set, get) => ({
  settings: null,
  orderId: null,
  orderNumber: '',
  lines: [],
  active: false,
  skipped: false,
  asking: false,

  async loadSettings() {
    try {
      set({ settings: await invoke('verify.settings.get', {}) });
    } catch (e) {
      useApp.getState().fail(t('verify.notLoaded'), e);
    }
  },

  begin(order) {
    const items = linesToShip(order);
    const enabled = get().settings?.enabled === true;
    // The same order scanned again (after Esc, or from the list) resumes: what was scanned or skipped stays.
    const before = get().orderId === order.id ? get() : null;
    set({ orderId: order.id, orderNumber: order.orderNumber, skipped: before?.skipped ?? false, asking: false, active: false, lines: [] });
    if (!enabled || items.length === 0) return false;
    // Lines of the same SKU are one line to scan.
    const lines: VerifyLine[] = [];
    for (const it of items) {
      const same = it.sku ? lines.find((l) => l.sku === it.sku) : undefined;
      if (same) same.quantity += it.quantity;
      else lines.push({ sku: it.sku ?? '', name: it.name, quantity: it.quantity, scanned: 0, codes: it.sku ? [it.sku.toLowerCase()] : [], unitWeightKg: null });
    }
    if (before) {
      for (const l of lines) {
        const old = before.lines.find((o) => o.sku === l.sku && o.name === l.name);
        if (old) Object.assign(l, { scanned: Math.min(old.scanned, l.quantity), codes: old.codes, unitWeightKg: old.unitWeightKg });
      }
      const p = progressOf(lines);
      if (before.skipped || p.scanned === p.total) {
        set({ lines });
        return false;
      }
      if (p.scanned > 0) {
        set({ lines, active: true });
        useApp.getState().flash('info', t('verify.resumed', { order: order.orderNumber, scanned: p.scanned, count: p.total }), t('verify.startHint'));
        return true;
      }
    }
    set({ lines, active: true });
    const skus = lines.map((l) => l.sku).filter((s) => s !== '');
    if (skus.length) {
      invoke('items.get', { skus })
        .then((known: ItemView[]) => {
          if (get().orderId !== order.id) return;
          set((s) => ({
            lines: s.lines.map((l) => {
              const item = known.find((k) => k.sku === l.sku);
              return item ? { ...l, codes: [...new Set([...l.codes, ...item.barcodes.map((b) => b.toLowerCase())])], unitWeightKg: item.unitWeightKg } : l;
            }),
          }));
        })
        .catch((e: unknown) => useApp.getState().fail(t('verify.itemsNotLoaded'), e));
    }
    const p = progressOf(lines);
    useApp.getState().flash('info', t('verify.start', { order: order.orderNumber, count: p.total }), t('verify.startHint'));
    return true;
  },

  takeScan(code) {
    const s = get();
    if (!s.active) return false;
    const app = useApp.getState();
    app.clearOutcome();
    const i = lineFor(s.lines, code);
    if (i < 0 && sameOrderNumber(code, s.orderNumber)) {
      // The order's own barcode again: not an item, nothing changes.
      const p = progressOf(s.lines);
      app.flash('info', t('verify.resumed', { order: s.orderNumber, scanned: p.scanned, count: p.total }), t('verify.startHint'));
      return true;
    }
    if (i < 0) {
      app.outcome('wrong_item', t('verify.wrong', { code: code.trim(), order: s.orderNumber }), t('verify.wrongHint'));
      recordMismatch(s.orderId, code, 'wrong_item');
      return true;
    }
    const line = s.lines[i]!;
    if (line.scanned >= line.quantity) {
      app.outcome('wrong_item', t('verify.tooMany', { name: line.name, count: line.quantity }), t('verify.tooManyHint'));
      recordMismatch(s.orderId, code, 'too_many');
      return true;
    }
    const lines = s.lines.map((l, n) => (n === i ? { ...l, scanned: l.scanned + 1 } : l));
    set({ lines });
    const p = progressOf(lines);
    if (p.scanned === p.total) {
      // The banner first: a rule that ships the order by itself (stores/autoship.ts, told by `active` ending) changes its hint.
      app.flash('ok', t('verify.done', { count: p.total }), t('verify.doneHint'));
      set({ active: false });
      app.go('quote', { keepBanner: true });
    } else app.flash('ok', t('verify.progress', { scanned: p.scanned, count: p.total }), line.name);
    return true;
  },

  askSkip() {
    if (get().active) set({ asking: true });
  },
  cancelSkip() {
    set({ asking: false });
    useApp.getState().refocus();
  },
  async skip(reason) {
    const s = get();
    if (s.orderId === null) return false;
    const missing = s.lines.filter((l) => l.scanned < l.quantity).map((l) => ({ sku: l.sku, name: l.name, missing: l.quantity - l.scanned }));
    try {
      await invoke('verify.skip', { orderId: s.orderId, reason, missing });
      set({ active: false, asking: false, skipped: true });
      useApp.getState().flash('warn', t('verify.skipped', { order: s.orderNumber }), reason);
      useApp.getState().go('quote', { keepBanner: true });
      return true;
    } catch (e) {
      useApp.getState().fail(t('verify.notSkipped'), e);
      return false;
    }
  },
  abandon() {
    if (!get().active) return;
    set({ active: false, asking: false });
    useApp.getState().flash('warn', t('verify.abandoned', { order: get().orderNumber }), t('verify.abandonedHint'));
  },

  shipBlock(orderId) {
    const s = get();
    if (orderId === undefined || s.orderId !== orderId || s.skipped || s.lines.length === 0) return null;
    const p = progressOf(s.lines);
    return p.scanned >= p.total ? null : t('verify.blocked', { scanned: p.scanned, count: p.total });
  },

  checkWeight(kg, tareKg) {
    const s = get();
    const expected = expectedWeightKg(s.lines, tareKg);
    if (expected === null || s.settings === null || s.lines.length === 0) return;
    const allowed = Math.max((s.settings.tolerancePct / 100) * expected, s.settings.toleranceKg);
    if (Math.abs(kg - expected) > allowed) {
      useApp.getState().outcome('attention', t('verify.weightOff', { kg: decimalText(kg, 3, 3), expected: decimalText(expected, 3, 3) }), t('verify.weightOffHint', { allowed: decimalText(allowed, 3, 3) }));
    }
  },
}));
