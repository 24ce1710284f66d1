/**
 * Shipments (spec: Endpoints > Shipments; Resources > Shipment, Label;
 * States > rules involving status):
 * - `POST /shipments` -> 201 Shipment + `label` (PDF and ZPL, one label per package);
 * - `GET /shipments` -> paginated list, filters of the spec, default last 30 days;
 * - `GET /shipments/{ldv}` -> full detail;
 * - `DELETE /shipments/{ldv}` -> cancel and refund; 409 `invalid_state` once in a
 *   manifest, in transit (or later) or already cancelled;
 * - `GET /shipments/{ldv}/label?format=pdf|zpl` -> `{trackingNumber, format, pdf, zpl}`.
 *
 * The records themselves (creation, label, automatic return) are built in
 * ../shipment-records.ts.
 */
import { isPdfOnlyCarrier } from '../labels/formats';
import { completeCustomsDetail, customsStatus } from '../../../shared/domain/customs';
import { DELIVERY_POINT_CARRIER } from '../../../shared/platform/lookups';
import { checkDeliveryPoint } from '../delivery-points';
import { ensureLabel } from '../history';
import { compactParty, newShipmentRecord, renderShipmentLabel, warehouseParty } from '../shipment-records';
import type { FieldErrors } from '../../../shared/platform/common';
import { SHIPMENT_STATUSES, StatusKey } from '../../../shared/platform/common';
import { ShipmentListQuery, ShipmentRequest } from '../../../shared/platform/resources';
import { fieldError, invalidState, notFound, parseOrThrow, rejected, validationFailed } from '../errors';
import { inPeriod, paginate, queryBool, queryString, readPeriod, type ApiRouter } from '../http';
import type { Account, CarrierDef, ContractDef, ShipmentRecord } from '../model';
import { normalizePackage, quoteContract, round2, type PricedContract, type QuoteInput } from '../pricing';
import { checkEuro, checkItalianProvince, quoteAll } from '../quoting';
import type { SandboxState } from '../state';
import { shipmentDetail, shipmentSummary } from '../views';

/** Codes from which a shipment counts as in transit (or beyond) and can no longer be cancelled. */
const IN_TRANSIT_FROM = 3;

interface Chosen {
  carrier: CarrierDef;
  contract: ContractDef;
  priced: PricedContract;
}

/**
 * Picks the contract: `serviceType` exactly as received (checked against
 * `carrierCode` when both are given), otherwise the first contract of the
 * quote for this destination (narrowed to `carrierCode` when given).
 * @throws 422 `validation_failed` (`serviceType`, `carrierCode`) for unknown or inconsistent codes,
 *         422 `shipment_rejected` when the contract cannot take the shipment.
 */
function chooseContract(state: SandboxState, account: Account, input: QuoteInput, serviceType?: string, carrierCode?: string): Chosen {
  if (carrierCode !== undefined && !account.carriers.some((c) => c.carrierCode === carrierCode.toLowerCase())) {
    throw fieldError('carrierCode', `Carrier "${carrierCode}" is not among the account's carriers`);
  }
  if (serviceType !== undefined) {
    const found = state.findContract(account, serviceType);
    if (!found) throw fieldError('serviceType', `Contract "${serviceType}" is not one of the account's contracts (use a contractCode exactly as received)`);
    if (carrierCode !== undefined && found.carrier.carrierCode !== carrierCode.toLowerCase()) {
      throw fieldError('carrierCode', `Contract "${serviceType}" belongs to carrier ${found.carrier.carrierCode}, not ${carrierCode}`);
    }
    const outcome = quoteContract(found.carrier, found.contract, input);
    if (!outcome.ok) throw rejected(outcome.reason);
    return { carrier: found.carrier, contract: found.contract, priced: outcome.priced };
  }
  const quotes = quoteAll(account, input, carrierCode);
  const first = quotes.find((q) => q.outcome.ok);
  if (!first || !first.outcome.ok) {
    const reasons = quotes.flatMap((q) => (q.outcome.ok ? [] : [q.outcome.reason]));
    throw rejected(`No contract of the account can take this shipment${reasons.length ? ': ' + reasons.join('; ') : ''}`);
  }
  return { carrier: first.carrier, contract: first.contract, priced: first.outcome.priced };
}

/** Resolves the COD method key from `method` or carrier `type`; defaults to the contract's first method. */
function codMethod(contract: ContractDef, cod: { method?: string | undefined; type?: string | undefined }): { method: string; type: string | null } {
  const methods = Object.keys(contract.cashOnDeliveryMethods);
  if (cod.method !== undefined) {
    if (!methods.includes(cod.method)) {
      throw fieldError('options.cod.method', `COD method "${cod.method}" is not offered by ${contract.contractName}; use one of: ${methods.join(', ')}`);
    }
    return { method: cod.method, type: contract.codTypes[cod.method] ?? null };
  }
  if (cod.type !== undefined) {
    const key = Object.entries(contract.codTypes).find(([, t]) => t === cod.type)?.[0];
    if (!key) {
      throw fieldError('options.cod.type', `COD type "${cod.type}" is not known to ${contract.contractName}; use one of: ${Object.values(contract.codTypes).join(', ')}`);
    }
    return { method: key, type: cod.type };
  }
  const first = methods[0];
  if (first === undefined) throw rejected(`Contract ${contract.contractName} does not offer cash on delivery`);
  return { method: first, type: contract.codTypes[first] ?? null };
}

/** Status filter `status=shipped,3`: keys or numeric codes -> set of codes. @throws 422 `status`. */
function statusCodes(raw: string): Set<number> {
  const out = new Set<number>();
  for (const part of raw.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    if (/^\d+$/.test(part)) {
      const code = Number(part);
      if (!SHIPMENT_STATUSES.some((s) => s.code === code)) throw fieldError('status', `Unknown status code ${part}`);
      out.add(code);
    } else if (StatusKey.safeParse(part).success) {
      for (const s of SHIPMENT_STATUSES) if (s.key === part) out.add(s.code);
    } else {
      throw fieldError('status', `Unknown status "${part}": use a status key (e.g. shipped) or code`);
    }
  }
  return out;
}

/** The account's shipment whose own tracking number (LDV, any case) is `trackingNumber`. @throws 404 `not_found`. */
function findShipment(state: SandboxState, account: Account, trackingNumber: string | undefined): ShipmentRecord {
  const s = state.shipmentByTracking(account, trackingNumber ?? '');
  if (!s || s.trackingNumber !== (trackingNumber ?? '').toUpperCase()) throw notFound(`Shipment ${trackingNumber ?? ''} not found`);
  return s;
}

/** Registers the shipment routes. */
export function registerShipmentRoutes(r: ApiRouter): void {
  r.post('/shipments', async ({ state, account, body, now }) => {
    const req = parseOrThrow(ShipmentRequest, body);
    const opts = req.options ?? {};
    const details: FieldErrors = {};
    checkItalianProvince(req.recipient.address, 'recipient.address', details);
    checkItalianProvince(req.shipper?.address, 'shipper.address', details);
    checkEuro(opts.cod, 'options.cod', details);
    checkEuro(opts.insurance, 'options.insurance', details);
    const dest = req.recipient.address;
    const customs = customsStatus(dest.countryCode, dest.postalCode, dest.city);
    if (customs.required && !req.customsDetail) {
      (details.customsDetail ??= []).push(`A customs declaration is required: ${customs.reason}`);
    }
    // Customs defaults and commodity rules; delivery at a carrier pickup point (shared/domain/customs.ts, delivery-points.ts).
    const customsDetail = req.customsDetail ? completeCustomsDetail(req.customsDetail) : undefined;
    if (customsDetail) Object.assign(details, customsDetail.errors);
    const point = opts.deliveryPoint ? checkDeliveryPoint(opts.deliveryPoint, req, details) : undefined;
    if (Object.keys(details).length) throw validationFailed(details);

    const warehouse = state.warehouse(account, req.warehouseId);
    if (!warehouse) throw fieldError('warehouseId', `Pickup point ${req.warehouseId} not found`);

    const packages = req.packages.map(normalizePackage);
    const codAmount = opts.cod?.amount ?? 0;
    const input: QuoteInput = {
      countryCode: dest.countryCode,
      postalCode: dest.postalCode,
      province: dest.province,
      city: dest.city,
      packages,
      codAmount,
      insuranceAmount: opts.insurance?.amount,
      pickupFromAddress: opts.pickupFromAddress ?? false,
      freePickup: req.shipper ? false : warehouse.freePickup,
      serviceIds: opts.accessoryServices,
    };
    // A pickup point travels with its carrier: an explicit other carrier or contract is refused, no carrier narrows the default.
    const chosenCarrier = req.carrierCode?.toLowerCase() ?? (req.serviceType !== undefined ? state.findContract(account, req.serviceType)?.carrier.carrierCode : undefined);
    if (point && chosenCarrier !== undefined && chosenCarrier !== point.carrier) {
      throw fieldError('options.deliveryPoint', `Delivery point ${point.id} is a ${DELIVERY_POINT_CARRIER.toUpperCase()} point: ship with a ${DELIVERY_POINT_CARRIER.toUpperCase()} contract, not ${req.serviceType ?? chosenCarrier}`);
    }
    const { carrier, contract, priced } = chooseContract(state, account, input, req.serviceType, req.carrierCode ?? (req.serviceType === undefined ? point?.carrier : undefined));

    const unknownServices: FieldErrors = {};
    (opts.accessoryServices ?? []).forEach((id, i) => {
      if (!carrier.services.some((s) => s.serviceId === id)) {
        unknownServices[`options.accessoryServices.${i}`] = [`Service ${id} is not offered by ${carrier.carrierName}`];
      }
    });
    if (Object.keys(unknownServices).length) throw validationFailed(unknownServices);
    const cod = codAmount > 0 && opts.cod ? { amount: round2(codAmount), currency: 'EUR', ...codMethod(contract, opts.cod), status: 0 } : null;

    const total = priced.total;
    if (account.credit.prepaid && account.credit.balance < total) {
      throw rejected(`Insufficient prepaid credit: balance ${account.credit.balance.toFixed(2)} EUR, this shipment costs ${total.toFixed(2)} EUR`);
    }

    const sender = compactParty(req.shipper ?? warehouseParty(warehouse));
    const recipient = compactParty(req.recipient);
    const record = newShipmentRecord(state, account, { carrier, contract, priced }, warehouse, packages, now, {
      reference: req.reference ?? null,
      sender,
      recipient,
      cod,
      insurance: opts.insurance && opts.insurance.amount > 0 ? { amount: opts.insurance.amount, currency: 'EUR' } : null,
      accessoryServices: [...(opts.accessoryServices ?? [])],
      notes: opts.notes ?? null,
      contentDescription: opts.contentDescription ?? null,
      pickupFromAddress: opts.pickupFromAddress ?? false,
      customsDetail: customsDetail?.detail ?? null,
      deliveryPoint: point ?? null,
      labelFormat: isPdfOnlyCarrier(carrier.carrierCode) ? 'PDF' : (opts.labelFormat ?? 'PDF'),
    });
    const trackingNumber = record.trackingNumber;

    try {
      record.label = await renderShipmentLabel(record);
      state.touch(record);
    } catch (e) {
      throw rejected(`The carrier label could not be produced: ${e instanceof Error ? e.message : String(e)}`);
    }

    state.addShipment(record);
    state.moveCredit(account, -total, `Spedizione ${trackingNumber} (${contract.contractName})`, { shipmentId: record.id });
    state.events.emitShipmentCreated(record);
    // Spec: `warning` only on creation, when the shipment is valid but something must be flagged.
    const warning =
      record.automaticReturn && record.returnTrackingNumber === null
        ? `${carrier.carrierName}: the automatic return could not be created for ${trackingNumber}; the shipment is valid, book the return separately if needed`
        : undefined;
    return {
      status: 201,
      body: {
        ...shipmentDetail(record),
        label: { format: record.labelFormat, pdf: record.label.pdf, zpl: record.label.zpl },
        ...(warning !== undefined ? { warning } : {}),
      },
    };
  });

  r.get('/shipments', ({ state, account, query, now, req }) => {
    const strings = Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'page' && k !== 'per_page'));
    const q = parseOrThrow(ShipmentListQuery, strings);
    const period = readPeriod(query, now);
    const statuses = q.status !== undefined && q.status.trim() !== '' ? statusCodes(q.status) : undefined;
    const hasCod = queryBool(query, 'hasCod');
    const hasInsurance = queryBool(query, 'hasInsurance');
    const lc = (s: string | undefined) => (s === undefined || s === '' ? undefined : s.toLowerCase());
    const carrierCode = lc(q.carrierCode);
    const tracking = lc(q.trackingNumber);
    const reference = lc(q.reference);
    const recipientName = lc(q.recipientName);
    const city = lc(q.city);
    const postalCode = lc(q.postalCode)?.replace(/\s/g, '');
    const countryCode = lc(q.countryCode);
    const serviceType = q.serviceType === '' ? undefined : q.serviceType;
    const storeId = queryString(query, 'storeId');

    const items = state.shipments
      .filter((s) => s.accountId === account.accountId && s.cancelledAt === null && inPeriod(s.createdAt, period))
      .filter((s) => statuses === undefined || statuses.has(s.statusCode))
      .filter((s) => carrierCode === undefined || s.carrierCode === carrierCode)
      .filter((s) => serviceType === undefined || s.contractCode === serviceType)
      .filter((s) => tracking === undefined || s.trackingNumber.toLowerCase() === tracking || s.packages.some((p) => p.trackingNumber.toLowerCase() === tracking))
      .filter((s) => reference === undefined || (s.reference ?? '').toLowerCase() === reference)
      .filter((s) => recipientName === undefined || s.recipient.name.toLowerCase().includes(recipientName))
      .filter((s) => city === undefined || s.recipient.address.city.toLowerCase() === city)
      .filter((s) => postalCode === undefined || s.recipient.address.postalCode.toLowerCase().replace(/\s/g, '') === postalCode)
      .filter((s) => countryCode === undefined || s.recipient.address.countryCode.toLowerCase() === countryCode)
      .filter((s) => hasCod === undefined || (s.cod !== null) === hasCod)
      .filter((s) => hasInsurance === undefined || (s.insurance !== null) === hasInsurance)
      // Sandbox shipments come from no online store, so any storeId filter matches none.
      .filter(() => storeId === undefined || storeId === '')
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map(shipmentSummary);
    return { body: paginate(req, query, items) };
  });

  r.get('/shipments/:ldv', ({ state, account, params }) => {
    const s = findShipment(state, account, params.ldv);
    return { body: shipmentDetail(s) };
  });

  r.delete('/shipments/:ldv', ({ state, account, params, now }) => {
    const s = findShipment(state, account, params.ldv);
    if (s.cancelledAt) throw invalidState(`Shipment ${s.trackingNumber} is already cancelled`);
    if (s.manifestId !== null) throw invalidState(`Shipment ${s.trackingNumber} is in manifest ${s.manifestId} and can no longer be cancelled`);
    if (s.statusCode >= IN_TRANSIT_FROM) throw invalidState(`Shipment ${s.trackingNumber} is already in transit and can no longer be cancelled`);
    s.cancelledAt = now;
    s.refunded = s.cost.total;
    state.touch(s);
    const acc = state.accountById(s.accountId);
    if (acc) state.moveCredit(acc, s.cost.total, `Rimborso spedizione annullata ${s.trackingNumber}`, { shipmentId: s.id });
    return { body: { trackingNumber: s.trackingNumber, cancelled: true, refunded: s.refunded } };
  });

  r.get('/shipments/:ldv/label', async ({ state, account, params, query }) => {
    const s = findShipment(state, account, params.ldv);
    await ensureLabel(s); // history shipments get their labels on first request (history.ts)
    const format = queryString(query, 'format')?.toLowerCase();
    if (format === undefined || format === '') {
      return { body: { trackingNumber: s.trackingNumber, format: s.labelFormat, pdf: s.label.pdf, zpl: s.label.zpl } };
    }
    if (format === 'pdf') return { body: { trackingNumber: s.trackingNumber, format: 'PDF', pdf: s.label.pdf, zpl: null } };
    // A PDF-only carrier has no ZPL: it answers its PDF, format PDF, zpl null (labels/formats.ts).
    if (format === 'zpl' && s.label.zpl === null) return { body: { trackingNumber: s.trackingNumber, format: 'PDF', pdf: s.label.pdf, zpl: null } };
    if (format === 'zpl') return { body: { trackingNumber: s.trackingNumber, format: 'ZPL', pdf: null, zpl: s.label.zpl } };
    throw fieldError('format', 'format must be pdf or zpl');
  });
}
