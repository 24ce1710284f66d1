/**
 * POST /rates (spec: Endpoints > Rates): one Rate per contract that serves
 * the destination and package combination; paused contracts and contracts
 * that cannot take the packages or the COD are left out. Prices follow
 * pricing.ts; `options.cod.type` keeps only contracts knowing that carrier
 * COD code. 404 `not_found` when the account has no price list (no carriers).
 */
import { RatesRequest } from '../../../shared/platform/resources';
import { fieldError, notFound, parseOrThrow, validationFailed } from '../errors';
import type { ApiRouter } from '../http';
import { normalizePackage } from '../pricing';
import { checkEuro, checkItalianProvince, quoteAll } from '../quoting';
import type { FieldErrors } from '../../../shared/platform/common';

/** Registers POST /rates. */
export function registerRatesRoutes(r: ApiRouter): void {
  r.post('/rates', ({ state, account, body }) => {
    const req = parseOrThrow(RatesRequest, body);
    const details: FieldErrors = {};
    checkItalianProvince(req.recipient.address, 'recipient.address', details);
    checkItalianProvince(req.shipper?.address, 'shipper.address', details);
    checkEuro(req.options?.cod, 'options.cod', details);
    checkEuro(req.options?.insurance, 'options.insurance', details);
    if (Object.keys(details).length) throw validationFailed(details);
    const warehouse = state.warehouse(account, req.warehouseId);
    if (!warehouse) throw fieldError('warehouseId', `Pickup point ${req.warehouseId} not found`);
    if (account.carriers.length === 0) throw notFound('No price list is associated to the account');

    const quotes = quoteAll(account, {
      countryCode: req.recipient.address.countryCode,
      postalCode: req.recipient.address.postalCode,
      province: req.recipient.address.province,
      city: req.recipient.address.city,
      packages: req.packages.map(normalizePackage),
      codAmount: req.options?.cod?.amount,
      insuranceAmount: req.options?.insurance?.amount,
      pickupFromAddress: req.options?.pickupFromAddress ?? false,
      // Free pickup belongs to the point; collecting from another shipper address is charged.
      freePickup: req.shipper ? false : warehouse.freePickup,
    });
    const codType = req.options?.cod?.type;
    const data = quotes
      .filter((q) => codType === undefined || Object.values(q.contract.codTypes).includes(codType))
      .flatMap((q) => (q.outcome.ok ? [q.outcome.priced.rate] : []));
    return { body: { data } };
  });
}
