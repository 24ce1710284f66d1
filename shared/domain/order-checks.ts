/**
 * The order rules that need no schema library: the recipient's shape and
 * limits, the default shop, postal code clean-up and the recipient check.
 * Re-exported by ./order.ts (use them from there); the CSV import's worker
 * thread (electron/core/orders/csv-worker.ts) imports them from here so it
 * does not load zod, which it never uses, at every start.
 */
import { isCountryCode } from './countries';
import { completePostalCode, isItalianCap, usesItalianCap } from './postal';

/**
 * Recipient of the order, flat (the spec nests street..countryCode under
 * `address`; ./order.ts `recipientToParty` builds that shape). Limits: name and
 * company max 100, street max 150, street2 max 100, city max 80, province
 * max 10 (2 letters for Italy), postalCode max 15, countryCode ISO 3166-1
 * alpha-2, phone max 30.
 */
export interface OrderRecipient {
  name: string;
  company?: string;
  street: string;
  street2?: string;
  city: string;
  province?: string;
  postalCode: string;
  countryCode: string;
  phone?: string;
  email?: string;
}

/** Shop of orders entered by hand or imported without naming one. */
export const DEFAULT_SHOP = 'main';

/** Spec limits (Address, Party, Other bounds) plus the station's own for order numbers. */
export const ORDER_LIMITS = {
  orderNumber: 50,
  name: 100,
  company: 100,
  street: 150,
  street2: 100,
  city: 80,
  province: 10,
  postalCode: 15,
  phone: 30,
  itemName: 255,
  sku: 100,
  notes: 255,
  items: 200,
} as const;

/**
 * Cleans a postal code the way shops and spreadsheets mangle it: trims, drops
 * the leading apostrophe Shopify/Excel add to keep it text (`'00184`), and for
 * Italy (and SM, VA) restores leading zeros lost to number formatting
 * (`184` -> `00184`), as the spec does for POST /orders ("An Italian postal
 * code sent without leading zeros is completed"; shared/domain/postal.ts).
 * Other values pass unchanged.
 */
export function normalizePostalCode(raw: string, countryCode: string): string {
  return completePostalCode(countryCode, raw.trim().replace(/^'+/, ''));
}

/**
 * Checks a recipient against the spec's Address/Party rules and the Italian
 * ones (CAP 5 digits, province 2 letters). Returns field -> message for each
 * problem (keys are {@link OrderRecipient} field names); empty when valid.
 * Expects values already normalised (see {@link normalizePostalCode}).
 */
export function recipientProblems(r: OrderRecipient): Partial<Record<keyof OrderRecipient, string>> {
  const out: Partial<Record<keyof OrderRecipient, string>> = {};
  const need = (k: 'name' | 'street' | 'city' | 'postalCode', label: string, max: number) => {
    const v = r[k];
    if (v.trim() === '') out[k] = `${label} is required`;
    else if (v.length > max) out[k] = `${label} is too long (max ${max} characters)`;
  };
  const cap = (k: 'company' | 'street2' | 'province' | 'phone', label: string, max: number) => {
    const v = r[k];
    if (v !== undefined && v.length > max) out[k] = `${label} is too long (max ${max} characters)`;
  };
  need('name', 'Recipient name', ORDER_LIMITS.name);
  cap('company', 'Company', ORDER_LIMITS.company);
  need('street', 'Street', ORDER_LIMITS.street);
  cap('street2', 'Street 2', ORDER_LIMITS.street2);
  need('city', 'City', ORDER_LIMITS.city);
  cap('province', 'Province', ORDER_LIMITS.province);
  need('postalCode', 'Postal code', ORDER_LIMITS.postalCode);
  cap('phone', 'Phone', ORDER_LIMITS.phone);
  if (!/^[A-Z]{2}$/.test(r.countryCode)) out.countryCode = 'Country must be a 2-letter code such as IT';
  else if (!isCountryCode(r.countryCode)) out.countryCode = unknownCountry(r.countryCode);
  else if (usesItalianCap(r.countryCode)) {
    if (!out.postalCode && !isItalianCap(r.postalCode)) {
      out.postalCode = `Postal code for ${r.countryCode} must be 5 digits, like 00184`;
    }
    if (r.countryCode === 'IT' && r.province !== undefined && !out.province && !/^[A-Z]{2}$/.test(r.province)) {
      out.province = 'Italian province must be 2 letters, like RM or MI';
    }
  }
  if (r.email !== undefined && !EMAIL.test(r.email)) out.email = 'E-mail address is not valid';
  return out;
}

/** Message for 2 letters that are no ISO 3166-1 country (shared/domain/countries.ts). */
export const unknownCountry = (code: string) => `Country "${code}" is not an ISO 3166-1 country code`;

/** Pragmatic e-mail shape check (same spirit as zod's `z.email()`); the platform does the final check. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
