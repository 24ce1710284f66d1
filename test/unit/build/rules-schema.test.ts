/**
 * The rules file's JSON Schema (shared/schemas/rules.schema.json) is generated
 * from the zod schema (build/rules-schema.ts): the committed file is what the
 * generator gives now, and it still says what the hand-written one said where
 * the tests of the rules file look (device URI schemes from the one table).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { RULES_SCHEMA_PATH, rulesSchemaText } from '../../../build/rules-schema';
import { DEVICE_URI_SCHEMES } from '../../../shared/print/device-uri-schemes';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

describe('rules file JSON Schema', () => {
  it('is the generated one: run node --import tsx build/rules-schema.ts after changing shared/contract/rules.ts', () => {
    expect(readFileSync(path.join(ROOT, RULES_SCHEMA_PATH), 'utf8')).toBe(rulesSchemaText());
  });

  it('takes a label printer of every scheme of the table, any case, blanks around; refuses other text', () => {
    const validate = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true }).compile(JSON.parse(rulesSchemaText()) as object);
    const file = (printer: string) => ({ version: 1, rules: [{ name: 'r', then: { printer } }] });
    for (const s of DEVICE_URI_SCHEMES) {
      expect(validate(file(s.example)), s.example).toBe(true);
      expect(validate(file(` ${s.example.toUpperCase()} `)), s.example).toBe(true);
    }
    for (const bad of ['Zebra 203', 'lpd://host/queue', 'file://relative', 'socket://', 'printer:']) expect(validate(file(bad)), bad).toBe(false);
  });
});
