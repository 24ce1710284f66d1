/**
 * Wording of validation messages that people read (the sandbox's 422
 * `details`, the station's field errors), installed once as zod's global
 * error map (`z.config({customError})`). Schemas that give their own message
 * keep it; this map replaces zod's defaults (`Invalid option: expected one of
 * "PDF"|"ZPL"`, `Invalid input: expected number, received string`) with
 * sentences that name the field and what is allowed, like the rest of the
 * API's messages: `labelFormat must be one of: PDF, ZPL (got "GIF")`,
 * `value must be a number, not text`.
 *
 * The field is the last named segment of the issue path (`options.labelFormat`
 * -> `labelFormat`; `packages.0.value` -> `value`); the full path is already
 * the `details` key. An issue at the root is worded for "The request body".
 */
import { z } from 'zod';

/** A short rendering of a received value for a message: strings quoted and cut at 40 characters. */
function shown(v: unknown): string {
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** What a received value is, in words ("text", "a number", "a list", ...). */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return 'text';
    case 'number':
      return Number.isNaN(v) ? 'not a number' : 'a number';
    case 'boolean':
      return 'true/false';
    case 'object':
      return 'an object';
    default:
      return typeof v;
  }
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  null: 'null',
};

/**
 * The field an issue is about, for the start of a sentence: the last named
 * path segment (`options.labelFormat` -> `labelFormat`), an item of a list
 * as `Item 2 of shipmentIds` (`shipmentIds.1`), the root as "The request body".
 */
export function fieldName(path: ReadonlyArray<PropertyKey>): string {
  const last = path[path.length - 1];
  if (typeof last === 'number') {
    const owner = [...path].reverse().find((p): p is string => typeof p === 'string');
    return owner ? `Item ${last + 1} of ${owner}` : `Item ${last + 1}`;
  }
  for (let i = path.length - 1; i >= 0; i--) {
    const p = path[i];
    if (typeof p === 'string') return p;
  }
  return 'The request body';
}

/** Values of an enum or literal, as the message lists them. */
function listed(values: ReadonlyArray<unknown>): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

/**
 * Message for a zod issue that has none of its own, or undefined to keep
 * zod's (for the rare codes not worded here).
 */
function platformMessage(iss: z.core.$ZodRawIssue): string | undefined {
  const field = fieldName(iss.path ?? []);
  switch (iss.code) {
    case 'invalid_type': {
      const expected = EXPECTED[iss.expected] ?? iss.expected;
      if (iss.input === undefined) return `${field} is required`;
      if (iss.expected === 'int' && typeof iss.input === 'number') return `${field} must be a whole number (got ${iss.input})`;
      return `${field} must be ${expected}, not ${kindOf(iss.input)}`;
    }
    case 'invalid_value':
      if (iss.values.length === 1) return `${field} must be ${listed(iss.values)}${iss.input === undefined ? '' : ` (got ${shown(iss.input)})`}`;
      return `${field} must be one of: ${listed(iss.values)}${iss.input === undefined ? '' : ` (got ${shown(iss.input)})`}`;
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string') return iss.exact ? `${field} must be exactly ${min} characters` : min <= 1 ? `${field} cannot be empty` : `${field} must be at least ${min} characters`;
      if (iss.origin === 'array' || iss.origin === 'set') return iss.exact ? `${field} must have exactly ${min} items` : `${field} must have at least ${min} item${min === 1 ? '' : 's'}`;
      return iss.inclusive === false ? `${field} must be greater than ${min}` : `${field} must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return iss.exact ? `${field} must be exactly ${max} characters` : `${field} must be at most ${max} characters`;
      if (iss.origin === 'array' || iss.origin === 'set') return `${field} must have at most ${max} items`;
      return iss.inclusive === false ? `${field} must be less than ${max}` : `${field} must be at most ${max}`;
    }
    case 'invalid_format':
      if (iss.format === 'email') return `${field} must be an e-mail address`;
      if (iss.format === 'datetime') return `${field} must be an ISO 8601 date-time with offset, e.g. 2026-09-14T10:00:00+02:00`;
      if (iss.format === 'date') return `${field} must be a date YYYY-MM-DD`;
      if (iss.format === 'url') return `${field} must be a URL`;
      if (iss.format === 'regex') return `${field} has the wrong format`;
      return `${field} must be a valid ${iss.format}`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${String(iss.divisor)}`;
    case 'unrecognized_keys':
      return `Unknown field${iss.keys.length === 1 ? '' : 's'}${iss.path && iss.path.length > 0 ? ` in ${field}` : ''}: ${iss.keys.join(', ')}`;
    case 'invalid_union':
      if (iss.discriminator !== undefined && Array.isArray(iss.options) && iss.options.length > 0) return `${iss.discriminator} must be one of: ${listed(iss.options as unknown[])}`;
      return `${field} does not match any accepted form`;
    case 'invalid_key':
      return `${field} has an invalid key`;
    case 'invalid_element':
      return `${field} has an invalid item`;
    default:
      return undefined;
  }
}

z.config({ customError: platformMessage });
