/**
 * English of the texts the core makes (issue 25: `coreText`, the table of shared/contract/core-text.ts
 * itself), of where the client secret is kept (`secretStore`) and of the shipment statuses by their
 * keys (`shipmentStatus`), merged into ./en.ts; the Italian is ./core-it.ts.
 */
import { CORE_TEXTS_EN } from '../../../../shared/contract/core-text';

/** The sections of ./en.ts this file holds. */
export const coreEn = {
  coreText: CORE_TEXTS_EN,
  secretStore: { keyring: 'OS keyring ({{lib}})', safeStorage: 'Electron safeStorage', safeStorageOf: 'Electron safeStorage ({{backend}})', none: 'none ({{why}}); STATION_CLIENT_SECRET from the environment' },
  shipmentStatus: {
    processing: 'In processing',
    shipped: 'Shipped',
    in_transit: 'In transit',
    out_for_delivery: 'Out for delivery',
    delivered: 'Delivered',
    held_at_depot: 'Held at depot (stock)',
    returned_to_sender: 'Returned to sender',
    undelivered: 'Not delivered',
    awaiting_instructions: 'Waiting for instructions',
    awaiting_collection: 'Waiting for collection',
  },
};
