/**
 * The legacy wire shapes of the deprecated interfaces (spec: Shipment field
 * mapping, Response mapping): legacy request fields to 2026-09 ones, 2026-09
 * answers to legacy views (`ldv`, `order_id`, `labelData`, ...), and
 * validation `details` keys back to legacy names. Plain objects in, plain
 * objects out; the translation of calls is in legacy.ts.
 */

// ---- field mapping ----

export type Obj = Record<string, unknown>;

export function asObj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Legacy clients often send numbers as strings ("1.5"): those become numbers, anything else is left for validation. */
export function num(v: unknown): unknown {
  return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
}

export function compact(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export const money = (n: number) => n.toFixed(2);

/** Legacy address (`street1`, `street2`, `city`, `state`, `postalCode`, `country`) plus name fields -> Party. */
export function party(v: unknown, reference?: unknown): unknown {
  const o = asObj(v);
  if (!o) return v;
  return compact({
    name: o.name,
    company: o.company,
    phone: o.phone,
    email: o.email,
    reference: reference ?? o.reference,
    address: compact({
      street: o.street1 ?? o.street,
      street2: o.street2,
      city: o.city,
      province: o.state,
      postalCode: typeof (o.postalCode ?? o.zip) === 'number' ? String(o.postalCode ?? o.zip) : (o.postalCode ?? o.zip),
      countryCode: o.country,
    }),
  });
}

/** Legacy packages `{length, width, height, weight}` (cm, kg) -> Package[]. */
export function packages(v: unknown, orderTotal?: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.map((p: unknown, i) => {
    const o = asObj(p);
    if (!o) return p;
    return compact({
      weight: { value: num(o.weight), units: 'KG' },
      dimensions: { length: num(o.length), width: num(o.width), height: num(o.height), units: 'CM' },
      description: o.description,
      // `order_total` -> `packages[].value`: the order's value rides on the first package.
      value: i === 0 && orderTotal !== undefined ? num(orderTotal) : undefined,
    });
  });
}

/** 2026-09 `details` keys -> legacy field names (Shipment field mapping), first match wins. */
const KEY_MAP: ReadonlyArray<readonly [RegExp, string]> = [
  [/^recipient\.reference$/, 'rif_dest'],
  [/^(recipient|shipper)\.address\.street$/, '$1.street1'],
  [/^(recipient|shipper)\.address\.province$/, '$1.state'],
  [/^(recipient|shipper)\.address\.countryCode$/, '$1.country'],
  [/^(recipient|shipper)\.address\.(\w+)$/, '$1.$2'],
  [/^(recipient|shipper)\.address$/, '$1'],
  [/^packages\.(\d+)\.weight(\.\w+)?$/, 'packages.$1.weight'],
  [/^packages\.(\d+)\.dimensions\.(length|width|height)$/, 'packages.$1.$2'],
  [/^packages\.(\d+)\.dimensions(\.\w+)?$/, 'packages.$1'],
  [/^packages\.(\d+)\.value$/, 'order_total'],
  [/^serviceType$/, 'contractCode'],
  [/^reference$/, 'order_id'],
  [/^instructions$/, 'notes'],
  [/^options\.notes$/, 'notes'],
  [/^options\.contentDescription$/, 'content'],
  [/^options\.labelFormat$/, 'label_format'],
  [/^options\.insurance(\.\w+)?$/, 'insuranceValue'],
  [/^options\.cod\.method$/, 'cashOnDeliveryMode'],
  [/^options\.cod\.type$/, 'codType'],
  [/^options\.cod(\.\w+)?$/, 'codValue'],
  [/^options\.accessoryServices(\.\d+)?$/, 'accessoriServices$1'],
  [/^options\.(\w+)$/, '$1'],
];

/** Maps one `details` key to its legacy name (`recipient` -> `shipTo`, `shipper` -> `shipFrom`). */
function legacyKey(key: string): string {
  let out = key;
  for (const [re, to] of KEY_MAP) {
    if (re.test(out)) {
      out = out.replace(re, to);
      break;
    }
  }
  return out.replace(/^recipient(\.|$)/, 'shipTo$1').replace(/^shipper(\.|$)/, 'shipFrom$1');
}

export function legacyDetails(details: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, msgs] of Object.entries(details)) (out[legacyKey(k)] ??= []).push(...msgs);
  return out;
}

// ---- views ----

export function shipmentView(s: Obj): Obj {
  const carrier = asObj(s.carrier) ?? {};
  const cost = asObj(s.cost) ?? {};
  const label = asObj(s.label) ?? {};
  const status = asObj(s.status) ?? {};
  return compact({
    shipmentId: s.id,
    trackingNumber: s.trackingNumber,
    order_id: s.reference ?? null,
    carrierCode: carrier.code,
    carrierName: carrier.name,
    contractCode: carrier.contractCode,
    contractName: carrier.contractName,
    status: status.code,
    shipmentCost: typeof cost.total === 'number' ? money(cost.total) : undefined,
    currency: cost.currency,
    packages: Array.isArray(s.packages) ? s.packages.map((p: unknown) => ({ pack_number: asObj(p)?.number, trackingNumber: asObj(p)?.trackingNumber })) : [],
    labelData: label.pdf ?? null,
    labelZPL: label.zpl ?? null,
    createdAt: s.createdAt,
    warning: s.warning,
  });
}

export function rateView(r: Obj): Obj {
  const price = asObj(r.price) ?? {};
  return {
    carrierCode: r.carrierCode,
    carrierName: r.carrierName,
    contractCode: r.contractCode,
    contractName: r.contractName,
    shipmentCost: typeof price.total === 'number' ? money(price.total) : null,
    currency: price.currency,
    weight: asObj(r.billableWeight)?.value ?? null,
    zone: r.zone ?? null,
    cashOnDeliveryMethods: r.cashOnDeliveryMethods ?? {},
    services: r.services ?? [],
  };
}

export function stockView(s: Obj): Obj {
  const carrier = asObj(s.carrier) ?? {};
  const reason = asObj(s.reason) ?? {};
  return {
    stock_id: s.id,
    giacenza_id: s.giacenzaId,
    ldv: s.trackingNumber,
    carrier_ldv: s.carrierTrackingNumber,
    order_id: s.reference ?? null,
    vector_name: carrier.name,
    reason_code: reason.code,
    reason: reason.description,
    location: s.location,
    opened_at: s.openedAt,
    deadline: s.deadline,
    status: s.status,
    action: s.action ?? null,
  };
}
