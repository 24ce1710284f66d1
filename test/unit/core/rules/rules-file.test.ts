/**
 * The rules file (issue 24 item 2): the example and a warehouse's
 * file import, pass the JSON Schema of the repo and keep unknown fields;
 * bad files are refused naming the rule's number and field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { parseRulesFile, rulesFileText } from '../../../../electron/core/rules/file';
import { StationError } from '../../../../shared/contract/errors';
import { rulePrinterUri } from '../../../../shared/contract/rules';

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
});
