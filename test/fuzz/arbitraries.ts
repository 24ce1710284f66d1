/**
 * fast-check arbitraries for station command inputs, derived from each
 * command's zod schema (shared/contract/commands.ts) through zod 4's
 * `z.toJSONSchema` (JSON Schema 2020-12, input side). Inputs are mostly
 * well-shaped, so the fuzz reaches the handlers and the platform, and are
 * salted with what real users and hostile pages send: prototype names as
 * keys and values, control characters, denormal and huge numbers, device
 * addresses under /proc and /sys.
 *
 * Safety: this machine may send traffic only to loopback. Strings of fields
 * whose name says address (`uri`, `url`, `printerUri`, `baseUrl`, `authUrl`,
 * `folder`, `path`) are drawn only from {@link SAFE_ADDRESSES}: loopback
 * sockets on closed ports, temp folders and the hostile local paths the
 * station must refuse.
 */
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';

/** A JSON Schema node as `z.toJSONSchema` writes it (the subset read here). */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
}

const FUZZ_DIR = path.join(os.tmpdir(), 'station-fuzz-out');

/** Device and platform addresses the fuzz may use: loopback, temp folders, and local paths that must be refused. */
const SAFE_ADDRESSES: readonly string[] = [
  `file://${FUZZ_DIR}`,
  `file://${FUZZ_DIR}/../fuzz-other`,
  'file:////proc/x',
  'file://localhost//proc/x',
  'file:///tmp/../proc/x',
  'file:////sys/x',
  'file:///dev/null',
  'socket://127.0.0.1:1',
  'socket://localhost:1',
  'tcp://127.0.0.1:1',
  'usb://Zebra/ZD421?serial=FUZZ',
  'printer:fuzz-queue',
  'http://127.0.0.1:1/api/2026-09',
  'https://127.0.0.1:1/api/2026-09',
  '',
  ' ',
  'not a uri',
  '__proto__',
];

const ADDRESS_KEY = /(uri|url|folder|path|dir)$/i;

/** Strings that broke stations before: prototype names, control bytes (ESC p, GS V), printer commands, odd Unicode. */
const HOSTILE_STRINGS: readonly string[] = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '',
  ' ',
  '\u001bp\u0000\u0019\u00fa',
  'Rossi\u001dV\u0001',
  '^XA^FO0,0^FDx^FS^XZ',
  '~JA',
  '\u0085\u009b',
  '\u202eevil',
  '#2236',
  '1e309',
  'NaN',
  '-1',
  '../../../etc/passwd',
  "'; DROP TABLE orders; --",
  '%s%n',
  '😀'.repeat(3),
];

/** Numbers that broke stations before: denormals, zero signs, huge, fractional money. */
const HOSTILE_NUMBERS: readonly number[] = [5e-324, 0, -0, -1, 1e-9, 0.1 + 0.2, 1e308, 2 ** 53, 999.999, 1000.0001, 70, 0.001];

/** Draws a value of `schema` (`root` holds `$defs`), salted with hostile values at rate about 1 in `saltEvery`. */
function fromSchema(schema: JsonSchema, root: JsonSchema, key: string, saltEvery: number): fc.Arbitrary<unknown> {
  const exact = exactFromSchema(schema, root, key, saltEvery);
  const salt = fc.oneof(fc.constantFrom<unknown>(...HOSTILE_STRINGS), fc.constantFrom<unknown>(...HOSTILE_NUMBERS), fc.constant(null));
  return fc.oneof({ arbitrary: exact, weight: saltEvery - 1 }, { arbitrary: salt, weight: 1 });
}

function exactFromSchema(schema: JsonSchema, root: JsonSchema, key: string, saltEvery: number): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = root.$defs?.[name];
    return target ? fc.constant(null).chain(() => exactFromSchema(target, root, key, saltEvery)) : fc.anything();
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => exactFromSchema(s, root, key, saltEvery)));
  if (schema.allOf?.length) return exactFromSchema(Object.assign({}, ...schema.allOf) as JsonSchema, root, key, saltEvery);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectFrom(schema, root, saltEvery);
    case 'array': {
      const item = schema.items ?? {};
      const max = Math.min(schema.maxItems ?? 4, 4);
      return fc.array(fromSchema(item, root, key, saltEvery), { minLength: Math.min(schema.minItems ?? 0, max), maxLength: max });
    }
    case 'string':
      return stringFrom(schema, key);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? (schema.exclusiveMinimum ?? -1000) + 1, -1_000_000), max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1000;
      return fc.oneof(fc.double({ min: Math.max(min, -1e6), max: Math.min(max, 1e6), noNaN: true, noDefaultInfinity: true }), fc.integer({ min: Math.ceil(Math.max(min, 0)), max: Math.floor(Math.min(max, 100)) }));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

function objectFrom(schema: JsonSchema, root: JsonSchema, saltEvery: number): fc.Arbitrary<unknown> {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(props)) model[k] = fromSchema(s, root, k, saltEvery);
  const known = Object.keys(props).length ? fc.record(model, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) }) : fc.constant({});
  // Now and then a key the schema does not know, prototype names first.
  const extra = fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString', 'extra'), fc.string({ maxLength: 8 })), { freq: 8 });
  return fc.tuple(known, extra).map(([o, e]) => {
    if (!e) return o;
    const copy: Record<string, unknown> = { ...(o as Record<string, unknown>) };
    Object.defineProperty(copy, e[0], { value: e[1], enumerable: true, writable: true, configurable: true });
    return copy;
  });
}

function stringFrom(schema: JsonSchema, key: string): fc.Arbitrary<string> {
  if (ADDRESS_KEY.test(key)) return fc.constantFrom(...SAFE_ADDRESSES);
  const maxLength = Math.min(schema.maxLength ?? 40, 60);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  const hostile = fc.constantFrom(...HOSTILE_STRINGS);
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    const matching = fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? 1000));
    return fc.oneof({ arbitrary: matching, weight: 4 }, { arbitrary: hostile, weight: 1 });
  }
  if (schema.format === 'date') return fc.oneof(fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), hostile);
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), hostile);
  const text = fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'binary' }), fc.stringMatching(/^[A-Za-z0-9 #-]{1,12}$/));
  return fc.oneof({ arbitrary: text, weight: 3 }, { arbitrary: hostile, weight: 1 });
}

/**
 * An arbitrary of raw inputs for a command whose input schema is `schema`:
 * mostly shaped as the schema says, about one leaf in `saltEvery` a hostile value.
 */
export function inputArbitrary(schema: z.ZodType, saltEvery = 12): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromSchema(json, json, '', saltEvery);
}
