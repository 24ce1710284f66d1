/** One order made by hand and shipped through the station's commands, as the big-folder bench and the soak do. */
import type { StartedStation } from '../../electron/shell/start';
import { recipientToParty } from '../../shared/domain/order';

const RECIPIENT = { name: 'Giulia Bianchi', street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' };
const PARCEL = { weight: { value: 1.4, units: 'KG' as const }, dimensions: { length: 30, width: 20, height: 12, units: 'CM' as const } };

/** Creates order `orderNumber` (one line, Milano) by hand and ships it (1.4 kg, 30×20×12 cm); returns its tracking number. */
export async function shipOne(station: Pick<StartedStation, 'handlers'>, orderNumber: string): Promise<string> {
  const order = await station.handlers['orders.create']({ orderNumber, recipient: RECIPIENT, items: [{ sku: 'TAZ-CER-BLU', name: 'Tazza', quantity: 1, unitPrice: 12.5 }], currency: 'EUR' });
  const r = await station.handlers['shipping.shipOrder']({
    orderId: order.id,
    request: { recipient: recipientToParty(order.recipient), packages: [PARCEL], reference: order.orderNumber },
  });
  return r.shipment.trackingNumber;
}
