/** Commands of shipping: carriers, warehouses, shipments, delivery points, customs (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { Carrier, CancelShipmentResponse, Warehouse } from '../../platform/resources';
import type { DeliveryPointsResponse } from '../../platform/lookups';
import { CustomsSettings, type CustomsProductView, type HsSuggestion } from '../customs';
import type { ShipmentView, TrackingView } from '../views';
import { command, Empty, TrackingNumberInput } from './define';

/** Commands of shipping: carriers, warehouses, shipments, delivery points, customs (quoting and shipping: ./shipping-plan.ts). */
export const shippingCommands = {
  /** The client's carriers and contracts (GET /carriers). */
  'carriers.list': command<Carrier[]>()(Empty),
  /** Warehouses of the account. */
  'warehouses.list': command<Warehouse[]>()(Empty),
  /** One shipment with its print jobs (local first, refreshed from GET /shipments/{ldv}). */
  'shipments.get': command<ShipmentView>()(TrackingNumberInput),
  /**
   * The shipment's tracking (GET /shipments/{ldv}/tracking): status, carrier events newest
   * first, estimated delivery; also records the new status locally. When the platform cannot
   * be asked, the last known status with `source: 'local'` and the reason.
   */
  'shipments.tracking': command<TrackingView>()(TrackingNumberInput),
  /** Cancel and refund (DELETE /shipments/{ldv}); 409 invalid_state once manifested or in transit. */
  'shipments.cancel': command<CancelShipmentResponse>()(TrackingNumberInput),
  /** Shipments of this station not yet in a manifest and not cancelled (End of day). */
  'shipments.unmanifested': command<ShipmentView[]>()(Empty),
  /** Recent shipments of this station, newest first. */
  'shipments.recent': command<ShipmentView[]>()(
    z.object({ limit: z.number().int().min(1).max(500).default(50) }),
  ),
  /** Carrier delivery points near the recipient (GET /delivery-points): city and postal code required. */
  'deliveryPoints.search': command<DeliveryPointsResponse['data']>()(
    z.object({
      city: z.string().trim().min(1, { error: 'City is required to search pickup points' }),
      postalCode: z.string().trim().min(1, { error: 'Postal code is required to search pickup points' }),
      address: z.string().trim().optional(),
    }),
  ),

  /** Customs codes for the HS code field: the station's own products' codes for similar items, then GET /taric's; `q` a code prefix or words, at least 3 characters. */
  'customs.hsCodes.search': command<HsSuggestion[]>()(
    z.object({ q: z.string().trim().min(3, { error: 'Type at least 3 characters to search customs codes' }).max(100), limit: z.number().int().min(1).max(100).optional() }),
  ),
  /** Customs data remembered for these SKUs (HS code, country of origin, unit weight); unknown SKUs are absent. */
  'customs.products': command<CustomsProductView[]>()(z.object({ skus: z.array(z.string().trim().min(1)).max(200) })),
  /** Exporter/importer identifiers (EORI, VAT, tax id) the customs declaration is prefilled with. */
  'customs.settings.get': command<CustomsSettings>()(Empty),
  /** Saves the exporter/importer identifiers; a bad one is refused naming its field (`exporter.eori`). */
  'customs.settings.set': command<CustomsSettings>()(CustomsSettings),
} as const;
