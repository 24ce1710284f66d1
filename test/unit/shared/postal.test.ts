import { describe, expect, it } from 'vitest';
import { ITALIAN_CAP_RULE, completePostalCode, isItalianCap, postalCodeProblem, usesItalianCap } from '../../../shared/domain/postal';
import { normalizePostalCode } from '../../../shared/domain/order';
import { Address, AddressFields, issuesToDetails } from '../../../shared/platform/common';
import { RatesRequest, ShipmentParty, ShipmentRequest } from '../../../shared/platform/resources';
import { UnknownItalianZoneError, italianZone, zoneOf } from '../../../electron/sandbox/zones';

const address = (postalCode: string, countryCode = 'IT') => ({ street: 'Via Roma 1', city: 'Sassari', postalCode, countryCode });
const pkg = { weight: { value: 1 }, dimensions: { length: 10, width: 10, height: 10 } };

describe('completePostalCode / postalCodeProblem (shared/domain/postal)', () => {
  it.each([
    ['IT', '184', '00184'],
    ['IT', ' 7100 ', '07100'],
    ['it', '1', '00001'],
    ['SM', '4789', '04789'],
    ['VA', '120', '00120'],
    ['IT', '20123', '20123'],
    ['IT', 'ABCDE', 'ABCDE'],
    ['IT', '123456', '123456'],
    ['AT', '1010', '1010'],
    ['GB', ' SW1A 1AA ', 'SW1A 1AA'],
  ])('%s %j -> %j', (cc, raw, out) => {
    expect(completePostalCode(cc, raw)).toBe(out);
  });

  it('knows the CAP countries and the CAP shape', () => {
    expect(['IT', 'sm', ' VA '].map(usesItalianCap)).toEqual([true, true, true]);
    expect(['FR', 'AT', ''].map(usesItalianCap)).toEqual([false, false, false]);
    expect(isItalianCap('07100')).toBe(true);
    expect(['7100', '0710 0', '071000', 'ABCDE', ''].map(isItalianCap)).toEqual([false, false, false, false, false]);
  });

  it('names the rule for a CAP country only', () => {
    expect(postalCodeProblem('IT', 'ABCDE')).toBe(ITALIAN_CAP_RULE);
    expect(postalCodeProblem('VA', '001200')).toBe(ITALIAN_CAP_RULE);
    expect(postalCodeProblem('IT', '00184')).toBeUndefined();
    expect(postalCodeProblem('CH', 'ABCDE')).toBeUndefined();
  });

  it('normalizePostalCode (order import) keeps its behaviour on top of the helper', () => {
    expect(normalizePostalCode("'00184", 'IT')).toBe('00184');
    expect(normalizePostalCode(" '184 ", 'it')).toBe('00184');
    expect(normalizePostalCode('7890', 'SM')).toBe('07890');
    expect(normalizePostalCode("'SW1A 1AA", 'GB')).toBe('SW1A 1AA');
    expect(normalizePostalCode('', 'IT')).toBe('');
  });
});

describe('Address / RatesRequest CAP rule (shared/platform)', () => {
  it('completes a CAP that lost its leading zeros', () => {
    expect(Address.parse(address('7100')).postalCode).toBe('07100');
    expect(Address.parse(address('120', 'va')).postalCode).toBe('00120');
    const r = RatesRequest.parse({ recipient: { address: { postalCode: '7100', countryCode: 'IT' } }, packages: [pkg] });
    expect(r.recipient.address.postalCode).toBe('07100');
  });

  it.each(['ABCDE', '123456', '00 184', '2O123'])('refuses IT postal code %j at recipient.address.postalCode with one message', (pc) => {
    const s = ShipmentRequest.safeParse({ recipient: { name: 'Anna', address: address(pc) }, packages: [pkg] });
    expect(s.success).toBe(false);
    expect(issuesToDetails(s.error?.issues ?? [])).toEqual({ 'recipient.address.postalCode': [ITALIAN_CAP_RULE] });
    const r = RatesRequest.safeParse({ recipient: { address: { postalCode: pc, countryCode: 'IT' } }, packages: [pkg] });
    expect(issuesToDetails(r.error?.issues ?? [])).toEqual({ 'recipient.address.postalCode': [ITALIAN_CAP_RULE] });
  });

  it('applies the rule to the shipper too, and not to other countries', () => {
    const s = ShipmentRequest.safeParse({ recipient: { name: 'Anna', address: address('20123') }, shipper: { name: 'Shop', address: address('X') }, packages: [pkg] });
    expect(issuesToDetails(s.error?.issues ?? [])).toEqual({ 'shipper.address.postalCode': [ITALIAN_CAP_RULE] });
    expect(Address.parse(address('SW1A 1AA', 'GB')).postalCode).toBe('SW1A 1AA');
    expect(Address.parse(address('8001', 'CH')).postalCode).toBe('8001');
  });

  it('reports the CAP alongside other field problems, and "required" alone for an empty CAP', () => {
    const s = Address.safeParse({ ...address('ABCDE'), street: '' });
    expect(issuesToDetails(s.error?.issues ?? [])).toEqual({ street: ['Street is required'], postalCode: [ITALIAN_CAP_RULE] });
    expect(issuesToDetails(Address.safeParse(address('')).error?.issues ?? [])).toEqual({ postalCode: ['Postal code is required'] });
  });

  it('leaves answers as the platform gives them (AddressFields, ShipmentParty)', () => {
    expect(AddressFields.parse(address('184')).postalCode).toBe('184');
    expect(ShipmentParty.parse({ address: { postalCode: 'ABCDE', countryCode: 'IT' } }).address.postalCode).toBe('ABCDE');
  });
});

describe('sandbox italianZone never guesses mainland', () => {
  it('completes the CAP before zoning it (Sassari 7100 is Sardinia)', () => {
    expect(italianZone('7100')).toBe('italy_sardinia');
    expect(zoneOf('IT', '7100')).toBe('italy_sardinia');
    expect(italianZone('184')).toBe('italy');
  });

  it('falls back to a real province only', () => {
    expect(italianZone('', 'Catania')).toBe('italy_calabria_sicily');
    expect(italianZone('x', 'ss')).toBe('italy_sardinia');
    expect(italianZone('', 'MI')).toBe('italy');
  });

  it.each([
    ['ABCDE', undefined],
    ['123456', undefined],
    ['', undefined],
    ['ABCDE', 'XY'],
  ])('throws UnknownItalianZoneError for CAP %j / province %j', (cap, prov) => {
    expect(() => italianZone(cap, prov)).toThrow(UnknownItalianZoneError);
    expect(() => zoneOf('it', cap, prov)).toThrow(/Italian postal code \(CAP\) must be 5 digits/);
  });
});
