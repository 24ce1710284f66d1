/**
 * A shipment as the platform recorded it, with its stored label, straight into a station's store: what the
 * print job runner's tests print (no platform call).
 */
import type { Store } from '../../electron/core/store';

/**
 * Records shipment `trackingNumber` (cost 6.90 EUR, platform id from its digits, reference `R-<tracking>`) and
 * stores `label` as its `format` label.
 */
export function storeShipmentWithLabel(store: Store, trackingNumber: string, format: 'ZPL' | 'PDF', label: Uint8Array | string, carrier = { contractCode: 'BRT-EXP', carrierCode: 'BRT' }): void {
  store.shipments.recordPlatform({
    trackingNumber,
    platformId: Number(trackingNumber.replace(/\D/g, '')),
    reference: `R-${trackingNumber}`,
    ...carrier,
    statusKey: 'shipped',
    costTotal: 6.9,
    currency: 'EUR',
    platform: null,
  });
  store.labels.save(trackingNumber, format, typeof label === 'string' ? Buffer.from(label, 'latin1') : Buffer.from(label));
}
