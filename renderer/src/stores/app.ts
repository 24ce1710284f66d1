/**
 * App-wide state: header data (AppInfo), the link to the station, the screen
 * shown, and the outcome banner (big colour band + sound) every action reports to.
 */
import { create } from 'zustand';
import type { AppInfo } from '../../../shared/contract';
import { invoke } from '../api';
import { asStationError, errorDetail } from '../lib/errors';
import { beepOk, beepWarn, buzzError, playOutcome, type BenchOutcome } from '../lib/sound';
import type { LinkState } from '../transport/http';

/** The bench screens, in the packer's order; the Queue (outbox) last. */
export type Screen = 'scan' | 'quote' | 'ship' | 'print' | 'pickup' | 'day' | 'queue' | 'stocks' | 'account' | 'settings';

/** Screens with their key (F1..F10, Alt+letter); the button's title is the text `nav.<id>`. */
export const SCREENS: ReadonlyArray<{ id: Screen; fkey: string; alt: string }> = [
  { id: 'scan', fkey: 'F1', alt: 's' },
  { id: 'quote', fkey: 'F2', alt: 'q' },
  { id: 'ship', fkey: 'F3', alt: 'h' },
  { id: 'print', fkey: 'F4', alt: 'p' },
  { id: 'pickup', fkey: 'F5', alt: 'u' },
  { id: 'day', fkey: 'F6', alt: 'c' },
  { id: 'queue', fkey: 'F7', alt: 'o' },
  { id: 'settings', fkey: 'F8', alt: 'a' },
  { id: 'stocks', fkey: 'F9', alt: 'g' },
  { id: 'account', fkey: 'F10', alt: 'b' },
];

/**
 * The screen a global key switches to (F1..F10 without modifiers, or Alt+letter), else null.
 * `key`/`code` as in KeyboardEvent.
 * Ctrl/Meta combinations are never ours (browser and OS shortcuts).
 */
export function screenForKey(e: { key: string; code?: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }): Screen | null {
  if (e.ctrlKey || e.metaKey || e.shiftKey) return null;
  if (!e.altKey) return SCREENS.find((x) => x.fkey === e.key)?.id ?? null;
  // `code` too: with Alt some layouts turn the key into another character (Option+S = ß on a Mac).
  return SCREENS.find((x) => x.alt === e.key.toLowerCase() || e.code === `Key${x.alt.toUpperCase()}`)?.id ?? null;
}

/** Outcome banner: `ok` green + beep, `error` red + buzz, `warn` amber + double beep, `info` blue, silent. */
interface Banner {
  kind: 'ok' | 'error' | 'warn' | 'info';
  title: string;
  detail?: string;
  /** Increments per banner so the same message twice still re-announces. */
  seq: number;
  /** A bench outcome (its own colour and sound); it stays through screen changes until the next scan. */
  outcome?: BenchOutcome;
  /** A label waiting for the account's budget (issue 43 item 2): the banner counts down to its turn. */
  countdown?: LabelCountdown;
}

/**
 * When a label's turn comes (ms since the epoch, this PC's clock: now plus the wait the core said), the
 * account's labels a minute, and how many calls wait before it (null when the bench keeps its own window).
 */
export interface LabelCountdown {
  until: number;
  perMinute: number;
  ahead: number | null;
}

/** Banner colour of each bench outcome. */
const OUTCOME_KIND: Record<BenchOutcome, Banner['kind']> = { shipped: 'ok', queued: 'info', attention: 'warn', wrong_item: 'error', printer: 'warn' };

interface AppState {
  info: AppInfo | null;
  link: LinkState;
  screen: Screen;
  banner: Banner | null;
  /** Bumped to ask the current screen to put focus on its main field. */
  focusTick: number;
  /**
   * Shows `screen`. The packer switching screens (keys, nav) clears the banner;
   * the flow moving on (scan -> quote -> ship -> print) passes `keepBanner`
   * so the outcome that caused the move stays visible.
   */
  go(screen: Screen, opts?: { keepBanner?: boolean }): void;
  flash(kind: Banner['kind'], title: string, detail?: string): void;
  /**
   * Shows a bench outcome (shipped, queued, needs attention, wrong item, printer problem): a
   * full-width colour of its own and its own sound; it holds until the next scan (`clearOutcome`).
   */
  outcome(outcome: BenchOutcome, title: string, detail?: string, countdown?: LabelCountdown): void;
  /** A new scan starts: the last outcome's banner goes. */
  clearOutcome(): void;
  /** Reports a failed command: red banner with the station's message and code. */
  fail(what: string, e: unknown): void;
  setInfo(info: AppInfo): void;
  setLink(link: LinkState): void;
  refreshInfo(): Promise<void>;
  refocus(): void;
}

let seq = 0;

/** App store: header info (`app.info`, `app.changed`), link state, current screen, outcome banner. */
export const useApp = create<AppState>()((set, get) => ({
  info: null,
  link: 'connecting',
  screen: 'scan',
  banner: null,
  focusTick: 0,
  go(screen, opts) {
    set((s) => ({ screen, focusTick: s.focusTick + 1, ...(opts?.keepBanner || s.screen === screen || s.banner?.outcome ? {} : { banner: null }) }));
  },
  outcome(outcome, title, detail, countdown) {
    seq += 1;
    const kind = OUTCOME_KIND[outcome];
    set({ banner: { kind, title, seq, outcome, ...(detail === undefined ? {} : { detail }), ...(countdown ? { countdown } : {}) } });
    playOutcome(outcome);
  },
  clearOutcome() {
    if (get().banner?.outcome) set({ banner: null });
  },
  flash(kind, title, detail) {
    seq += 1;
    set({ banner: detail === undefined ? { kind, title, seq } : { kind, title, detail, seq } });
    if (kind === 'ok') beepOk();
    else if (kind === 'error') buzzError();
    else if (kind === 'warn') beepWarn();
  },
  fail(what, e) {
    const err = asStationError(e);
    get().flash('error', what, errorDetail(err));
  },
  setInfo(info) {
    set({ info });
  },
  setLink(link) {
    const was = get().link;
    set({ link });
    // Back after a drop: events were missed, so read the header afresh.
    if (link === 'up' && was === 'down') void get().refreshInfo();
  },
  async refreshInfo() {
    try {
      set({ info: await invoke('app.info', {}) });
    } catch {
      // The header keeps the last known info; the link state shows the problem.
    }
  },
  refocus() {
    set((s) => ({ focusTick: s.focusTick + 1 }));
  },
}));
