/**
 * Wire shapes of the sandbox's records (spec: Resources and their fields).
 * Where the spec says "not shown" (shipment detail sender/recipient/dates/cod
 * field names, pickup record fields) the shapes follow shared/platform's
 * response schemas, which document the choice.
 */
import { statusOf, type Carrier, type Warehouse } from '../../shared/platform';
import type { Account, CarrierDef, ManifestRecord, PickupRecord, ShipmentRecord, WarehouseDef } from './model';
import { bdaOf } from './carrier/scenarios';
import { localIso } from './time';

/** GET /carriers item: the carrier with the account's contracts (pricing internals left out). */
export function carrierView(c: CarrierDef): Carrier {
  return {
    carrierCode: c.carrierCode,
    carrierName: c.carrierName,
    canManageStocks: c.canManageStocks,
    canRequestPickup: c.canRequestPickup,
    contracts: c.contracts.map((k) => ({
      contractCode: k.contractCode,
      contractName: k.contractName,
      level: k.level,
      slave: k.slave,
      paused: k.paused,
      multiParcel: k.multiParcel,
      cashOnDeliveryMethods: { ...k.cashOnDeliveryMethods },
    })),
    services: c.services.map((s) => ({ serviceId: s.serviceId, serviceCode: s.serviceCode, serviceName: s.serviceName })),
  };
}

/** GET /warehouses item (sandbox extension): the Warehouse schema plus sender name and contacts. */
export function warehouseView(w: WarehouseDef): Warehouse & { senderName: string; phone: string; email: string } {
  return {
    id: w.id,
    name: w.name,
    address: { ...w.address },
    isDefault: w.isDefault,
    freePickup: w.freePickup,
    senderName: w.senderName,
    phone: w.phone,
    email: w.email,
  };
}

/** GET /credit body (spec: Financial records > Credit balance). */
export function creditView(a: Account): { balance: number; currency: string; prepaid: boolean; updatedAt: string } {
  return { balance: a.credit.balance, currency: a.credit.currency, prepaid: a.credit.prepaid, updatedAt: localIso(a.credit.updatedAt) };
}

const isoOrNull = (d: Date | null) => (d ? localIso(d) : null);

/** Shipment as listed (spec: Resources > Shipment). */
export function shipmentSummary(s: ShipmentRecord) {
  return {
    id: s.id,
    trackingNumber: s.trackingNumber,
    // The spec types both string / integer: left out rather than null when the shipment has none.
    ...(s.reference !== null ? { reference: s.reference } : {}),
    status: statusOf(s.statusCode),
    carrier: { code: s.carrierCode, name: s.carrierName, contractCode: s.contractCode, contractName: s.contractName },
    ...(s.warehouseId !== null ? { warehouseId: s.warehouseId } : {}),
    parcels: s.packages.length,
    packages: s.packages.map((p) => ({ number: p.number, trackingNumber: p.trackingNumber })),
    cost: { total: s.cost.total, currency: s.cost.currency },
    createdAt: localIso(s.createdAt),
    returnTrackingNumber: s.returnTrackingNumber,
    cancelled: s.cancelledAt !== null,
  };
}

/**
 * Shipment detail (GET /shipments/{ldv}): the summary plus sender, recipient,
 * packages with weight and dimensions, cost breakdown, COD with its status
 * (0 waiting, 1 processing, 2 settled), insurance, options, customs, zone and
 * weights, manifest, and the dates of shipment, pickup and delivery.
 */
export function shipmentDetail(s: ShipmentRecord) {
  return {
    ...shipmentSummary(s),
    packages: s.packages.map((p) => ({
      number: p.number,
      trackingNumber: p.trackingNumber,
      weight: { value: p.weightKg, units: 'KG' as const },
      dimensions: { length: p.lengthCm, width: p.widthCm, height: p.heightCm, units: 'CM' as const },
      description: p.description,
      value: p.value,
    })),
    cost: { total: s.cost.total, currency: s.cost.currency, breakdown: { ...s.cost.breakdown } },
    sender: s.sender,
    recipient: s.recipient,
    cod: s.cod ? { ...s.cod } : null,
    insurance: s.insurance ? { ...s.insurance } : null,
    options: {
      notes: s.notes,
      contentDescription: s.contentDescription,
      accessoryServices: [...s.accessoryServices],
      pickupFromAddress: s.pickupFromAddress,
      labelFormat: s.labelFormat,
      deliveryPoint: s.deliveryPoint ?? null,
    },
    customsDetail: s.customsDetail ?? null,
    zone: s.zone,
    billableWeight: { value: s.billableWeightKg, units: 'KG' as const },
    volumetricWeight: { value: s.volumetricWeightKg, units: 'KG' as const },
    manifestId: s.manifestId,
    // Carrier delivery document number, the key of GET /tracking/bda/{bda} (lifecycle.ts bdaOf).
    bda: bdaOf(s),
    dates: { shippedAt: isoOrNull(s.shippedAt), pickedUpAt: isoOrNull(s.pickedUpAt), deliveredAt: isoOrNull(s.deliveredAt) },
    cancelledAt: isoOrNull(s.cancelledAt),
  };
}

/** Manifest (spec: Resources > Manifest); `pdf` only when asked. */
export function manifestView(m: ManifestRecord, withPdf: boolean) {
  return {
    id: m.id,
    carrier: { code: m.carrierCode, name: m.carrierName },
    contractCode: m.contractCode,
    contractName: m.contractName,
    totalShipments: m.shipmentIds.length,
    totalCost: m.totalCost,
    createdAt: localIso(m.createdAt),
    trackingNumbers: [...m.trackingNumbers],
    ...(withPdf ? { pdf: m.pdf } : {}),
  };
}

/** Pickup record: spec fields `pickupId` and `cost`, plus the sandbox's `id` and an echo of the booking. */
export function pickupView(p: PickupRecord) {
  return {
    id: p.id,
    pickupId: p.pickupId,
    cost: { ...p.cost },
    carrierCode: p.carrierCode,
    carrierName: p.carrierName,
    serviceType: p.serviceType,
    pickupDate: p.pickupDate,
    pickupTime: p.pickupTime,
    warehouseId: p.warehouseId,
    address: p.address,
    packages: p.packages,
    weight: { value: p.weightKg, units: 'KG' as const },
    shipmentId: p.shipmentId,
    instructions: p.instructions,
    status: p.status,
    createdAt: localIso(p.createdAt),
  };
}
