/**
 * The bench: header (platform, connection, credit, printer), screen switcher,
 * outcome banner, current screen. Global keys: F1..F7 and Alt+S/Q/H/P/U/C/O
 * switch screens (F7 the Queue of requests to the platform), Alt+R reprints the label in view, Alt+X cancels the
 * scanned shipment (with confirmation), Alt+T reads its tracking again,
 * Alt+N starts the next order; on the
 * Print screen, typing (a scanner) starts the next scan at once.
 * Station events keep every screen current.
 */
import { useEffect } from 'react';
import { flushSync } from 'react-dom';
import { on } from './api';
import { Banner } from './components/Banner';
import { Header } from './components/Header';
import { Nav } from './components/Nav';
import { screenForKey, useApp, type Screen } from './stores/app';
import { useDay } from './stores/day';
import { useJob } from './stores/job';
import { useOrders } from './stores/orders';
import { usePickup } from './stores/pickup';
import { usePrint } from './stores/print';
import { useQueue } from './stores/queue';
import { useScale } from './stores/scale';
import { useScan } from './stores/scan';
import { useTracking } from './stores/tracking';
import { EndOfDayScreen } from './screens/EndOfDayScreen';
import { PickupScreen } from './screens/PickupScreen';
import { QueueScreen } from './screens/QueueScreen';
import { PrintScreen } from './screens/PrintScreen';
import { QuoteScreen } from './screens/QuoteScreen';
import { ScanScreen } from './screens/ScanScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { ShipScreen } from './screens/ShipScreen';

const SCREEN_VIEWS: Record<Screen, () => React.JSX.Element> = {
  scan: ScanScreen,
  quote: QuoteScreen,
  ship: ShipScreen,
  print: PrintScreen,
  pickup: PickupScreen,
  day: EndOfDayScreen,
  queue: QueueScreen,
  settings: SettingsScreen,
};

/** A printable key on the Print screen outside any field: the packer (or the scanner) starts the next scan. */
function scannerTypingOnPrint(e: KeyboardEvent): boolean {
  if (useApp.getState().screen !== 'print' || e.altKey || e.ctrlKey || e.metaKey || e.key.length !== 1 || e.key === ' ') return false;
  const a = document.activeElement;
  return !(a instanceof HTMLElement && a.matches('input, textarea, select, [contenteditable="true"]'));
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
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const key = e.code.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
      const screen = useApp.getState().screen;
      if (key === 'r') {
        e.preventDefault();
        const scanned = useScan.getState().shipment;
        const made = useJob.getState().result?.shipment;
        if (screen === 'scan' && scanned) void useScan.getState().reprint(scanned.trackingNumber);
        else if (made) void usePrint.getState().reprint(made.trackingNumber);
        else useApp.getState().flash('warn', 'No label to reprint here', 'Scan the tracking number first.');
      } else if (key === 'x' && screen === 'scan') {
        e.preventDefault();
        const scanned = useScan.getState().shipment;
        if (scanned && !scanned.cancelled) useScan.getState().askCancel(scanned.trackingNumber);
      } else if (key === 't' && screen === 'scan') {
        e.preventDefault();
        void useTracking.getState().refresh();
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
      on('scale.changed', (view) => useScale.getState().changed(view)),
      on('printJobs.changed', (job) => {
        useJob.getState().printJobChanged(job);
        usePrint.getState().jobChanged(job);
        useScan.getState().shipmentChanged(job.trackingNumber);
      }),
      on('shipments.changed', ({ trackingNumber }) => {
        useScan.getState().shipmentChanged(trackingNumber);
        if (useApp.getState().screen === 'day') void useDay.getState().load();
      }),
      on('orders.changed', () => void useOrders.getState().load()),
      on('manifests.changed', () => {
        if (useApp.getState().screen === 'day') void useDay.getState().load();
      }),
      on('pickups.changed', () => {
        if (useApp.getState().screen === 'pickup') void usePickup.getState().load();
      }),
      on('outbox.changed', () => {
        if (useApp.getState().screen === 'queue') void useQueue.getState().load();
      }),
    ];
    void useApp.getState().refreshInfo();
    void useScale.getState().load();
    // Credit and printer status change outside the station too (top-ups, paper out): poll gently.
    const timer = setInterval(() => void useApp.getState().refreshInfo(), 60_000);
    return () => {
      clearInterval(timer);
      offs.forEach((off) => off());
    };
  }, []);
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
      <main className="main" id="main">
        <View />
      </main>
    </div>
  );
}
