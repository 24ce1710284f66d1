/**
 * The bench: header (platform, connection, credit, printer, new held shipments), screen switcher,
 * outcome banner, current screen. Global keys: F1..F10 and Alt+S/Q/H/P/U/C/O/A/G/B
 * switch screens (F7 the Queue of requests to the platform, F8 settings, F9 held shipments, F10 account), Alt+R reprints the label in view, Alt+X cancels the
 * scanned shipment (with confirmation), Alt+T reads its tracking again,
 * Alt+Y skips scanning the items of the order being verified (with a reason), Esc stops verifying; Alt+K prints the packing slip of the order in view, Alt+N starts the next order, Alt+1..9 puts the parcel in box preset 1..9 on Quote/Ship, Alt+D searches delivery points on the Ship screen; on the
 * Print screen, typing (a scanner) starts the next scan at once.
 * Station events keep every screen current.
 */
import { useEffect } from 'react';
import { flushSync } from 'react-dom';
import { invoke, on } from './api';
import { AutoShipNotice } from './components/AutoShipNotice';
import { Banner } from './components/Banner';
import { Header } from './components/Header';
import { Nav } from './components/Nav';
import { screenForKey, useApp, type Screen } from './stores/app';
import { useBoxes } from './stores/boxes';
import { useDay } from './stores/day';
import { usePackers } from './stores/packers';
import { useJob } from './stores/job';
import { useOrders } from './stores/orders';
import { usePickup } from './stores/pickup';
import { usePrint } from './stores/print';
import { useQueue } from './stores/queue';
import { useScale } from './stores/scale';
import { useScan } from './stores/scan';
import { useSlips } from './stores/slips';
import { useVerify } from './stores/verify';
import { useTracking } from './stores/tracking';
import { EndOfDayScreen } from './screens/EndOfDayScreen';
import { PickupScreen } from './screens/PickupScreen';
import { QueueScreen } from './screens/QueueScreen';
import { PrintScreen } from './screens/PrintScreen';
import { QuoteScreen } from './screens/QuoteScreen';
import { ScanScreen } from './screens/ScanScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { ShipScreen } from './screens/ShipScreen';
import { boxLabel } from './screens/ParcelsEditor';
import { language, t } from './lib/i18n';
import { AccountScreen } from './screens/AccountScreen';
import { StocksScreen } from './screens/StocksScreen';
import { STOCK_POLL_MS, useStocks } from './stores/stocks';

const SCREEN_VIEWS: Record<Screen, () => React.JSX.Element> = {
  scan: ScanScreen,
  quote: QuoteScreen,
  ship: ShipScreen,
  print: PrintScreen,
  pickup: PickupScreen,
  day: EndOfDayScreen,
  queue: QueueScreen,
  stocks: StocksScreen,
  account: AccountScreen,
  settings: SettingsScreen,
};

/** A printable key on the Print screen outside any field: the packer (or the scanner) starts the next scan. */
function scannerTypingOnPrint(e: KeyboardEvent): boolean {
  if (useApp.getState().screen !== 'print' || e.altKey || e.ctrlKey || e.metaKey || e.key.length !== 1 || e.key === ' ') return false;
  const a = document.activeElement;
  return !(a instanceof HTMLElement && a.matches('input, textarea, select, [contenteditable="true"]'));
}

/**
 * Alt+N on Quote/Ship: box preset N for the parcel whose row has the focus
 * (else the first parcel); its dimensions fill the row (issue 11).
 */
function chooseBoxByKey(n: number): void {
  const preset = useBoxes.getState().settings.presets[n - 1];
  if (!preset) {
    useApp.getState().flash('warn', t('boxes.noPreset', { n }));
    return;
  }
  const row = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('[data-parcel]') : null;
  const index = row ? Number(row.dataset.parcel) : 0;
  useJob.getState().chooseBox(index, preset);
  useApp.getState().flash('info', t('boxes.chosen', { n: index + 1, box: boxLabel(preset) }));
}

function useGlobalKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('dialog[open]')) return; // a confirmation owns the keys
      const target = screenForKey(e);
      if (target) {
        e.preventDefault();
        useApp.getState().go(target);
        return;
      }
      if (scannerTypingOnPrint(e)) {
        // The next scan starts on the Print screen: switch to Scan before the character lands.
        flushSync(() => useApp.getState().go('scan', { keepBanner: true }));
        document.getElementById('scan-input')?.focus();
        return;
      }
      if (e.key === 'Escape' && useApp.getState().screen === 'scan' && useVerify.getState().active && !useVerify.getState().asking) {
        // Stop verifying this order's items (Ship stays refused until they are scanned or skipped).
        useVerify.getState().abandon();
        return;
      }
      if (e.key === 'Escape' && useApp.getState().screen === 'scan' && !e.defaultPrevented && letGoOfOrder()) {
        e.preventDefault();
        return;
      }
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const key = e.code.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
      const screen = useApp.getState().screen;
      if ((screen === 'quote' || screen === 'ship') && /^Digit[1-9]$/.test(e.code)) {
        e.preventDefault();
        chooseBoxByKey(Number(e.code.slice(5)));
        return;
      }
      if (key === 'y' && screen === 'scan' && useVerify.getState().active) {
        // Skip scanning the items, with a reason (logged).
        e.preventDefault();
        useVerify.getState().askSkip();
        return;
      }
      if (key === 'k') {
        // The packing slip of the order being shipped, or of the scanned shipment's order (issue 11).
        e.preventDefault();
        const scanned = useScan.getState().shipment;
        const orderId = useJob.getState().order?.id;
        if (screen === 'scan' && scanned) void useSlips.getState().print({ trackingNumber: scanned.trackingNumber });
        else if (orderId !== undefined) void useSlips.getState().print({ orderId });
        else useApp.getState().flash('warn', t('slips.noOrder'));
        return;
      }
      if (key === 'r') {
        e.preventDefault();
        const scanned = useScan.getState().shipment;
        const made = useJob.getState().result?.shipment;
        if (screen === 'scan' && scanned) void useScan.getState().reprint(scanned.trackingNumber);
        else if (made) void usePrint.getState().reprint(made.trackingNumber);
        else useApp.getState().flash('warn', t('app.noLabel'), t('app.noLabelDetail'));
      } else if (key === 'x' && screen === 'scan') {
        e.preventDefault();
        const scanned = useScan.getState().shipment;
        if (scanned && !scanned.cancelled) useScan.getState().askCancel(scanned.trackingNumber);
      } else if (key === 't' && screen === 'scan') {
        e.preventDefault();
        void useTracking.getState().refresh();
      } else if (key === 'd' && screen === 'ship') {
        // Search carrier delivery points near the recipient (DeliveryPointPicker).
        e.preventDefault();
        document.querySelector<HTMLButtonElement>('button[aria-keyshortcuts="Alt+D"]')?.click();
      } else if (key === 'n') {
        e.preventDefault();
        useApp.getState().go('scan');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function useStationEvents(): void {
  useEffect(() => {
    const offs = [
      on('app.changed', (info) => useApp.getState().setInfo(info)),
      on('scales.changed', (view) => useScale.getState().changed(view)),
      on('slips.changed', (job) => useSlips.getState().changed(job)),
      on('printJobs.changed', (job) => {
        useJob.getState().printJobChanged(job);
        usePrint.getState().jobChanged(job);
        useScan.getState().shipmentChanged(job.trackingNumber);
      }),
      on('shipments.changed', ({ trackingNumber }) => {
        useScan.getState().shipmentChanged(trackingNumber);
        if (useApp.getState().screen === 'day') void useDay.getState().load();
      }),
      on('orders.changed', () => {
        void useOrders.getState().load();
        void useJob.getState().checkOrderChanged();
      }),
      on('imports.changed', (p) => useOrders.getState().importProgress(p)),
      on('manifests.changed', () => {
        if (useApp.getState().screen === 'day') void useDay.getState().load();
      }),
      on('pickups.changed', () => {
        if (useApp.getState().screen === 'pickup') void usePickup.getState().load();
      }),
      on('outbox.changed', () => {
        if (useApp.getState().screen === 'queue') void useQueue.getState().load();
      }),
      on('stocks.changed', () => void useStocks.getState().poll()),
      on('packers.changed', (session) => usePackers.getState().setSession(session)),
      // Shared settings from the warehouse (issue 35): the stores the bench screens read load them again.
      on('settings.changed', ({ keys }) => {
        if (keys.includes('boxes.presets')) void useBoxes.getState().load();
        if (keys.some((k) => k.startsWith('orders.'))) void useOrders.getState().loadSettings();
      }),
    ];
    void usePackers.getState().load();
    // New held shipments: the platform calls no webhook on a bench PC, so the station asks.
    void useStocks.getState().poll();
    const stockTimer = setInterval(() => void useStocks.getState().poll(), STOCK_POLL_MS);
    void useApp.getState().refreshInfo();
    void useScale.getState().load();
    void useVerify.getState().loadSettings();
    // The core names what it draws (slips, default boxes, label notes) in the bench's language: tell it first.
    void invoke('app.language.set', { language: language() })
      .catch((e: unknown) => useApp.getState().fail(t('preferences.languageNotSent'), e))
      .then(() => useBoxes.getState().load())
      .then(() => useJob.getState().fillBlankBoxes());
    // Credit and printer status change outside the station too (top-ups, paper out): poll gently.
    const timer = setInterval(() => {
      void useApp.getState().refreshInfo();
      // An idle packer is signed out by the station: show it.
      void usePackers.getState().load();
    }, 60_000);
    return () => {
      clearInterval(timer);
      clearInterval(stockTimer);
      offs.forEach((off) => off());
    };
  }, []);
}

/**
 * Esc on the Scan screen: the order being packed and not shipped is let go, its warehouse claim ends
 * (issue 35: another bench may pack it) and the form is cleared. Returns whether there was one.
 */
function letGoOfOrder(): boolean {
  const job = useJob.getState();
  const order = job.order;
  if (!order || job.result) return false;
  job.startBlank();
  useApp.getState().flash('info', t('scanResult.letGo', { order: order.orderNumber }), t('scanResult.letGoDetail'));
  return true;
}

/** Root component of the bench. */
export function App() {
  const screen = useApp((s) => s.screen);
  useGlobalKeys();
  useStationEvents();
  const View = SCREEN_VIEWS[screen];
  return (
    <div className="app">
      <Header />
      <Nav />
      <Banner />
      <AutoShipNotice />
      <main className="main" id="main">
        <View />
      </main>
    </div>
  );
}
