/**
 * The full handler map of the station contract (DESIGN.md "One contract"):
 * one module per domain, each typed with `satisfies Pick<Handlers, ...>`,
 * merged here and checked against `Handlers` as a whole.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { createAppHandlers } from './app';
import { createBoxesHandlers } from './boxes';
import { createCarriersHandlers } from './carriers';
import type { StationContext } from './context';
import { createCreditHandlers } from './credit';
import { createCustomsHandlers } from './customs';
import { createStocksHandlers } from './stocks';
import { createLabelsHandlers } from './labels';
import { createManifestsHandlers } from './manifests';
import { createOrderImportHandlers } from './order-import';
import { createOrdersHandlers } from './orders';
import { createOutboxHandlers } from './outbox';
import { createPickupsHandlers } from './pickups';
import { createPrintersHandlers } from './printers';
import { createRatesHandlers } from './rates';
import { createScaleHandlers } from './scale';
import { createScanHandlers } from './scan';
import { createSettingsHandlers } from './settings';
import { createShipmentsHandlers } from './shipments';
import { createSlipsHandlers } from './slips';
import { createStorageHandlers } from './storage';
import { createVerifyHandlers } from './verify';

export type { StationContext } from './context';

/** Every command of the contract, bound to one station context. */
export function createHandlers(ctx: StationContext): Handlers {
  const handlers = {
    ...createAppHandlers(ctx),
    ...createOrdersHandlers(ctx),
    ...createOrderImportHandlers(ctx),
    ...createScanHandlers(ctx),
    ...createCarriersHandlers(ctx),
    ...createRatesHandlers(ctx),
    ...createShipmentsHandlers(ctx),
    ...createLabelsHandlers(ctx),
    ...createPrintersHandlers(ctx),
    ...createPickupsHandlers(ctx),
    ...createManifestsHandlers(ctx),
    ...createCreditHandlers(ctx),
    ...createOutboxHandlers(ctx),
    ...createCustomsHandlers(ctx),
    ...createBoxesHandlers(ctx),
    ...createStocksHandlers(ctx),
    ...createScaleHandlers(ctx),
    ...createSettingsHandlers(ctx),
    ...createSlipsHandlers(ctx),
    ...createVerifyHandlers(ctx),
    ...createStorageHandlers(ctx),
  } satisfies Handlers;
  return handlers;
}
