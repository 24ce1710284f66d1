/**
 * Scan screen: resolves a scanned code (`scan.resolve`) into an order to ship
 * (or, when several shops share the number, a choice between them) or a
 * shipment to look at (reprint, cancel). Unknown codes fail loudly.
 */
import { create } from 'zustand';
import type { ScanResult, ShipmentView } from '../../../shared/contract';
import type { StationOrder } from '../../../shared/domain/order';
import { invoke } from '../api';
import { asStationError } from '../lib/errors';
import { clockTime, money } from '../lib/format';
import { t } from '../lib/i18n';
import { useApp } from './app';
import { useOrders } from './orders';
import { useVerify } from './verify';
import { jobNoteText } from '../lib/coreText';

interface ScanState {
  busy: boolean;
  /** The shipment shown under the scan field (scanned tracking number). */
  shipment: ShipmentView | null;
  /** Tracking number waiting for the cancel confirmation. */
  confirmCancel: string | null;
  scan(code: string): Promise<void>;
  /** Opens an order chosen from the list or among several shops (`scan.open`): claimed for this bench like a scanned one. */
  openOrder(order: StationOrder): Promise<void>;
  showShipment(trackingNumber: string): Promise<void>;
  reprint(trackingNumber: string): Promise<void>;
  askCancel(trackingNumber: string): void;
  dismissCancel(): void;
  cancel(trackingNumber: string): Promise<void>;
  shipmentChanged(trackingNumber: string): void;
}

/** Scan store: `scan.resolve`, the scanned shipment (`shipments.get`), reprint and cancel with confirmation. */
export const useScan = create<ScanState>()((set, get) => {
  /** An order a scan or the list opened: said when another bench packs it, shown when shipped, else opened for shipping. */
  const openResolved = async (res: Extract<ScanResult, { kind: 'order' }>): Promise<void> => {
    const app = useApp.getState();
    const o = res.order;
    // Another bench of the warehouse is packing it (issue 35): said, and not opened for shipping here.
    if (res.claimedBy) {
      const c = res.claimedBy;
      const values = { order: o.orderNumber, bench: c.bench, packer: c.packer ?? '', time: c.since ? clockTime(c.since) : '' };
      app.flash('warn', t(c.packer ? 'scanResult.claimedBy' : 'scanResult.claimed', values), t('scanResult.claimedDetail'));
      return;
    }
    if (res.shippedElsewhere) {
      // Shipped at another bench or from the platform's web panel (issue 42, 44): said where and when; never a second label.
      const s = res.shippedElsewhere;
      const values = { order: o.orderNumber, bench: s.bench ?? '', time: clockTime(s.at), trackingNumber: s.trackingNumber };
      app.flash('warn', t(s.bench === null ? 'scanResult.shippedFromPlatform' : 'scanResult.shippedAtBench', values), t('scanResult.alreadyShippedDetail', { trackingNumber: s.trackingNumber }));
      await get().showShipment(s.trackingNumber);
      return;
    }
    if (o.status === 'shipped' && o.shipmentTrackingNumber) {
      app.flash('warn', t('scanResult.alreadyShipped', { order: o.orderNumber }), t('scanResult.alreadyShippedDetail', { trackingNumber: o.shipmentTrackingNumber }));
      await get().showShipment(o.shipmentTrackingNumber);
      return;
    }
    set({ shipment: null });
    // Cancelled, store pickup, needs a fix, unpaid: the orders store decides (and asks).
    useOrders.getState().openForShipping(o);
  };
  return {
  busy: false,
  shipment: null,
  confirmCancel: null,

  async openOrder(order) {
    const app = useApp.getState();
    useOrders.getState().closeDialogs();
    try {
      const res = await invoke('scan.open', { orderId: order.id });
      if (res.kind === 'order') await openResolved(res);
    } catch (e) {
      app.fail(t('scanResult.failed', { code: order.orderNumber }), e);
    } finally {
      app.refocus();
    }
  },

  async scan(raw) {
    const code = raw.trim();
    const app = useApp.getState();
    if (code === '') return;
    // Verifying an order's items: the scan is an item (or a wrong one), not a new order.
    if (useVerify.getState().takeScan(code)) return app.refocus();
    // The last outcome's colour holds until this, the next scan.
    app.clearOutcome();
    set({ busy: true });
    try {
      const res = await invoke('scan.resolve', { code });
      set({ busy: false });
      if (res.kind === 'order') {
        await openResolved(res);
      } else if (res.kind === 'orders') {
        set({ shipment: null });
        app.flash('warn', t('scanResult.severalShops', { count: res.orders.length, code: res.code }), t('scanResult.severalShopsDetail'));
        useOrders.getState().showChoices(res.code, res.orders);
      } else if (res.kind === 'packer') {
        // A packer's badge: that packer is signed in at once (the header follows packers.changed).
        set({ shipment: null });
        app.flash('ok', t('packers.signedIn', { name: res.packer.name }), t('packers.signedInDetail'));
      } else if (res.kind === 'shipment') {
        set({ shipment: res.shipment });
        // No status in the banner: the card below shows it and follows tracking as it loads.
        app.flash('ok', t('scanResult.shipment', { trackingNumber: res.shipment.trackingNumber }), `${res.shipment.carrier.name} — ${res.shipment.carrier.contractName}`);
      } else {
        set({ shipment: null });
        app.flash('error', t('scanResult.unknown', { code: res.code }), t('scanResult.unknownDetail'));
      }
    } catch (e) {
      set({ busy: false });
      app.fail(t('scanResult.failed', { code }), e);
    } finally {
      app.refocus();
    }
  },

  async showShipment(trackingNumber) {
    try {
      set({ shipment: await invoke('shipments.get', { trackingNumber }) });
    } catch (e) {
      useApp.getState().fail(t('scanResult.openFailed', { trackingNumber: trackingNumber }), e);
    }
  },

  async reprint(trackingNumber) {
    const app = useApp.getState();
    try {
      const job = await invoke('labels.reprint', { trackingNumber });
      if (job.state === 'failed') app.flash('error', t('print.reprintFailed', { trackingNumber: trackingNumber }), jobNoteText(job) ?? t('print.printerError'));
      else if (job.state === 'held') app.flash('warn', t('print.job.held'), jobNoteText(job) ?? '');
      else app.flash('ok', t('scanResult.labelSent', { trackingNumber: trackingNumber }), job.printerUri);
      await get().showShipment(trackingNumber);
    } catch (e) {
      app.fail(t('print.reprintFailed', { trackingNumber: trackingNumber }), e);
    } finally {
      app.refocus();
    }
  },

  askCancel(trackingNumber) {
    set({ confirmCancel: trackingNumber });
  },
  dismissCancel() {
    set({ confirmCancel: null });
    useApp.getState().refocus();
  },

  async cancel(trackingNumber) {
    const app = useApp.getState();
    set({ confirmCancel: null });
    try {
      const res = await invoke('shipments.cancel', { trackingNumber });
      if (res.cancelled) app.flash('ok', t('scanResult.cancelled', { trackingNumber: trackingNumber }), t('scanResult.cancelledDetail', { amount: money(res.refunded) }));
      else app.flash('error', t('scanResult.notCancelled', { trackingNumber: trackingNumber }));
      await get().showShipment(trackingNumber);
      void app.refreshInfo(); // refund changed the credit
    } catch (e) {
      const err = asStationError(e);
      app.fail(t(err.code === 'invalid_state' ? 'scanResult.tooLate' : 'scanResult.cancelFailed', { trackingNumber: trackingNumber }), err);
    } finally {
      app.refocus();
    }
  },

  shipmentChanged(trackingNumber) {
    if (get().shipment?.trackingNumber === trackingNumber) void get().showShipment(trackingNumber);
  },
};
});
