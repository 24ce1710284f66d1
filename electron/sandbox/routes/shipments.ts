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
 * Automatic carrier return (spec: Resources > Shipment `returnTrackingNumber`,
 * `warning`; Label): on a contract with `automaticReturn` the shipment gets a
 * return LDV at creation and the label PDF a last page with the return label;
 * when the return cannot be created (forced with {@link RETURN_FAILED_TOKEN})
 * the shipment is created all the same and the creation answer carries `warning`.
 */
import { isPdfOnlyCarrier } from '../labels/formats';
import { completeCustomsDetail, customsStatus } from '../../../shared/domain/customs';
import { DELIVERY_POINT_CARRIER } from '../../../shared/platform/lookups';
import { checkDeliveryPoint } from '../delivery-points';
import { ensureLabel } from '../history';
import type { FieldErrors } from '../../../shared/platform/common';
import { SHIPMENT_STATUSES, StatusKey } from '../../../shared/platform/common';
import { ShipmentListQuery, ShipmentRequest } from '../../../shared/platform/resources';
import type { Party } from '../../../shared/platform/common';
import { renderLabelsPdf, renderLabelsZpl, type LabelAddress, type LabelData } from '../labels';
import { fieldError, invalidState, notFound, parseOrThrow, rejected, validationFailed } from '../errors';
import { inPeriod, paginate, queryBool, queryString, readPeriod, type ApiRouter } from '../http';
import type { Account, CarrierDef, ContractDef, ShipmentRecord, WarehouseDef } from '../model';
import { normalizePackage, quoteContract, round2, type NormalizedPackage, type PricedContract, type QuoteInput } from '../pricing';
import { checkEuro, checkItalianProvince, quoteAll } from '../quoting';
import type { SandboxState } from '../state';
import { localIso } from '../time';
import { shipmentDetail, shipmentSummary } from '../views';

/** Status code of a newly created shipment: 2 `shipped`, as the spec's example creation shows. */
export const NEW_SHIPMENT_STATUS = 2;

/** Codes from which a shipment counts as in transit (or beyond) and can no longer be cancelled. */
const IN_TRANSIT_FROM = 3;

/** Label address from a Party. */
export function labelAddress(p: Party): LabelAddress {
  return {
    name: p.name,
    ...(p.company ? { company: p.company } : {}),
    street: p.address.street,
    ...(p.address.street2 ? { street2: p.address.street2 } : {}),
    city: p.address.city,
    ...(p.address.province ? { province: p.address.province } : {}),
    postalCode: p.address.postalCode,
    countryCode: p.address.countryCode,
    ...(p.phone ? { phone: p.phone } : {}),
  };
}

/**
 * Token in `options.notes` that makes the carrier refuse a shipment's
 * automatic return (training aid, like the lifecycle's `sandbox:<scenario>`
 * tokens): the shipment is still created, without `returnTrackingNumber`, and
 * the creation answer carries `warning`.
 */
export const RETURN_FAILED_TOKEN = 'sandbox:return-failed';

/** Whether `notes` hold {@link RETURN_FAILED_TOKEN} (any case). */
export function returnFailureForced(notes: string | null | undefined): boolean {
  return (notes ?? '').toLowerCase().includes(RETURN_FAILED_TOKEN);
}

/**
 * The return label of a shipment with an automatic return: one label for the
 * return LDV (`returnTrackingNumber`, printed as Code 128), sender and
 * recipient swapped (the parcel goes back from the recipient to the shipment's
 * sender), the total weight in kg, marked RESO / RETURN in the service line and
 * the notes; no COD. Undefined when the shipment has no automatic return LDV.
 */
export function returnLabelData(s: ShipmentRecord, createdAt: string = localIso(s.createdAt)): LabelData | undefined {
  if (!s.automaticReturn || s.returnTrackingNumber === null) return undefined;
  return {
    trackingNumber: s.returnTrackingNumber,
    shipmentTrackingNumber: s.returnTrackingNumber,
    carrierCode: s.carrierCode,
    carrierName: s.carrierName,
    serviceName: `RESO / RETURN - ${s.contractName}`,
    sender: labelAddress(s.recipient),
    recipient: labelAddress(s.sender),
    parcelNumber: 1,
    parcelCount: 1,
    weightKg: round2(s.packages.reduce((sum, p) => sum + p.weightKg, 0)),
    ...(s.reference ? { reference: s.reference } : {}),
    notes: `RESO / RETURN della spedizione ${s.trackingNumber}`,
    createdAt,
  };
}

/**
 * Renders a shipment's labels as POST /shipments answers them: one label per
 * package (ZPL ^XA..^XZ and one PDF page each), dated at the shipment's
 * creation (Europe/Rome), both base64. With an automatic return the PDF gets
 * one more page after the parcels, the return label ({@link returnLabelData};
 * spec: Label, "the return label is the second page of the same PDF"); the
 * ZPL keeps the outbound labels only (the bench printer prints what goes on
 * the parcels; the spec places the return label in the PDF).
 * @throws whatever the label renderers throw (e.g. a field a label cannot carry).
 */
export async function renderShipmentLabel(s: ShipmentRecord): Promise<ShipmentRecord['label']> {
  const createdAt = localIso(s.createdAt);
  const labels: LabelData[] = s.packages.map((p) => ({
    trackingNumber: p.trackingNumber,
    shipmentTrackingNumber: s.trackingNumber,
    carrierCode: s.carrierCode,
    carrierName: s.carrierName,
    serviceName: s.contractName,
    sender: labelAddress(s.sender),
    recipient: labelAddress(s.recipient),
    parcelNumber: p.number,
    parcelCount: s.packages.length,
    weightKg: p.weightKg,
    ...(s.reference ? { reference: s.reference } : {}),
    ...(s.cod ? { cod: { amount: s.cod.amount, currency: s.cod.currency } } : {}),
    ...(s.notes ? { notes: s.notes } : {}),
    createdAt,
  }));
  // PDF-only carriers (DHL here) give no ZPL at all, as on the platform.
  const zpl = isPdfOnlyCarrier(s.carrierCode) ? null : renderLabelsZpl(labels);
  const ret = returnLabelData(s, createdAt);
  const pdf = await renderLabelsPdf(ret ? [...labels, ret] : labels);
  return { pdf: Buffer.from(pdf).toString('base64'), zpl: zpl === null ? null : Buffer.from(zpl, 'utf8').toString('base64') };
}

/** Sender Party of a pickup point: the sender name at the point's address; the point's name is the sender reference. */
export function warehouseParty(w: WarehouseDef): Party {
  return { name: w.senderName, address: { ...w.address }, phone: w.phone, email: w.email, reference: w.name };
}

/** What a new shipment takes from its request (or history recipe) rather than from its contract and price. */
export type ShipmentSpecifics = Pick<
  ShipmentRecord,
  'reference' | 'sender' | 'recipient' | 'cod' | 'insurance' | 'accessoryServices' | 'notes' | 'contentDescription' | 'pickupFromAddress' | 'customsDetail' | 'deliveryPoint' | 'labelFormat'
>;

/**
 * A new shipment record, status {@link NEW_SHIPMENT_STATUS}, created and
 * shipped at `at`, labels still empty; not stored. Takes a fresh tracking
 * number (LDV) for the shipment, which is also its first parcel's, then the
 * next shipment id, then one LDV for each further parcel, then, on a
 * contract with `automaticReturn`, the return LDV (`returnTrackingNumber`;
 * left null when `notes` hold {@link RETURN_FAILED_TOKEN}). Used by
 * `POST /shipments` and by the seeded history (history.ts).
 * @param packages parcels in kg and cm, in request order (numbered from 1).
 * @param priced the contract's price for these parcels (EUR, zone, billable and volumetric kg).
 * @param specifics the request's own fields; `deliveryPoint` is set on the record only when present.
 */
export function newShipmentRecord(
  state: SandboxState,
  account: Account,
  chosen: { carrier: CarrierDef; contract: ContractDef; priced: PricedContract },
  warehouse: WarehouseDef,
  packages: NormalizedPackage[],
  at: Date,
  specifics: ShipmentSpecifics,
): ShipmentRecord {
  const { carrier, contract, priced } = chosen;
  const ldv = state.newTrackingNumber(carrier.trackingPrefix);
  const record: ShipmentRecord = {
    id: state.nextShipmentId(),
    accountId: account.accountId,
    trackingNumber: ldv,
    reference: specifics.reference,
    statusCode: NEW_SHIPMENT_STATUS,
    carrierCode: carrier.carrierCode,
    carrierName: carrier.carrierName,
    contractCode: contract.contractCode,
    contractName: contract.contractName,
    warehouseId: warehouse.id,
    sender: specifics.sender,
    recipient: specifics.recipient,
    // The first parcel carries the shipment's number; the others get their own.
    packages: packages.map((p, i) => ({
      number: i + 1,
      trackingNumber: i === 0 ? ldv : state.newTrackingNumber(carrier.trackingPrefix),
      weightKg: p.weightKg,
      lengthCm: p.lengthCm,
      widthCm: p.widthCm,
      heightCm: p.heightCm,
      description: p.description,
      value: p.value,
    })),
    cost: { total: priced.total, currency: 'EUR', breakdown: { ...priced.breakdown } },
    zone: priced.zone,
    billableWeightKg: priced.billableKg,
    volumetricWeightKg: priced.volumetricKg,
    cod: specifics.cod,
    insurance: specifics.insurance,
    accessoryServices: specifics.accessoryServices,
    notes: specifics.notes,
    contentDescription: specifics.contentDescription,
    pickupFromAddress: specifics.pickupFromAddress,
    customsDetail: specifics.customsDetail,
    ...('deliveryPoint' in specifics ? { deliveryPoint: specifics.deliveryPoint } : {}),
    labelFormat: specifics.labelFormat,
    label: { pdf: '', zpl: '' },
    createdAt: at,
    shippedAt: at,
    pickedUpAt: null,
    deliveredAt: null,
    manifestId: null,
    cancelledAt: null,
    refunded: 0,
    returnTrackingNumber: null,
  };
  if (contract.automaticReturn) {
    record.automaticReturn = true;
    // Reserved like every LDV, so no later shipment or parcel can take it.
    if (!returnFailureForced(specifics.notes)) record.returnTrackingNumber = state.newTrackingNumber(carrier.trackingPrefix);
  }
  return record;
}

/** Strips undefined members so records and responses hold only what was given. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function compactParty(p: Party): Party {
  return compact({ ...p, address: compact({ ...p.address }) });
}

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

/** The account's shipment whose own tracking number (LDV, any case) is `ldv`. @throws 404 `not_found`. */
function findShipment(state: SandboxState, account: Account, ldv: string | undefined): ShipmentRecord {
  const s = state.shipmentByTracking(account, ldv ?? '');
  if (!s || s.trackingNumber !== (ldv ?? '').toUpperCase()) throw notFound(`Shipment ${ldv ?? ''} not found`);
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
    const customs = customsStatus(dest.countryCode, dest.postalCode);
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
    const ldv = record.trackingNumber;

    try {
      record.label = await renderShipmentLabel(record);
    } catch (e) {
      throw rejected(`The carrier label could not be produced: ${e instanceof Error ? e.message : String(e)}`);
    }

    state.addShipment(record);
    state.moveCredit(account, -total, `Spedizione ${ldv} (${contract.contractName})`, { shipmentId: record.id });
    state.events.emitShipmentCreated(record);
    // Spec: `warning` only on creation, when the shipment is valid but something must be flagged.
    const warning =
      record.automaticReturn && record.returnTrackingNumber === null
        ? `${carrier.carrierName}: the automatic return could not be created for ${ldv}; the shipment is valid, book the return separately if needed`
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
