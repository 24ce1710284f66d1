/**
 * The packer's form of the Quote and Ship screens becomes the platform's
 * request here (issue 22 item 4): the screen sends the form as typed
 * (shared/contract/ship-form.ts) and the chosen rate; the core builds POST
 * /rates (spec: Endpoints > Rates) and POST /shipments (spec: Endpoints >
 * Shipments; Resources > Shipment request fields), checks them with the very
 * zod schemas the platform validates with (`RatesRequest`, `ShipmentRequest`,
 * shared/platform) plus the bench's own rules (a box per parcel, the COD
 * method the contract offers, the delivery point's carrier, the customs
 * declaration outside the EU customs territory), and names each bad field by
 * the spec's `details` path so the platform's own 422 lands on the same
 * field. Weights kg, dimensions cm, amounts in EUR (customs in the
 * declaration's currency).
 */
import { QuoteInput, ShipInput, type Handlers, type ShipResult } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { CHOOSE_BOX, parcelPath, type ChosenRateInput, type ParcelDraft, type ShipFormInput } from '../../../shared/contract/ship-form';
import { completeCustomsDetail, customsStatus, type CustomsStatus } from '../../../shared/domain/customs';
import { parseDecimal } from '../../../shared/domain/decimal';
import { RatesRequest, ShipmentRequest, issuesToDetails, type FieldErrors, type Rate } from '../../../shared/platform';
import type { ShipIntent } from './plan';
import type { rateQuoter } from './rates';
import type { shipmentCreator } from './shipments';

type CustomsForm = ShipFormInput['customs'];

/** What of the chosen rate the checks read: its COD methods and, when known, its carrier. */
type RateForCheck = Pick<ChosenRateInput, 'cashOnDeliveryMethods'> & Partial<Pick<ChosenRateInput, 'carrierCode'>>;

const blank = (s: string): string | undefined => (s.trim() === '' ? undefined : s.trim());

/** A number as typed; blank and junk are kept (undefined, NaN) for the schema to name the field. */
const num = (s: string): number => parseDecimal(s) as number;

const moneyOf = (s: string) => ({ amount: num(s), currency: 'EUR' });

/** Whether the form's destination needs a customs declaration, and why (shared/domain/customs.ts, the sandbox's own rule). */
function customsOfForm(f: Pick<ShipFormInput, 'recipient'>): CustomsStatus {
  const r = f.recipient;
  return customsStatus(r.countryCode, r.postalCode, r.city);
}

/** The parcels as the `packages` of POST /rates and POST /shipments: weight KG, dimensions CM. */
function packagesOf(parcels: readonly ParcelDraft[]) {
  return parcels.map((p) => ({
    weight: { value: num(p.weight), units: 'KG' as const },
    dimensions: { length: num(p.length), width: num(p.width), height: num(p.height), units: 'CM' as const },
  }));
}

/** A parcel without any dimension gets one message, on its length, asking for a box (instead of three "required"). Changes and returns `errors`. */
function withChooseBox(parcels: readonly ParcelDraft[], errors: FieldErrors): FieldErrors {
  parcels.forEach((p, i) => {
    if (p.length.trim() !== '' || p.width.trim() !== '' || p.height.trim() !== '') return;
    errors[parcelPath(i, 'length')] = [CHOOSE_BOX];
    delete errors[parcelPath(i, 'width')];
    delete errors[parcelPath(i, 'height')];
  });
  return errors;
}

const idOrNull = (s: string): string | null => (s.trim() === '' ? null : s.trim().toUpperCase().replace(/\s+/g, ''));
const orNull = (s: string): string | null => (s.trim() === '' ? null : s.trim());

/** CustomsDetail body from the typed declaration (numbers parsed; blanks left for the schema to name). */
function customsDetailOf(c: CustomsForm): NonNullable<ShipmentRequest['customsDetail']> {
  const currency = c.currency.trim().toUpperCase();
  return {
    customsValue: { amount: num(c.customsValue), currency },
    commodities: c.commodities.map((l) => ({
      description: l.description.trim(),
      quantity: num(l.quantity),
      unitValue: { amount: num(l.unitValue), currency },
      weight: { value: num(l.weight), units: 'KG' as const },
      // The form's names to the wire's (commodityPath maps the `details` paths back).
      countryOfManufacture: l.originCountry.trim().toUpperCase(),
      harmonizedCode: l.hsCode.trim() === '' ? null : l.hsCode.replace(/[\s.]/g, ''),
      quantityUnits: l.quantityUnits as 'PCS',
      midCode: orNull(l.midCode),
      sku: orNull(l.sku),
    })),
    incoterm: c.incoterm as 'DAP',
    dutiesPayment: c.dutiesPayment as 'RECIPIENT',
    contentType: c.contentType as 'MERCHANDISE',
    exportReason: c.exportReason as 'SALE',
    invoiceNumber: orNull(c.invoiceNumber),
    invoiceDate: orNull(c.invoiceDate),
    exporter: { eori: idOrNull(c.exporter.eori), vatNumber: idOrNull(c.exporter.vatNumber), taxId: idOrNull(c.exporter.taxId) },
    importer: { eori: idOrNull(c.importer.eori), vatNumber: idOrNull(c.importer.vatNumber), taxId: idOrNull(c.importer.taxId) },
  };
}

/** POST /rates body from the form (destination, parcels, COD and insurance amounts). Not validated: see {@link checkForQuote}. */
export function ratesRequestOf(f: ShipFormInput): RatesRequest {
  const options: NonNullable<RatesRequest['options']> = {};
  if (f.codEnabled) options.cod = moneyOf(f.codAmount);
  if (f.insuranceEnabled) options.insurance = moneyOf(f.insuranceAmount);
  return {
    recipient: {
      address: { postalCode: f.recipient.postalCode.trim(), countryCode: f.recipient.countryCode.trim(), city: blank(f.recipient.city), province: blank(f.recipient.province) },
    },
    packages: packagesOf(f.parcels),
    ...(Object.keys(options).length ? { options } : {}),
  };
}

/** POST /shipments body from the form and the chosen rate (its contract code goes in `serviceType`). Not validated: see {@link checkForShip}. */
export function shipmentRequestOf(f: ShipFormInput, rate: Pick<Rate, 'carrierCode' | 'contractCode'> | null): ShipmentRequest {
  const r = f.recipient;
  const options: NonNullable<ShipmentRequest['options']> = {};
  if (f.codEnabled) options.cod = { ...moneyOf(f.codAmount), ...(blank(f.codMethod) ? { method: f.codMethod.trim() } : {}) };
  if (f.insuranceEnabled) options.insurance = moneyOf(f.insuranceAmount);
  const notes = blank(f.notes);
  if (notes) options.notes = notes;
  if (f.deliveryPoint) options.deliveryPoint = { id: f.deliveryPoint.id, carrier: f.deliveryPoint.carrier };
  return {
    recipient: {
      name: r.name.trim(),
      company: blank(r.company),
      address: { street: r.street.trim(), street2: blank(r.street2), city: r.city.trim(), province: blank(r.province), postalCode: r.postalCode.trim(), countryCode: r.countryCode.trim() },
      phone: blank(r.phone),
      email: blank(r.email),
    },
    packages: packagesOf(f.parcels),
    reference: blank(f.reference),
    ...(rate ? { carrierCode: rate.carrierCode, serviceType: rate.contractCode } : {}),
    ...(Object.keys(options).length ? { options } : {}),
    ...(customsOfForm(f).required ? { customsDetail: customsDetailOf(f.customs) } : {}),
  };
}

/** Field errors of the parcels + destination for a quote (RatesRequest schema), keyed by `details` path. Empty when valid. */
export function checkForQuote(f: ShipFormInput): FieldErrors {
  const res = RatesRequest.safeParse(ratesRequestOf(f));
  return withChooseBox(f.parcels, res.success ? {} : issuesToDetails(res.error.issues));
}

/**
 * Field errors of the whole shipment (ShipmentRequest schema) plus the bench's
 * own rules: the customs declaration (at least one line; the platform's
 * currency and country rules, shared/domain/customs.ts), a delivery point only
 * with a rate of its carrier, and with COD on a method the chosen contract
 * offers (`cashOnDeliveryMethods`; a contract without methods takes no COD).
 * Keyed by `details` path; empty when valid.
 */
export function checkForShip(f: ShipFormInput, rate: RateForCheck | null): FieldErrors {
  const res = ShipmentRequest.safeParse(shipmentRequestOf(f, null));
  const out = withChooseBox(f.parcels, res.success ? {} : issuesToDetails(res.error.issues));
  const customs = customsOfForm(f);
  if (customs.required) {
    if (f.customs.commodities.length === 0) out['customsDetail.commodities'] = [`${customs.reason}: add at least one line to the customs declaration`];
    else if (res.success && res.data.customsDetail) {
      for (const [k, v] of Object.entries(completeCustomsDetail(res.data.customsDetail).errors)) (out[k] ??= []).push(...v.filter((m) => !out[k]?.includes(m)));
    }
  }
  if (f.deliveryPoint && rate?.carrierCode !== undefined && rate.carrierCode !== f.deliveryPoint.carrier) {
    (out['options.deliveryPoint.id'] ??= []).push(`This pickup point is served by ${f.deliveryPoint.carrier.toUpperCase()} only: choose one of its rates (F2), or deliver to the address`);
  }
  if (f.codEnabled && rate) {
    const methods = Object.keys(rate.cashOnDeliveryMethods);
    if (methods.length === 0) (out['options.cod.method'] ??= []).push('This contract does not take cash on delivery');
    else if (!methods.includes(f.codMethod)) (out['options.cod.method'] ??= []).push('Choose how the courier collects the cash');
  }
  return out;
}

/** `invalid_input` naming the form's fields, the first in the message. */
function formRefused(what: string, errors: FieldErrors): StationError {
  const first = Object.entries(errors)[0];
  return new StationError('invalid_input', `${what}: ${first ? `${first[0]}: ${first[1][0] ?? 'invalid'}` : 'invalid input'}`, errors);
}

/**
 * Ships the packer's form with the chosen rate through `create` ({@link shipmentCreator},
 * the one path of a shipment: outbox, guards, label). `orderId` is the order
 * the form was filled from, absent for a shipment without an order.
 * @throws StationError `invalid_input` naming the form's fields (`details` by
 *   spec path), or `serviceType` when no rate was chosen; the station's bounds
 *   (`request.packages.0.weight.value`, as the platform's request names them)
 */
export async function shipByForm(create: ReturnType<typeof shipmentCreator>, orderId: number | undefined, form: ShipFormInput, rate: ChosenRateInput | null): Promise<ShipResult> {
  const errors = checkForShip(form, rate);
  if (Object.keys(errors).length) throw formRefused('The shipment form has errors', errors);
  if (!rate) throw new StationError('invalid_input', 'Choose a rate before shipping', { serviceType: ['Choose a rate (F2)'] });
  const parsed = ShipInput.safeParse({ ...(orderId !== undefined ? { orderId } : {}), request: shipmentRequestOf(form, rate) });
  if (!parsed.success) throw formRefused('Invalid input for shipping.shipOrder', issuesToDetails(parsed.error.issues));
  return create(parsed.data);
}

/**
 * A command that takes the packer's form or the platform's request takes one of the two.
 * @throws StationError `invalid_input` naming `request` when both came
 */
export function notBoth(form: unknown, request: unknown): void {
  if (form !== undefined && request !== undefined) throw new StationError('invalid_input', "Send the packer's form or the platform's request, not both", { request: ['Send the form or the request, not both'] });
}

/**
 * Handlers of the packer's form: `shipping.quote` and `shipping.check`; `quote` POSTs /rates
 * ({@link rateQuoter}). `shipping.quote` takes the form as typed, or the platform's RatesRequest as is.
 */
export function createShipFormHandlers(quote: ReturnType<typeof rateQuoter>) {
  return {
    'shipping.quote': async ({ form, request }) => {
      notBoth(form, request);
      if (request) return quote(request);
      if (!form) throw new StationError('invalid_input', "The packer's form or the platform's request is required", { form: ['Required'] });
      const errors = checkForQuote(form);
      if (Object.keys(errors).length) throw formRefused('The parcel or destination has errors', errors);
      const parsed = QuoteInput.safeParse({ request: ratesRequestOf(form) });
      if (!parsed.success) throw formRefused('Invalid input for shipping.quote', issuesToDetails(parsed.error.issues));
      return quote(parsed.data.request);
    },
    'shipping.check': async ({ form, for: step, rate }) => (step === 'quote' ? checkForQuote(form) : checkForShip(form, rate)),
  } satisfies Pick<Handlers, 'shipping.quote' | 'shipping.check'>;
}

/**
 * The intent of shipping an order by its plan: `orderId` is required when no form is sent.
 * @throws StationError `invalid_input` naming `orderId`
 */
export function intentOf(input: Omit<ShipIntent, 'orderId'> & { orderId?: number | undefined }): ShipIntent {
  const { orderId } = input;
  if (orderId === undefined) throw new StationError('invalid_input', 'Order id is required to ship an order by its plan', { orderId: ['Order id is required'] });
  return { ...input, orderId };
}
