/**
 * The rules file (issue 24 item 2): the example and a warehouse's
 * file import, pass the JSON Schema of the repo and keep unknown fields;
 * bad files are refused naming the rule's number and field; files and saved
 * rules of earlier versions (`customs.countryOfManufacture`) still read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseRulesFile, rulesFileText } from '../../../../electron/core/rules/file';
import { decideFor } from '../../../../electron/core/rules/handlers';
import { defineSetting, openStore } from '../../../../electron/core/store';
import { StationError } from '../../../../shared/contract/errors';
import { rulePrinterUri } from '../../../../shared/contract/rules';
import type { StationOrder } from '../../../../shared/domain/order';

const root = join(__dirname, '../../../..');
const fixture = (name: string) => readFileSync(join(root, 'test/fixtures/rules', name), 'utf8');
const schema = JSON.parse(readFileSync(join(root, 'shared/schemas/rules.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true }).compile(schema);

function refusal(content: string): StationError {
  try {
    parseRulesFile(content);
  } catch (e) {
    if (e instanceof StationError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('rules file', () => {
  it('imports the issue example with defaults, and it passes the JSON Schema', () => {
    const text = fixture('issue-example.json');
    expect(validate(JSON.parse(text))).toBe(true);
    expect(parseRulesFile(text)).toEqual({ version: 1, rules: [{ name: 'Italia', enabled: true, when: { countries: ['IT'] }, then: { rate: 'cheapest', shipByItself: true } }] });
  });

  it('imports a warehouse file using every condition and action, keeping unknown fields, and round-trips', () => {
    const text = fixture('warehouse.json');
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
    const file = parseRulesFile(text);
    expect(file.rules.map((r) => [r.name, r.enabled])).toEqual([
      ['Livigno', true],
      ['Contrassegno', true],
      ['Italia fino a 5 kg', true],
      ['Italia pesante', false],
      ['Milano', true],
    ]);
    expect((file as Record<string, unknown>)['x-owner']).toBe('warehouse');
    expect((file.rules[4]?.then as Record<string, unknown>)['x-note']).toBe('kept');
    expect(parseRulesFile(rulesFileText(file))).toEqual(file);
    expect(validate(JSON.parse(rulesFileText(file)))).toBe(true);
  });

  it('refuses a bad value naming the rule number, its name and the field; the schema refuses it too', () => {
    const bad = { version: 1, rules: [{ name: 'ok', then: {} }, { name: 'Italia', when: { countries: ['ITA'] }, then: { rate: 'cheapest' } }] };
    expect(validate(bad)).toBe(false);
    const e = refusal(JSON.stringify(bad));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toContain("rule 2 'Italia', field when.countries.0");
    expect(Object.keys(e.details ?? {})).toEqual(['rules.1.when.countries.0']);
  });

  it('refuses a rate that is not cheapest/fastest, both contract and rate, a missing name, a wrong version, not JSON', () => {
    expect(refusal('{"version":1,"rules":[{"name":"a","then":{"rate":"slowest"}}]}').details).toHaveProperty(['rules.0.then.rate']);
    const both = { version: 1, rules: [{ name: 'a', then: { contract: 'X', rate: 'cheapest' } }] };
    expect(validate(both)).toBe(false);
    expect(refusal(JSON.stringify(both)).details).toHaveProperty(['rules.0.then.contract']);
    expect(refusal('{"version":1,"rules":[{"then":{}}]}').message).toContain('rule 1, field name');
    expect(refusal('{"version":2,"rules":[]}').details).toHaveProperty(['version']);
    expect(refusal('{"version":1,').details).toEqual({ content: ['Not JSON'] });
    const range = { version: 1, rules: [{ name: 'a', when: { weightKg: { min: 5, max: 1 } }, then: {} }] };
    expect(refusal(JSON.stringify(range)).details).toHaveProperty(['rules.0.when.weightKg.min']);
  });

  it('takes a rule\'s label printer as a device URI, refuses one that is not, and keeps reading an old file\'s printerProfile', () => {
    const file = { version: 1, rules: [{ name: 'Grandi', then: { rate: 'cheapest', printer: ' socket://10.0.0.7:9100 ' } }] };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    const parsed = parseRulesFile(JSON.stringify(file));
    expect(parsed.rules[0]?.then.printer).toBe('socket://10.0.0.7:9100');
    expect(parseRulesFile(rulesFileText(parsed))).toEqual(parsed);
    const bad = { version: 1, rules: [{ name: 'ok', then: {} }, { name: 'Grandi', then: { printer: 'Zebra 203' } }] };
    expect(validate(bad)).toBe(false);
    const e = refusal(JSON.stringify(bad));
    expect(e.message).toContain("rule 2 'Grandi', field then.printer");
    expect(Object.keys(e.details ?? {})).toEqual(['rules.1.then.printer']);
    // Files of earlier versions: printerProfile is read and kept; a device URI there names the printer, a name names none.
    const old = parseRulesFile(fixture('warehouse.json'));
    const milano = old.rules[4]?.then;
    expect(milano?.printerProfile).toBe('Zebra 203');
    expect(milano && rulePrinterUri(milano)).toBeNull();
    expect(rulePrinterUri({ printerProfile: 'usb://Zebra/ZD420' })).toBe('usb://Zebra/ZD420');
    expect(rulePrinterUri({ printer: 'printer:Zebra_Big', printerProfile: 'usb://Zebra/ZD420' })).toBe('printer:Zebra_Big');
  });

  it('reads an earlier file\'s customs.countryOfManufacture as originCountry and writes originCountry back; both at once are refused', () => {
    // warehouse.json is a file of an earlier version: its Livigno rule names the country countryOfManufacture.
    const text = fixture('warehouse.json');
    expect((JSON.parse(text) as { rules: Array<{ then: { customs?: object } }> }).rules[0]?.then.customs).toEqual({ contentType: 'MERCHANDISE', countryOfManufacture: 'IT' });
    const old = parseRulesFile(text);
    expect(old.rules[0]?.then.customs).toEqual({ contentType: 'MERCHANDISE', originCountry: 'IT' });
    const written = rulesFileText(old);
    expect(written).not.toContain('countryOfManufacture');
    expect((JSON.parse(written) as { rules: Array<{ then: { customs?: object } }> }).rules[0]?.then.customs).toEqual({ contentType: 'MERCHANDISE', originCountry: 'IT' });
    expect(validate(JSON.parse(written)), JSON.stringify(validate.errors)).toBe(true);
    expect(parseRulesFile(written)).toEqual(old);

    const current = { version: 1, rules: [{ name: 'Svizzera', then: { customs: { originCountry: ' it ', description: 'Ceramica' } } }] };
    expect(validate(current), JSON.stringify(validate.errors)).toBe(true);
    expect(parseRulesFile(JSON.stringify(current)).rules[0]?.then.customs).toEqual({ originCountry: 'IT', description: 'Ceramica' });
    const oldBad = { version: 1, rules: [{ name: 'Svizzera', then: { customs: { countryOfManufacture: 'ITA' } } }] };
    expect(validate(oldBad)).toBe(false);
    expect(Object.keys(refusal(JSON.stringify(oldBad)).details ?? {})).toEqual(['rules.0.then.customs.countryOfManufacture']);
    const both = { version: 1, rules: [{ name: 'Svizzera', then: { customs: { originCountry: 'IT', countryOfManufacture: 'IT' } } }] };
    expect(validate(both)).toBe(false);
    const e = refusal(JSON.stringify(both));
    expect(e.message).toContain("rule 1 'Svizzera', field then.customs.countryOfManufacture");
    expect(Object.keys(e.details ?? {})).toEqual(['rules.0.then.customs.countryOfManufacture']);
  });

  it('loads rules saved by an earlier version (setting rules.document with customs.countryOfManufacture) as originCountry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'station-rules-'));
    const store = openStore(join(dir, 'station.sqlite'));
    try {
      // The document as an earlier station saved it, written as is.
      const raw = defineSetting<unknown>('rules.document', z.unknown(), null);
      store.settings.set(raw, { version: 1, rules: [{ name: 'Extra UE', enabled: true, when: {}, then: { rate: 'cheapest', customs: { contentType: 'GIFT', countryOfManufacture: 'IT' } } }] });
      const order: StationOrder = {
        id: 1,
        shop: 'main',
        orderNumber: '#1001',
        createdAt: '2026-11-26T10:00:00Z',
        source: 'shopify_csv',
        recipient: { name: 'Anna', street: 'Bahnhofstrasse 1', city: 'Zürich', postalCode: '8001', countryCode: 'CH' },
        items: [{ sku: 'TAZ', name: 'Tazza', quantity: 1, unitPrice: 12 }],
        total: 12,
        currency: 'EUR',
        status: 'open',
        paymentStatus: 'paid',
        delivery: 'ship',
        needsFix: [],
      };
      const { decision } = decideFor(store, order, 1);
      expect(decision.rule).toMatchObject({ index: 1, name: 'Extra UE' });
      expect(decision.rule?.then.customs).toEqual({ contentType: 'GIFT', originCountry: 'IT' });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
