import { describe, expect, it } from 'vitest';
import { EXTRA_COUNTRY_CODES, ISO_3166_ALPHA2, isCountryCode } from '../../../shared/domain/countries';
import { ManualOrderInput, recipientProblems } from '../../../shared/domain/order';
import { CountryCode, issuesToDetails } from '../../../shared/platform/common';
import { OrdersRequest } from '../../../shared/platform/orders';
import { Commodity } from '../../../shared/platform/resources';

describe('ISO 3166-1 alpha-2 list (shared/domain/countries)', () => {
  it('holds the 249 officially assigned codes, each 2 upper-case letters, and no extra code twice', () => {
    expect(ISO_3166_ALPHA2.size).toBe(249);
    for (const c of ISO_3166_ALPHA2) expect(c).toMatch(/^[A-Z]{2}$/);
    for (const c of EXTRA_COUNTRY_CODES) expect(ISO_3166_ALPHA2.has(c)).toBe(false);
  });

  it.each(['IT', 'sm', 'VA', 'SS', 'BQ', 'CW', 'SX', 'AX', 'GB', ' de ', 'XK', 'IC', 'EA'])('accepts %j', (c) => {
    expect(isCountryCode(c)).toBe(true);
  });

  it.each(['XX', 'ZZ', 'UK', 'EU', 'AN', 'YU', 'ITA', 'I', ''])('refuses %j (user-assigned, withdrawn or not 2 letters)', (c) => {
    expect(isCountryCode(c)).toBe(false);
  });
});

describe('CountryCode schema: one message per problem', () => {
  const problems = (v: unknown) => issuesToDetails(CountryCode.safeParse(v).error?.issues ?? [], 'countryCode');

  it('upper-cases a real code', () => {
    expect(CountryCode.parse('it')).toBe('IT');
    expect(CountryCode.parse('xk')).toBe('XK');
  });

  it.each(['ITA', 'I', '', '1T', 'I '])('gives one shape message for %j', (v) => {
    expect(problems(v)).toEqual({ countryCode: ['Country code must be 2 letters (ISO 3166-1 alpha-2), like IT'] });
  });

  it('gives one message naming an unknown code', () => {
    expect(problems('XX')).toEqual({ countryCode: ['Country code "XX" is not an ISO 3166-1 alpha-2 country code'] });
    expect(problems('uk')).toEqual({ countryCode: ['Country code "uk" is not an ISO 3166-1 alpha-2 country code'] });
  });

  it('says "required" for a missing code', () => {
    expect(problems(undefined)).toEqual({ countryCode: ['Country code is required'] });
  });

  it('applies to POST /orders, whose country defaults to IT', () => {
    const order = (countryCode?: string) => ({ recipient: { name: 'Anna', address: { street: 'Via Roma 1', city: 'Roma', postalCode: '00184', ...(countryCode ? { countryCode } : {}) } } });
    expect(OrdersRequest.parse({ orders: [order()] }).orders[0]?.recipient.address.countryCode).toBe('IT');
    const bad = OrdersRequest.safeParse({ orders: [order('XX')] });
    expect(issuesToDetails(bad.error?.issues ?? [])).toEqual({ 'orders.0.recipient.address.countryCode': ['Country code "XX" is not an ISO 3166-1 alpha-2 country code'] });
  });
});

describe('station orders check the country too', () => {
  const recipient = { name: 'Anna', street: 'Via Roma 1', city: 'Roma', postalCode: '00184' };

  it('recipientProblems names an unknown country', () => {
    expect(recipientProblems({ ...recipient, countryCode: 'XX' })).toEqual({ countryCode: 'Country "XX" is not an ISO 3166-1 country code' });
    expect(recipientProblems({ ...recipient, countryCode: 'IT' })).toEqual({});
  });

  it('the manual order form gives one message for XX', () => {
    const r = ManualOrderInput.safeParse({ recipient: { ...recipient, countryCode: 'xx' }, items: [] });
    expect(issuesToDetails(r.error?.issues ?? [])).toEqual({ 'recipient.countryCode': ['Country "XX" is not an ISO 3166-1 country code'] });
  });
});

describe('Commodity.countryOfManufacture uses the same list, naming its field', () => {
  const commodity = (countryOfManufacture: string) => ({
    description: 'Tazza in ceramica',
    quantity: 2,
    unitValue: { amount: 12 },
    weight: { value: 0.4 },
    countryOfManufacture,
  });

  it('accepts a real code and upper-cases it', () => {
    expect(Commodity.parse(commodity('it')).countryOfManufacture).toBe('IT');
  });

  it.each(['XX', 'ITA'])('refuses %j with one message on countryOfManufacture', (c) => {
    const details = issuesToDetails(Commodity.safeParse(commodity(c)).error?.issues ?? []);
    expect(Object.keys(details)).toEqual(['countryOfManufacture']);
    expect(details.countryOfManufacture).toHaveLength(1);
    expect(details.countryOfManufacture?.[0]).toMatch(/^Country of manufacture /);
  });
});
