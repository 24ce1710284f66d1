/**
 * Value objects, list envelope and error envelope of the Client Shipping API
 * 2026-09 ("Resources and their fields" > "Value objects", "Paginated list
 * envelope", "Errors"). These zod schemas are the single definition used by
 * the sandbox (request validation), the platform client (response parsing)
 * and the bench screens (instant field errors).
 */
import { z } from 'zod';
// Installs the API's wording of validation messages (zod's global error map), once.
import './messages';
import { isCountryCode } from '../domain/countries';
import { completePostalCode, postalCodeProblem } from '../domain/postal';

/**
 * ISO 3166-1 alpha-2 country code, 2 letters of an assigned code, upper-cased;
 * `what` names the field in the messages ("Country code", "Country of manufacture").
 */
export function countryCodeNamed(what: string) {
  return z
    .string({ error: `${what} is required` })
    .regex(/^[A-Za-z]{2}$/, { error: `${what} must be 2 letters (ISO 3166-1 alpha-2), like IT`, abort: true })
    .refine(isCountryCode, { error: (iss) => `${what} "${String(iss.input)}" is not an ISO 3166-1 alpha-2 country code` })
    .transform((s) => s.toUpperCase());
}

/** ISO 3166-1 alpha-2 country code, exactly 2 letters (spec: Address.countryCode). */
export const CountryCode = countryCodeNamed('Country code');

/** Date `YYYY-MM-DD` (spec: Formats). */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Date must be YYYY-MM-DD' });

/**
 * Date-time ISO 8601 with time-zone offset (spec: Formats), e.g.
 * `2026-09-14T10:00:00+02:00`. Only in answers: parsed as any string, since
 * the station keeps a record whose timestamp it cannot read (tracking shows
 * such events in wire order); the OpenAPI document declares it `format:
 * date-time` (this metadata, copied by the sandbox's openapi.ts), and the
 * integration suite checks every
 * value the sandbox sends against that format.
 */
export const IsoDateTime = z.string().meta({ format: 'date-time' });

/** Metadata key marking what the sandbox serves beyond the spec's tables (`x-sandbox-extension: true` in the OpenAPI document). */
export const SANDBOX_EXTENSION = 'x-sandbox-extension';

/**
 * Marks a field (or a schema) the sandbox answers beyond the spec's tables,
 * so the OpenAPI document flags it with `x-sandbox-extension: true` and a
 * description; clients of another platform must not rely on it.
 */
export function extension<T extends z.ZodType>(schema: T, description: string): T {
  return schema.meta({ [SANDBOX_EXTENSION]: true, description });
}

/** Money: `amount` >= 0, `currency` 3 chars, default EUR (spec: Value objects). */
/** A number field's type message: "<What> is required" when absent, "<What> must be a number" otherwise. */
const numberError = (what: string, unit = '') => (iss: { input?: unknown }) =>
  iss.input === undefined ? `${what} is required` : `${what} must be a number${unit}, not ${typeof iss.input === 'string' ? 'text' : JSON.stringify(iss.input)}`;

export const Money = z.object({
  amount: z.number({ error: numberError('Amount') }).min(0, { error: 'Amount cannot be negative' }),
  currency: z.string().length(3, { error: 'Currency must be 3 letters' }).default('EUR'),
});
export type Money = z.infer<typeof Money>;

/** Weight: `value` > 0, `units` KG (default) or G (spec: Value objects). */
export const Weight = z.object({
  value: z.number({ error: numberError('Weight', ' (in KG or G)') }).positive({ error: 'Weight must be greater than 0' }),
  units: z.enum(['KG', 'G']).default('KG'),
});
export type Weight = z.infer<typeof Weight>;

/** Dimensions: length, width, height > 0, `units` CM (default) or MM (spec: Value objects). */
export const Dimensions = z.object({
  length: z.number({ error: numberError('Length', ' (in CM or MM)') }).positive({ error: 'Length must be greater than 0' }),
  width: z.number({ error: numberError('Width', ' (in CM or MM)') }).positive({ error: 'Width must be greater than 0' }),
  height: z.number({ error: numberError('Height', ' (in CM or MM)') }).positive({ error: 'Height must be greater than 0' }),
  units: z.enum(['CM', 'MM']).default('CM'),
});
export type Dimensions = z.infer<typeof Dimensions>;

const req = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(max, { error: `${what} must be at most ${max} characters` });
const opt = (what: string, max: number) =>
  z.string().max(max, { error: `${what} must be at most ${max} characters` }).optional();

/**
 * Completes the Italian CAP of an address-like value (`184` -> `00184`, for
 * IT, SM and VA; shared/domain/postal.ts). Runs as a zod `overwrite`, so it
 * also sees values whose other fields failed: it only touches strings.
 */
function completeCap<T extends { countryCode: string; postalCode: string }>(a: T): T {
  if (typeof a.countryCode !== 'string' || typeof a.postalCode !== 'string') return a;
  return { ...a, postalCode: completePostalCode(a.countryCode, a.postalCode) };
}

/** Adds the CAP rule's issue at `postalCode` when a completed CAP is still not 5 digits. */
function checkCap(a: { countryCode: string; postalCode: string }, ctx: z.RefinementCtx): void {
  if (typeof a.countryCode !== 'string' || typeof a.postalCode !== 'string' || a.postalCode === '') return;
  const problem = postalCodeProblem(a.countryCode, a.postalCode);
  if (problem) ctx.addIssue({ code: 'custom', path: ['postalCode'], message: problem, input: a.postalCode });
}

/**
 * Makes an address object apply the CAP rule: for IT, SM and VA a postal code
 * of 1-4 digits is completed with leading zeros, and one that is then not 5
 * digits is an issue at `postalCode` ("Italian postal code (CAP) must be 5
 * digits"). The spec completes CAPs for POST /orders; the station and the
 * sandbox do the same for every request address, so a rate and its shipment
 * see the same CAP. The result stays a ZodObject (no `.partial()`: zod
 * refuses it on refined objects; use the unrefined fields for that).
 */
export function withItalianCap<S extends z.ZodObject<{ countryCode: z.ZodType<string, string>; postalCode: z.ZodType<string, string> }>>(schema: S): S {
  return schema.overwrite((a) => completeCap(a)).superRefine((a, ctx) => checkCap(a, ctx));
}

/**
 * Address fields (spec: Value objects) without the CAP rule: the shape for
 * answers the station parses (a platform address is taken as given) and for
 * `.partial()` / `.extend()`. Requests use {@link Address}.
 */
export const AddressFields = z.object({
  street: req('Street', 150),
  street2: opt('Street 2', 100),
  city: req('City', 80),
  province: opt('Province', 10),
  postalCode: req('Postal code', 15),
  countryCode: CountryCode,
});

/**
 * Address of a request (spec: Value objects), with the CAP rule of
 * {@link withItalianCap}: IT/SM/VA postal codes are completed to 5 digits or
 * rejected. Italian province is 2 letters, checked by callers (sandbox quoting.ts).
 */
export const Address = withItalianCap(AddressFields);
export type Address = z.infer<typeof Address>;

/** Party: sender or recipient (spec: Value objects). */
export const Party = z.object({
  name: req('Name', 100),
  company: opt('Company', 100),
  address: Address,
  phone: opt('Phone', 30),
  email: z.email({ error: 'E-mail address is not valid' }).optional(),
  reference: opt('Reference', 50),
});
export type Party = z.infer<typeof Party>;

/** Package: weight and dimensions required; `value` in the shipment currency (spec: Value objects). */
export const Package = z.object({
  weight: Weight,
  dimensions: Dimensions,
  description: z.string().optional(),
  value: z.number().min(0).optional(),
});
export type Package = z.infer<typeof Package>;

/** Status object `{code, key, label}` (spec: States and transitions > Shipment status). */
export const StatusKey = z.enum([
  'processing',
  'shipped',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'held_at_depot',
  'returned_to_sender',
  'undelivered',
  'awaiting_instructions',
  'awaiting_collection',
]);
export type StatusKey = z.infer<typeof StatusKey>;
/** Shipment status object `{code, key, label}`; clients match on `key` (spec: Shipment status). */
export const Status = z.object({ code: z.number().int(), key: StatusKey, label: z.string() });
export type Status = z.infer<typeof Status>;

/** Shipment status table: code -> key and English label (spec: Shipment status). */
export const SHIPMENT_STATUSES: ReadonlyArray<Status> = [
  { code: 0, key: 'processing', label: 'In processing' },
  { code: 1, key: 'processing', label: 'In processing' },
  { code: 2, key: 'shipped', label: 'Shipped' },
  { code: 3, key: 'in_transit', label: 'In transit' },
  { code: 4, key: 'out_for_delivery', label: 'Out for delivery' },
  { code: 5, key: 'delivered', label: 'Delivered' },
  { code: 6, key: 'held_at_depot', label: 'Held at depot (stock)' },
  { code: 7, key: 'returned_to_sender', label: 'Returned to sender' },
  { code: 8, key: 'undelivered', label: 'Not delivered' },
  { code: 9, key: 'awaiting_instructions', label: 'Waiting for instructions' },
  { code: 10, key: 'awaiting_collection', label: 'Waiting for collection' },
];

/** The Status object for a numeric status code; throws RangeError for a code the spec does not list. */
export function statusOf(code: number): Status {
  const s = SHIPMENT_STATUSES.find((x) => x.code === code);
  if (!s) throw new RangeError(`Unknown shipment status code ${code}`);
  return s;
}

/** Paginated list envelope (spec: Paginated list envelope). */
export function Paginated<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    links: z.object({
      first: z.string().nullable(),
      last: z.string().nullable(),
      prev: z.string().nullable(),
      next: z.string().nullable(),
    }),
    meta: z.object({
      current_page: z.number().int(),
      last_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
      from: z.number().int().nullable(),
      to: z.number().int().nullable(),
    }),
  });
}
/** Static type of a {@link Paginated} list of `T`: `data`, `links` (URLs or null), `meta` (page numbers and counts). */
export type PaginatedOf<T> = {
  data: T[];
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: { current_page: number; last_page: number; per_page: number; total: number; from: number | null; to: number | null };
};

/** Query parameters of every paginated list: `per_page` 1..200 default 50, `page` >= 1 default 1. */
export const PageQuery = z.object({
  per_page: z.coerce.number({ error: 'per_page must be an integer' }).int({ error: 'per_page must be an integer' }).min(1, { error: 'per_page must be at least 1' }).max(200, { error: 'per_page must be at most 200' }).default(50),
  page: z.coerce.number({ error: 'page must be an integer' }).int({ error: 'page must be an integer' }).min(1, { error: 'page must be at least 1' }).default(1),
});

/** Error codes of the envelope (spec: Errors > Envelope), plus `http_error` from the code enumeration. */
export const PlatformErrorCode = z.enum([
  'unauthenticated',
  'subscription_required',
  'subscription_payment_failed',
  'plan_limit_reached',
  'insufficient_scope',
  'account_disabled',
  'client_role_required',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'invalid_state',
  'validation_failed',
  'shipment_rejected',
  'rate_limited',
  'carrier_error',
  'internal_error',
  'http_error',
]);
export type PlatformErrorCode = z.infer<typeof PlatformErrorCode>;

/**
 * Error envelope `{error: {code, message, details?}}` as this API answers it:
 * `code` one of {@link PlatformErrorCode}; `details` keys are field paths.
 */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: PlatformErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.array(z.string())).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/**
 * The error envelope as a client reads it from any platform: `code` any
 * string, since a later platform may add codes (spec: Versioning 2); the
 * client maps unknown codes to `http_error` itself.
 */
export const AnyErrorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.array(z.string())).optional(),
  }),
});

/** Field-path -> messages map, as in the envelope's `details`. */
export type FieldErrors = Record<string, string[]>;

/**
 * Turns zod issues into the spec's `details` map: each issue path joined with
 * `.` (`packages.0.weight.value`, `orders.1.recipient.address.postalCode`).
 * An issue at the root is keyed by `prefix` or `_`.
 */
export function issuesToDetails(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>, prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const parts = [prefix, ...issue.path.map((p) => String(p))].filter((p) => p !== '');
    const key = parts.length ? parts.join('.') : '_';
    // Own keys only: a field named `constructor` or `toString` must not find Object's.
    if (Object.hasOwn(out, key)) out[key]?.push(issue.message);
    else Object.defineProperty(out, key, { value: [issue.message], enumerable: true, writable: true, configurable: true });
  }
  return out;
}
