/**
 * Validation messages people read (shared/platform/messages.ts): zod's
 * default wording never reaches a client; each message names the field and
 * what is allowed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesToDetails, ManifestRequest, PageQuery, ShipmentRequest, StockActionRequest, WebhookCreateRequest, fieldName } from '../../../shared/platform';

const details = (schema: z.ZodType, v: unknown) => {
  const r = schema.safeParse(v);
  if (r.success) throw new Error('expected a failure');
  return issuesToDetails(r.error.issues);
};
const party = { name: 'Giulia', address: { street: 'Via Roma 1', city: 'Milano', postalCode: '20123', countryCode: 'IT' } };
const parcel = { weight: { value: 1 }, dimensions: { length: 10, width: 10, height: 10 } };
const zodDefault = /Invalid (option|input)|expected .*, received|Too (small|big)/;

describe('validation messages', () => {
  it('names the field and the allowed values of an enum', () => {
    const d = details(ShipmentRequest, { recipient: party, packages: [parcel], options: { labelFormat: 'GIF' } });
    expect(d['options.labelFormat']).toEqual(['labelFormat must be one of: PDF, ZPL (got "GIF")']);
  });

  it('says which type a field takes instead of "expected number, received string"', () => {
    const d = details(ShipmentRequest, {
      recipient: party,
      packages: [{ ...parcel, weight: { value: '1.5' }, value: 'ten' }],
      options: { notes: 5, pickupFromAddress: 'yes', accessoryServices: ['x'] },
    });
    expect(d['packages.0.weight.value']).toEqual(['Weight must be a number (in KG or G), not text']);
    expect(d['packages.0.value']).toEqual(['value must be a number, not text']);
    expect(d['options.notes']).toEqual(['notes must be text, not a number']);
    expect(d['options.pickupFromAddress']).toEqual(['pickupFromAddress must be true or false, not text']);
    expect(d['options.accessoryServices.0']).toEqual(['Item 1 of accessoryServices must be a number, not text']);
  });

  it('says "is required" for a missing field and keeps the schemas\' own messages', () => {
    const d = details(ShipmentRequest, { recipient: { address: party.address }, packages: [{ dimensions: parcel.dimensions, weight: {} }] });
    expect(d['recipient.name']).toEqual(['Name is required']);
    expect(d['packages.0.weight.value']).toEqual(['Weight is required']);
    expect(details(ShipmentRequest, { recipient: party, packages: [] }).packages).toEqual(['At least one package is required']);
  });

  it('words the other checks without zod defaults: lists, unknown fields, discriminators, integers', () => {
    expect(details(ManifestRequest, { shipmentIds: ['a', 2.5] })).toEqual({
      'shipmentIds.0': ['Item 1 of shipmentIds must be a number, not text'],
      'shipmentIds.1': ['Item 2 of shipmentIds must be a whole number (got 2.5)'],
    });
    expect(details(StockActionRequest, { action: 'redeliver', when: 'now' })).toEqual({ _: ['Unknown field: when'] });
    expect(details(WebhookCreateRequest, { url: 'https://example.com/h', events: ['tracking.update'], description: 7 }).description).toEqual(['Description must be a string']);
    expect(details(PageQuery, { per_page: 'many' }).per_page).toEqual(['per_page must be an integer']);
    const all = [
      details(ShipmentRequest, { recipient: 1, packages: 'x', options: { cod: { amount: 'x', currency: 5 } } }),
      details(z.object({ n: z.number().int().max(3), s: z.string().min(2), l: z.array(z.string()).max(1), e: z.email(), k: z.literal('k') }), { n: 4, s: 'a', l: ['a', 'b'], e: 'no', k: 'j' }),
    ].flatMap((d) => Object.values(d).flat());
    for (const m of all) expect(m).not.toMatch(zodDefault);
    expect(all).toEqual(
      expect.arrayContaining(['n must be at most 3', 's must be at least 2 characters', 'l must have at most 1 items', 'e must be an e-mail address', 'k must be k (got "j")']),
    );
  });

  it('names the field from the issue path', () => {
    expect(fieldName(['options', 'labelFormat'])).toBe('labelFormat');
    expect(fieldName(['orders', 0, 'items', 2])).toBe('Item 3 of items');
    expect(fieldName([])).toBe('The request body');
  });
});
