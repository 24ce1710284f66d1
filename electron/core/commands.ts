/**
 * The full handler map of the station contract (DESIGN.md "One contract"):
 * one module per domain, each typed with `satisfies Pick<Handlers, ...>`,
 * merged here and checked against `Handlers` as a whole.
 */
import type { Handlers } from '../../shared/contract/commands';
import { createAppHandlers } from './account/app';
import { createBoxesHandlers } from './packing/boxes';
import { createCarriersHandlers } from './shipping/carriers';
import type { StationContext } from './common/context';
import { createCreditHandlers } from './account/credit';
import { createCustomsHandlers } from './shipping/customs';
import { createStocksHandlers } from './stocks/handlers';
import { createLabelsHandlers } from './printing/jobs/labels';
import { findLocalShipment } from './shipping/lookup';
import { createManifestsHandlers } from './manifests/handlers';
import { createOrderImportHandlers } from './orders/import-handlers';
import { createOrdersHandlers, emitOrdersChanged } from './orders/handlers';
import { createOutboxHandlers } from './outbox/handlers';
import { createPickupsHandlers } from './pickups/handlers';
import { createPrintersHandlers } from './printing/jobs/printers-handlers';
import { rateQuoter } from './shipping/rates';
import { createScaleHandlers } from './scales/handlers';
import { createScanHandlers } from './scan/handlers';
import { createSettingsHandlers } from './account/settings';
import { createShipmentsHandlers, shipmentCreator } from './shipping/shipments';
import { createSlipsHandlers } from './slips/handlers';
import { createVerifyHandlers } from './packing/verify';
import { createStorageHandlers } from './storage/handlers';
import { createRulesHandlers, rulesChangedElsewhere } from './rules/handlers';
import { createProductsHandlers } from './products/handlers';
import { createShipOrderHandlers } from './shipping/ship-order';
import { createShipFormHandlers } from './shipping/ship-form';
import { mergeDisjoint } from '../../shared/contract/commands/merge';
import { createPackersHandlers } from './packers/handlers';
import { withPackers } from './packers/activity';
import { createPackerSession } from './packers/session';
import { createReportsHandlers, saveDayReportAtClose } from './reports/handlers';
import { createWarehouseHandlers } from './warehouse/handlers';
import { createBatchPrinter } from './warehouse/batch-print';
import { romeDay } from '../../shared/domain/rome-day';

export type { StationContext } from './common/context';

/** Every command of the contract, bound to one station context. */
export function createHandlers(ctx: StationContext): Handlers {
  const session = createPackerSession(ctx.store, ctx.events, ctx.now);
  const printBatches = createBatchPrinter({ labelsAhead: () => ctx.warehouse.labelsAhead(), printRaw: (zpl, name) => ctx.printer.printRaw(zpl, name), log: (line) => ctx.warehouse.log(line) });
  ctx.warehouse.bind({
    packerName: () => session.who().packerName,
    benchStatus: () => {
      const printer = ctx.printer.cached();
      const last = ctx.store.shipments.listRecent({ limit: 1 }).find((x) => x.trackingNumber !== null);
      return {
        packer: session.who().packerName,
        printer: { state: printer.state, name: printer.name },
        queue: ctx.store.outbox.countPending(),
        refused: ctx.store.outbox.countAttention(),
        labelsHeld: ctx.store.printJobs.list({ state: 'held', limit: 1000 }).length,
        lastLabel: last?.trackingNumber ? { trackingNumber: last.trackingNumber, at: last.createdAt } : null,
      };
    },
    onShared: (pulled) => {
      if (pulled.settings.includes('rules.document')) rulesChangedElsewhere(ctx);
      if (pulled.products) ctx.events.emit('products.changed', { count: pulled.products });
      if (pulled.packers) session.changed();
      // Order settings, boxes, customs identifiers, the claim timeout: the screens showing them reload.
      const others = pulled.settings.filter((k) => k !== 'rules.document');
      if (others.length) ctx.events.emit('settings.changed', { keys: others });
    },
    onOrders: () => emitOrdersChanged(ctx),
    // The platform's events from the warehouse (issue 44): the Stocks screen and the shipments' screens reload.
    onPlatformEvents: ({ stocks, shipments }) => {
      if (stocks) ctx.events.emit('stocks.changed', { id: 0 });
      for (const trackingNumber of shipments) ctx.events.emit('shipments.changed', { trackingNumber });
    },
    // A batch of labels ahead for this bench's printer (issue 43 item 5).
    onBatches: () => void printBatches(),
  });
  // A shipment marks its order shipped (now, or when the queue sends it): the warehouse's row follows.
  ctx.events.on('shipments.changed', () => ctx.warehouse.shareOrders());
  const reportOpts = { stationName: () => session.view().stationName };
  const handlers = mergeDisjoint(
    (name) => `Command ${name} has two handlers`,
    createAppHandlers(ctx),
    createOrdersHandlers(ctx),
    createOrderImportHandlers(ctx),
    createScanHandlers(ctx, () => session.who().packerName),
    createCarriersHandlers(ctx),
    createShipmentsHandlers(ctx),
    createLabelsHandlers(ctx, findLocalShipment),
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
    createStorageHandlers(ctx),
    createRulesHandlers(ctx),
    createProductsHandlers(ctx),
    createShipOrderHandlers(ctx, shipmentCreator(ctx, () => session.who()), () => session.who().packerName),
    createShipFormHandlers(rateQuoter(ctx)),
    createPackersHandlers(ctx, session),
    createReportsHandlers(ctx, reportOpts),
    createWarehouseHandlers(ctx, () => session.who().packerName),
  ) satisfies Handlers;
  // Packers around every command; at day close the day report is saved by itself when a folder is set.
  return withPackers(handlers, ctx.store, session, {
    afterCloseDay: async () => {
      await saveDayReportAtClose(ctx, romeDay(ctx.now()), reportOpts);
    },
  });
}
