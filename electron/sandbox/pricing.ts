/**
 * Price computation of the sandbox (spec: Rate — `price.total`,
 * `price.breakdown` {weight, fuel, insurance, cod, services, extra, pickup},
 * `billableWeight` = max(real, volumetric), `volumetricWeight` by the
 * carrier's rule, `zone`). Pure functions over the seed's price lists.
 *
 * Weights: real (sum of the packages) and volumetric are each rounded up to
 * the next 0.01 kg ({@link ceilKg}), so they stay > 0 for an envelope.
 *
 * Rules: weight price from the contract's band for the zone and the total
 * billable weight (plus `overPerKg` per started kg above the last band); fuel
 * = carrier % of the weight price; COD = fixed + % of the amount; insurance =
 * % of the insured value, at least the minimum; services = sum of the chosen
 * accessory services; extra = remote-area surcharge (minor islands, Venice
 * lagoon); pickup = carrier fee when collection at the address is asked,
 * zero from a point with approved free pickup. Each part is rounded to cents
 * and the total is their sum, so the breakdown always adds up to the total.
 */
import type { Dimensions, Package, PriceBreakdown, Rate, Weight } from '../../shared/platform';
import type { CarrierDef, ContractDef, ZoneId } from './model';
import { zoneOf } from './zones';

/** A package in kg and cm. */
export interface NormalizedPackage {
  weightKg: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  value: number | null;
  description: string | null;
}

/** Converts a wire Package (KG/G, CM/MM) to kg and cm. */
export function normalizePackage(p: Package): NormalizedPackage {
  return {
    weightKg: toKg(p.weight),
    ...toCm(p.dimensions),
    value: p.value ?? null,
    description: p.description ?? null,
  };
}

function toKg(w: Weight): number {
  return w.units === 'G' ? w.value / 1000 : w.value;
}

function toCm(d: Dimensions): { lengthCm: number; widthCm: number; heightCm: number } {
  const f = d.units === 'MM' ? 0.1 : 1;
  return { lengthCm: d.length * f, widthCm: d.width * f, heightCm: d.height * f };
}

/** Rounds EUR or kg to 2 decimals (half away from zero, via integer cents). */
export function round2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/**
 * Rounds a weight in kg **up** to the next 0.01 kg, the carriers' rule for
 * billable and volumetric weights, so a weight never comes out as 0 (spec:
 * Weight `value` > 0): a 4 g parcel is 0.01 kg, 0.011 kg is 0.02 kg, 2.00 kg
 * stays 2.00 kg. Float noise below a millionth of a hundredth is ignored
 * (0.3 is 0.30, not 0.31). 0 or less answers 0.
 */
export function ceilKg(kg: number): number {
  if (!(kg > 0)) return 0;
  const hundredths = Math.round(kg * 100 * 1e6) / 1e6;
  return Math.max(1, Math.ceil(hundredths)) / 100;
}

/** What to price: destination, packages and options. Amounts EUR. */
export interface QuoteInput {
  countryCode: string;
  postalCode: string;
  province?: string;
  /** Recipient city: decides the zone under a shared postal code (IT 23030 Trepalle, shared/domain/customs.ts). */
  city?: string;
  packages: NormalizedPackage[];
  /** COD amount; undefined or 0 = no COD. */
  codAmount?: number;
  /** Insured value; undefined or 0 = no insurance. */
  insuranceAmount?: number;
  /** Collection at the sender's address asked (`options.pickupFromAddress`). */
  pickupFromAddress: boolean;
  /** The point of origin has approved free pickup. */
  freePickup: boolean;
  /** Chosen accessory services (ids known to the carrier; unknown ids are ignored here). */
  serviceIds?: number[];
}

/** A priced contract: the wire Rate plus the numbers the shipment keeps. */
export interface PricedContract {
  rate: Rate;
  zone: ZoneId;
  realKg: number;
  volumetricKg: number;
  billableKg: number;
  breakdown: PriceBreakdown;
  total: number;
}

/** Outcome of pricing one contract: priced, or the reason it cannot serve the request. */
export type QuoteOutcome = { ok: true; priced: PricedContract } | { ok: false; reason: string };

/** Volumetric weight of packages, kg: sum of L×W×H (cm³) / divisor, rounded up to the next 0.01 kg ({@link ceilKg}). */
export function volumetricKg(packages: ReadonlyArray<NormalizedPackage>, divisor: number): number {
  // A parcel has a volume however thin: a product that underflows to 0 (5e-324 cm) still bills the smallest step.
  const kg = packages.reduce((s, p) => s + (p.lengthCm * p.widthCm * p.heightCm) / divisor, 0);
  return packages.length ? Math.max(0.01, ceilKg(kg)) : 0;
}

/** Weight price of a billable weight on a band list (EUR). */
export function weightPrice(bandsOfZone: ReadonlyArray<{ maxKg: number; price: number }>, billableKg: number, overPerKg: number): number {
  const band = bandsOfZone.find((b) => billableKg <= b.maxKg + 1e-9);
  if (band) return band.price;
  const last = bandsOfZone[bandsOfZone.length - 1];
  if (!last) return 0;
  return round2(last.price + Math.ceil(billableKg - last.maxKg - 1e-9) * overPerKg);
}

/**
 * Prices one contract. Refuses (with a reason naming the rule) when the
 * contract is paused, does not serve the zone, has more packages than a
 * single-parcel contract allows, a parcel is heavier than its limit, or COD
 * is asked on a contract without COD methods.
 */
export function quoteContract(carrier: CarrierDef, contract: ContractDef, input: QuoteInput): QuoteOutcome {
  const zone = zoneOf(input.countryCode, input.postalCode, input.province, input.city);
  if (contract.paused) return { ok: false, reason: `Contract ${contract.contractName} is paused` };
  const zoneBands = contract.prices[zone];
  if (!zoneBands || zoneBands.length === 0) {
    return { ok: false, reason: `Contract ${contract.contractName} does not serve ${input.countryCode} ${input.postalCode} (zone ${zone})` };
  }
  if (input.packages.length > 1 && !contract.multiParcel) {
    return { ok: false, reason: `Contract ${contract.contractName} does not accept multi-parcel shipments (${input.packages.length} packages)` };
  }
  const heavy = input.packages.findIndex((p) => p.weightKg > contract.maxParcelKg);
  if (heavy >= 0) {
    return { ok: false, reason: `Package ${heavy + 1} weighs more than the ${contract.maxParcelKg} kg limit of ${contract.contractName}` };
  }
  const codAmount = input.codAmount ?? 0;
  if (codAmount > 0 && Object.keys(contract.cashOnDeliveryMethods).length === 0) {
    return { ok: false, reason: `Contract ${contract.contractName} does not offer cash on delivery` };
  }

  const realKg = ceilKg(input.packages.reduce((s, p) => s + p.weightKg, 0));
  const volKg = volumetricKg(input.packages, carrier.volumetricDivisor);
  const billableKg = Math.max(realKg, volKg);

  const weight = round2(weightPrice(zoneBands, billableKg, contract.overPerKg));
  const fuel = round2((weight * carrier.fuelSurchargePct) / 100);
  const cod = codAmount > 0 ? round2(carrier.codFee.fixed + (codAmount * carrier.codFee.pct) / 100) : 0;
  const insuranceAmount = input.insuranceAmount ?? 0;
  const insurance = insuranceAmount > 0 ? round2(Math.max(carrier.insuranceFee.min, (insuranceAmount * carrier.insuranceFee.pct) / 100)) : 0;
  const chosen = new Set(input.serviceIds ?? []);
  const services = round2(carrier.services.filter((s) => chosen.has(s.serviceId)).reduce((s, x) => s + x.price, 0));
  const extra = zone === 'italy_minor_islands' ? round2(contract.remoteAreaSurcharge) : 0;
  const pickup = input.pickupFromAddress && carrier.canRequestPickup && !input.freePickup ? round2(carrier.pickupFee) : 0;
  const breakdown: PriceBreakdown = { weight, fuel, insurance, cod, services, extra, pickup };
  // Sum in integer cents so the breakdown adds up to the total exactly.
  const total = Object.values(breakdown).reduce((s, v) => s + Math.round(v * 100), 0) / 100;

  const rate: Rate = {
    carrierCode: carrier.carrierCode,
    carrierName: carrier.carrierName,
    contractCode: contract.contractCode,
    contractName: contract.contractName,
    level: contract.level,
    slave: contract.slave,
    price: { total, currency: 'EUR', breakdown },
    billableWeight: { value: billableKg, units: 'KG' },
    volumetricWeight: { value: volKg, units: 'KG' },
    zone,
    cashOnDeliveryMethods: { ...contract.cashOnDeliveryMethods },
    services: carrier.services.map((s) => ({ serviceId: s.serviceId, serviceName: s.serviceName })),
    logoUrl: carrier.logoUrl,
  };
  return { ok: true, priced: { rate, zone, realKg, volumetricKg: volKg, billableKg, breakdown, total } };
}
