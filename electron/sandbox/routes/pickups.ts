/**
 * Pickups (spec: Endpoints > Pickups; Resources > Pickup):
 * - `POST /pickups` -> 201 Pickup. The contract's carrier must take pickup
 *   bookings; `pickupDate` must be a real date, not in the past and not a
 *   Sunday (422 `pickupDate`); `shipper` only without `warehouseId`. Cost is
 *   the carrier's pickup fee, zero (and no credit movement) from a point with
 *   approved free pickup.
 * - `GET /pickups?from&to` -> paginated by pickup date, default from 30 days ago.
 * - `GET /pickups/{id}` -> Pickup; 404.
 */
import type { FieldErrors } from '../../../shared/platform/common';
import { PickupRequest } from '../../../shared/platform/resources';
import { fieldError, notFound, parseOrThrow, rejected, validationFailed } from '../errors';
import { paginate, pathId, readPeriod, type ApiRouter } from '../http';
import type { PickupRecord } from '../model';
import { ceilKg, normalizePackage, round2 } from '../pricing';
import { checkItalianProvince } from '../quoting';
import { compactDate, dayOfWeek, isCalendarDate, localDate } from '../time';
import { pickupView } from '../views';
import { warehouseParty } from '../shipment-records';

/** Registers the pickup routes. */
export function registerPickupRoutes(r: ApiRouter): void {
  r.post('/pickups', ({ state, account, body, now }) => {
    const req = parseOrThrow(PickupRequest, body);
    const details: FieldErrors = {};
    const today = localDate(now);
    if (!isCalendarDate(req.pickupDate)) details.pickupDate = ['Pickup date is not a real calendar date'];
    else if (req.pickupDate < today) details.pickupDate = [`Pickup date cannot be in the past (today is ${today})`];
    else if (dayOfWeek(req.pickupDate) === 0) details.pickupDate = ['Carriers do not collect on Sunday'];
    if (req.shipper && req.warehouseId !== undefined) details.shipper = ['Give shipper only without warehouseId'];
    checkItalianProvince(req.shipper?.address, 'shipper.address', details);
    if (Object.keys(details).length) throw validationFailed(details);

    const found = state.findContract(account, req.serviceType);
    if (!found) throw fieldError('serviceType', `Contract "${req.serviceType}" is not one of the account's contracts`);
    const { carrier, contract } = found;
    if (!carrier.canRequestPickup) throw fieldError('serviceType', `${carrier.carrierName} does not take pickup bookings`);
    if (contract.paused) throw rejected(`Contract ${contract.contractName} is paused`);

    const warehouse = req.shipper ? undefined : state.warehouse(account, req.warehouseId);
    if (!req.shipper && !warehouse) throw fieldError('warehouseId', `Pickup point ${req.warehouseId} not found`);
    const address = req.shipper ?? (warehouse ? warehouseParty(warehouse) : undefined);
    if (!address) throw fieldError('warehouseId', 'No pickup point or shipper address to collect from');

    const free = warehouse?.freePickup ?? false;
    const cost = free ? 0 : round2(carrier.pickupFee);
    if (cost > 0 && account.credit.prepaid && account.credit.balance < cost) {
      throw rejected(`Insufficient prepaid credit: balance ${account.credit.balance.toFixed(2)} EUR, the pickup costs ${cost.toFixed(2)} EUR`);
    }
    const id = state.nextPickupId();
    const packages = req.packages.map(normalizePackage);
    const record: PickupRecord = {
      id,
      accountId: account.accountId,
      pickupId: `${carrier.trackingPrefix}R${compactDate(req.pickupDate)}${String(id).padStart(6, '0')}`,
      carrierCode: carrier.carrierCode,
      carrierName: carrier.carrierName,
      serviceType: contract.contractCode,
      pickupDate: req.pickupDate,
      pickupTime: req.pickupTime,
      warehouseId: warehouse?.id ?? null,
      address,
      packages: packages.length,
      weightKg: ceilKg(packages.reduce((s, p) => s + p.weightKg, 0)),
      shipmentId: req.shipmentId ?? null,
      instructions: req.instructions ?? null,
      cost: { total: cost, currency: 'EUR' },
      status: 'booked',
      createdAt: now,
    };
    state.pickups.push(record);
    if (cost > 0) state.moveCredit(account, -cost, `Ritiro ${record.pickupId} del ${req.pickupDate}`, { pickupId: id });
    return { status: 201, body: pickupView(record) };
  });

  r.get('/pickups', ({ state, account, query, now, req }) => {
    const period = readPeriod(query, now);
    const items = state.pickups
      .filter((p) => p.accountId === account.accountId && p.pickupDate >= period.from && (period.to === undefined || p.pickupDate <= period.to))
      .sort((a, b) => (a.pickupDate < b.pickupDate ? 1 : a.pickupDate > b.pickupDate ? -1 : b.id - a.id))
      .map(pickupView);
    return { body: paginate(req, query, items) };
  });

  r.get('/pickups/:id', ({ state, account, params }) => {
    const id = pathId(params.id, `Pickup ${params.id}`);
    const p = state.pickups.find((x) => x.id === id && x.accountId === account.accountId);
    if (!p) throw notFound(`Pickup ${id} not found`);
    return { body: pickupView(p) };
  });
}
