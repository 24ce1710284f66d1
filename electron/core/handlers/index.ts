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
import { createVerifyHandlers } from './verify';

export type { StationContext } from './context';

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * Merges the domains' handler maps.
 * @throws Error naming the command when two domains implement the same name
 *   (spreading would let the later one win without a word).
 */
export function mergeHandlers<G extends ReadonlyArray<Readonly<Record<string, unknown>>>>(...groups: G): UnionToIntersection<G[number]> {
  const all: Record<string, unknown> = {};
  for (const group of groups) {
    for (const [name, handler] of Object.entries(group)) {
      if (Object.hasOwn(all, name)) throw new Error(`Command ${name} has two handlers`);
      all[name] = handler;
    }
  }
  return all as UnionToIntersection<G[number]>;
}

/** Every command of the contract, bound to one station context. */
export function createHandlers(ctx: StationContext): Handlers {
  const handlers = mergeHandlers(
    createAppHandlers(ctx),
    createOrdersHandlers(ctx),
    createOrderImportHandlers(ctx),
    createScanHandlers(ctx),
    createCarriersHandlers(ctx),
    createRatesHandlers(ctx),
    createShipmentsHandlers(ctx),
    createLabelsHandlers(ctx),
    createPrintersHandlers(ctx),
    createPickupsHandlers(ctx),
    createManifestsHandlers(ctx),
    createCreditHandlers(ctx),
    createOutboxHandlers(ctx),
    createCustomsHandlers(ctx),
    createBoxesHandlers(ctx),
    createStocksHandlers(ctx),
    createScaleHandlers(ctx),
    createSettingsHandlers(ctx),
    createSlipsHandlers(ctx),
    createVerifyHandlers(ctx),
  ) satisfies Handlers;
  return handlers;
}
