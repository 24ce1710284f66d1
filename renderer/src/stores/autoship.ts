/**
 * Ships by itself (issue 24 item 4): when the core's `shipping.autoShip` says
 * a rule with "ship by itself" covers the open order and its weight is known
 * (product data, a stable scale reading, or a typed weight and Enter), the
 * bench counts down (`AutoShipView.countdownMs`, the setting of
 * `shipping.settings.get`), Esc stops it, then the order ships through
 * `shipping.shipOrder` ({@link useJob}'s `shipPlanned`) and prints, ending on
 * the Print screen like Ctrl+Enter. Never for an order that needs attention
 * (the core's reasons are kept to show), never twice: the guards of Ctrl+Enter
 * (a shipment in flight, a result shown, items still to verify) are checked
 * when the countdown starts and again when it ends, and the core guards once more.
 *
 * With scan to verify on (issue 37 item 4), the scan of an order's last item
 * asks the same question (the weight the parcel has: the scale's stable one
 * or a typed one, kg; else the products'), so a verified order ships with 0
 * key actions after its scans, as ShipHero's packing app prints on the last
 * scan. A wrong item, one too many, an order still missing items, Esc (which
 * stops verifying) and a skip (Alt+Y) never start it.
 */
import { create } from 'zustand';
import type { PlanAttention } from '../../../shared/contract/plan';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { typedWeightKg } from '../lib/shipFormParcels';
import { useApp } from './app';
import { useJob } from './job';
import { progressOf, useVerify } from './verify';

/** A countdown running: the order, the weight it ships with (kg; undefined: product data), the rule, its length (ms). */
interface Countdown {
  orderId: number;
  weightKg: number | undefined;
  rule: { index: number; name: string };
  ms: number;
}

/** Which box the core chose for an order and why (`AutoShipView.box`): shown with the countdown, and on the Print screen once the order shipped by itself. */
interface BoxLine {
  orderId: number;
  orderNumber: string;
  reason: PlanAttention;
  parcels: number;
}

interface AutoShipState {
  countdown: Countdown | null;
  /** The box of the order counting down or shipped by itself (null when the core names none). */
  box: BoxLine | null;
  /** Why the open order does not ship by itself although a rule would ship it (the core's reasons), for that order. */
  blocked: { orderId: number; reasons: PlanAttention[] } | null;
  /**
   * Asks the core whether the open order ships by itself with `weightKg` (kg, typed or a stable reading;
   * undefined: the products' weight) and starts the countdown when it does. Resolves true when a countdown runs.
   */
  consider(weightKg?: number): Promise<boolean>;
  /** Esc: stops the countdown; nothing is shipped, and that order does not ship by itself again until another opens. True when one was running. */
  stop(): boolean;
}

let timer: ReturnType<typeof setTimeout> | null = null;
/** The order whose countdown the packer stopped: it does not ship by itself again until another order opens. */
let stoppedOrderId: number | null = null;
/** Bumped by every consider/stop, so an answer to an older question never starts a countdown. */
let generation = 0;

const clearTimer = () => {
  if (timer !== null) clearTimeout(timer);
  timer = null;
};

/**
 * The Ctrl+Enter guards: an order open, no shipment in flight, none shown, its items verified; and no rate
 * chosen by the packer (who then ships it by hand with that rate).
 */
function mayShip(orderId: number): boolean {
  const job = useJob.getState();
  return job.order?.id === orderId && !job.shipping && job.result === null && job.chosen === null && useVerify.getState().shipBlock(orderId) === null;
}

/** The countdown and the reasons an order does not ship by itself (see file comment). */
export const useAutoShip = create<AutoShipState>()((set, get) => ({
  countdown: null,
  box: null,
  blocked: null,

  async consider(weightKg) {
    const orderId = useJob.getState().order?.id;
    if (orderId === undefined || orderId === stoppedOrderId || !mayShip(orderId)) return false;
    const running = get().countdown;
    // The same question again (a repeated reading): the running countdown goes on.
    if (running && running.orderId === orderId && running.weightKg === weightKg) return true;
    const asked = ++generation;
    clearTimer();
    set({ countdown: null });
    let answer;
    try {
      answer = await invoke('shipping.autoShip', { orderId, ...(weightKg !== undefined ? { weightKg } : {}) });
    } catch {
      // Shipping by itself is a help: when the core cannot say, the packer ships as usual.
      return false;
    }
    if (asked !== generation || !mayShip(orderId)) return false;
    if (!answer.ships || !answer.rule) {
      // Reasons are shown only when a rule would ship it by itself: "no rule" or "not by itself" is the usual bench.
      const relevant = answer.rule !== null && !answer.reasons.some((r) => r.key === 'notByItself' || r.key === 'noRule');
      set({ blocked: relevant ? { orderId, reasons: answer.reasons } : null });
      return false;
    }
    const countdown: Countdown = { orderId, weightKg, rule: answer.rule, ms: answer.countdownMs };
    const orderNumber = useJob.getState().order?.orderNumber ?? '';
    set({ countdown, blocked: null, box: answer.box.reason ? { orderId, orderNumber, reason: answer.box.reason, parcels: answer.box.parcels } : null });
    timer = setTimeout(() => {
      timer = null;
      if (get().countdown !== countdown) return;
      set({ countdown: null });
      if (!mayShip(orderId)) return;
      void useJob.getState().shipPlanned(weightKg);
    }, answer.countdownMs);
    return true;
  },

  stop() {
    generation++;
    const running = get().countdown;
    if (running) stoppedOrderId = running.orderId;
    clearTimer();
    set({ countdown: null });
    if (running !== null) useApp.getState().flash('info', t('autoShip.stopped'), t('autoShip.stoppedDetail'));
    return running !== null;
  },
}));

// Another order opened, a rate chosen by the packer, or the order shipped by hand: a countdown for it no longer applies.
useJob.subscribe((s) => {
  if (stoppedOrderId !== null && s.order?.id !== stoppedOrderId) stoppedOrderId = null;
  const { countdown, blocked } = useAutoShip.getState();
  if (countdown && (s.order?.id !== countdown.orderId || s.result !== null || s.shipping || s.chosen !== null)) {
    generation++;
    clearTimer();
    useAutoShip.setState({ countdown: null });
  }
  if (blocked && s.order?.id !== blocked.orderId) useAutoShip.setState({ blocked: null });
});

// The last item of the open order scanned (verifying goes from active to done, every item counted, the same order):
// a rule may ship it by itself now. A skip, Esc or another order also end verifying, but not with every item scanned.
useVerify.subscribe((s, prev) => {
  if (!prev.active || s.active || s.skipped || s.orderId === null || s.orderId !== prev.orderId) return;
  const p = progressOf(s.lines);
  if (p.total === 0 || p.scanned < p.total) return;
  const banner = useApp.getState().banner;
  void useAutoShip
    .getState()
    .consider(typedWeightKg(useJob.getState().draft.parcels))
    .then((started) => {
      // "All 3 items scanned": no longer "weigh and press Enter" while it counts down (same banner, no second sound).
      if (started && banner !== null && useApp.getState().banner === banner) useApp.setState({ banner: { ...banner, detail: t('verify.doneShips') } });
    });
});
