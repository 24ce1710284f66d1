/**
 * The generic walk and encoding under the sandbox's state file and reset
 * (persist.ts), over any object graph so fields added later (by any module)
 * are picked up without edits here.
 *
 * The state is walked from the root. Each own field is, by its value:
 * - data: primitives, `Date`, arrays, `Map`, `Set`, plain objects, byte
 *   arrays, nested to any depth, containing only data ("pure") — saved to the
 *   state file and replaced on reset (collections refilled in place, so a
 *   module holding the old array or map sees the new content);
 * - an instance of one of the sandbox's classes (the lifecycle, the webhook
 *   service, the clock, ...) — the object itself is kept and its own fields
 *   are walked the same way (so their collections are saved too);
 * - a function, a Node built-in (timers, promises, abort controllers,
 *   emitters) or data holding one (e.g. a listener set) — left as it is.
 * Top-level `tokens` is never walked (access tokens die with the process).
 *
 * The encoding keeps object identity across the whole state (a shipment in
 * `shipments`, in the tracking index and in a lifecycle journey is one object
 * again after loading) and tags what JSON cannot hold with `{"$t": ...}`:
 * `Date`, `Map`, `Set`, `undefined`, non-finite numbers, bytes; `Instance`
 * marks a walked class instance.
 */
import { EventEmitter } from 'node:events';

/** Top-level fields never saved nor reset (see the module comment). */
const TRANSIENT_FIELDS: ReadonlyArray<string> = ['tokens'];

/** What a value is, for persistence and reset. */
export type FieldKind = 'data' | 'function' | 'instance' | 'opaque';

const probeTimer = setTimeout(() => undefined, 0);
clearTimeout(probeTimer);
const probeImmediate = setImmediate(() => undefined);
clearImmediate(probeImmediate);

/** Node and JavaScript built-ins that hold no sandbox state of their own. */
const OPAQUE: ReadonlyArray<abstract new (...args: never[]) => unknown> = [
  EventEmitter,
  Promise,
  AbortController,
  AbortSignal,
  WeakMap,
  WeakSet,
  WeakRef,
  RegExp,
  Error,
  probeTimer.constructor as abstract new (...args: never[]) => unknown,
  probeImmediate.constructor as abstract new (...args: never[]) => unknown,
];

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Kind of a value (see the module comment). */
export function fieldKind(v: unknown): FieldKind {
  if (typeof v === 'function') return 'function';
  if (typeof v === 'symbol') return 'opaque';
  if (v === null || typeof v !== 'object') return 'data';
  if (Array.isArray(v) || v instanceof Date || v instanceof Map || v instanceof Set || v instanceof Uint8Array || isPlainObject(v)) return 'data';
  if (OPAQUE.some((c) => v instanceof c)) return 'opaque';
  return 'instance';
}

/** true when `v` is data made only of data (no function, instance or built-in anywhere inside). */
export function isPureData(v: unknown, memo = new Map<object, boolean>()): boolean {
  if (fieldKind(v) !== 'data') return false;
  if (v === null || typeof v !== 'object') return true;
  const known = memo.get(v);
  if (known !== undefined) return known;
  memo.set(v, true); // optimistic on cycles
  let pure = true;
  if (v instanceof Map) {
    for (const [k, x] of v) if (!isPureData(k, memo) || !isPureData(x, memo)) pure = false;
  } else if (v instanceof Set || Array.isArray(v)) {
    for (const x of v as Iterable<unknown>) if (!isPureData(x, memo)) pure = false;
  } else if (!(v instanceof Date) && !(v instanceof Uint8Array)) {
    for (const x of Object.values(v)) if (!isPureData(x, memo)) pure = false;
  }
  memo.set(v, pure);
  return pure;
}

// ---- walking the state ----

/** A walked object (the state or one of its class instances): its fields in order. */
interface HolderPlan {
  fields: Array<[string, HolderPlan | { data: unknown }]>;
}

function planHolder(holder: object, path: string, seen: Set<object>, kept: string[], memo: Map<object, boolean>, top: boolean, skip?: ReadonlySet<string>): HolderPlan {
  const fields: HolderPlan['fields'] = [];
  const rec = holder as Record<string, unknown>;
  for (const key of Object.keys(holder)) {
    if (top && TRANSIENT_FIELDS.includes(key)) continue;
    const p = path ? `${path}.${key}` : key;
    if (skip?.has(p)) continue;
    const v = rec[key];
    const kind = fieldKind(v);
    if (kind === 'function' || kind === 'opaque') continue;
    if (kind === 'instance') {
      const inst = v as object;
      if (seen.has(inst)) continue; // back-reference (e.g. lifecycle.state)
      seen.add(inst);
      fields.push([key, planHolder(inst, p, seen, kept, memo, false, skip)]);
      continue;
    }
    if (!isPureData(v, memo)) {
      kept.push(p);
      continue;
    }
    fields.push([key, { data: v }]);
  }
  return { fields };
}

// ---- identity-keeping tagged JSON ----

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Objects kept outside an encoding, with their keys (a `Map` or a `WeakMap`; see {@link encodeState}). */
export interface ExternalObjects {
  get(o: object): string | undefined;
  has(o: object): boolean;
}

/** Encoded state: the JSON, and the paths of fields left live (not saved). */
export interface EncodedState {
  json: Json;
  kept: string[];
}

/**
 * Encodes the saveable part of `root` (an object whose fields are walked as
 * described in the module comment) as JSON.
 * @param external objects kept elsewhere (e.g. one row each in state-db.ts):
 *   each is written as `{"$ext": key}` and not walked; {@link restoreInto}
 *   and {@link decodeFields} put the object given by their `resolve` back.
 * @param skip paths of fields (`lifecycle.journeys`) left out of the JSON, e.g.
 *   because the caller keeps them another way and rebuilds them.
 */
export function encodeState(root: object, external?: ExternalObjects, skip?: ReadonlySet<string>): EncodedState {
  const kept: string[] = [];
  const seen = new Set<object>([root]);
  // Objects kept elsewhere are data by contract: not walked here.
  const memo = new Map<object, boolean>();
  if (external) memo.get = (o: object) => (external.has(o) ? true : Map.prototype.get.call(memo, o) as boolean | undefined);
  const plan = planHolder(root, '', seen, kept, memo, true, skip);

  const counts = new Map<object, number>();
  const count = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || external?.has(v)) return;
    const n = counts.get(v) ?? 0;
    counts.set(v, n + 1);
    if (n > 0) return;
    if (v instanceof Map) {
      for (const [k, x] of v) {
        count(k);
        count(x);
      }
    } else if (v instanceof Set || Array.isArray(v)) for (const x of v as Iterable<unknown>) count(x);
    else if (!(v instanceof Date) && !(v instanceof Uint8Array)) for (const x of Object.values(v)) count(x);
  };
  const countPlan = (h: HolderPlan): void => {
    for (const [, f] of h.fields) {
      if ('fields' in f) countPlan(f);
      else count(f.data);
    }
  };
  countPlan(plan);

  const ids = new Map<object, number>();
  let nextId = 0;
  const enc = (v: unknown): Json => {
    if (v === undefined) return { $t: 'undefined' };
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : { $t: 'number', v: String(v) };
    if (typeof v === 'bigint') return { $t: 'bigint', v: v.toString() };
    const o = v as object;
    const ext = external?.get(o);
    if (ext !== undefined) return { $ext: ext };
    const seenId = ids.get(o);
    if (seenId !== undefined) return { $ref: seenId };
    const shared = (counts.get(o) ?? 0) > 1;
    const idPart: { $id?: number } = {};
    if (shared) {
      idPart.$id = nextId++;
      ids.set(o, idPart.$id);
    }
    if (o instanceof Date) return { $t: 'Date', ...idPart, v: Number.isNaN(o.getTime()) ? null : o.toISOString() };
    if (o instanceof Uint8Array) return { $t: Buffer.isBuffer(o) ? 'Buffer' : 'Bytes', ...idPart, v: Buffer.from(o.buffer, o.byteOffset, o.byteLength).toString('base64') };
    if (o instanceof Map) return { $t: 'Map', ...idPart, v: [...o].map(([k, x]) => [enc(k), enc(x)]) };
    if (o instanceof Set) return { $t: 'Set', ...idPart, v: [...o].map(enc) };
    if (Array.isArray(o)) {
      const items = o.map((x: unknown) => enc(x));
      return shared ? { $t: 'Array', ...idPart, v: items } : items;
    }
    const obj: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(o)) obj[k] = enc(x);
    return shared || '$t' in obj || '$ref' in obj || '$ext' in obj ? { $t: 'Object', ...idPart, v: obj } : obj;
  };
  const encHolder = (h: HolderPlan): { [k: string]: Json } => {
    const out: { [k: string]: Json } = {};
    for (const [key, f] of h.fields) out[key] = 'fields' in f ? { $t: 'Instance', v: encHolder(f) } : enc(f.data);
    return out;
  };
  return { json: encHolder(plan), kept };
}

/** A decoded `Instance`: the fields to put into the live object at the same place. */
class HolderNode {
  constructor(readonly fields: Record<string, unknown>) {}
}

/** Gives the object an `{"$ext": key}` stands for (see {@link encodeState}); throws when the key is unknown. */
export type ExternalResolver = (key: string) => object;

/**
 * Decodes JSON written by {@link encodeState}.
 * @throws Error on an unknown tag, a `$ref` to an unknown id, or an `$ext` without a resolver.
 */
function decodeState(json: Json, resolve?: ExternalResolver): HolderNode {
  const byId = new Map<number, unknown>();
  const dec = (j: Json): unknown => {
    if (j === null || typeof j !== 'object') return j;
    if (Array.isArray(j)) return j.map(dec);
    if (typeof j.$ext === 'string' && Object.keys(j).length === 1) {
      if (!resolve) throw new Error(`external object $ext "${j.$ext}" without a resolver`);
      return resolve(j.$ext);
    }
    if (typeof j.$ref === 'number' && Object.keys(j).length === 1) {
      if (!byId.has(j.$ref)) throw new Error(`reference to unknown object $ref ${j.$ref}`);
      return byId.get(j.$ref);
    }
    const tag = j.$t;
    if (tag === undefined) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(j)) o[k] = dec(x);
      return o;
    }
    const id = typeof j.$id === 'number' ? j.$id : undefined;
    const keep = <T>(v: T): T => {
      if (id !== undefined) byId.set(id, v);
      return v;
    };
    const inner = j.v;
    const list = (): Json[] => (Array.isArray(inner) ? inner : []);
    const record = (): { [k: string]: Json } => (inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : {});
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'number':
        return Number(inner);
      case 'bigint':
        return BigInt(String(inner));
      case 'Date':
        return keep(new Date(typeof inner === 'string' ? inner : NaN));
      case 'Buffer':
        return keep(Buffer.from(String(inner), 'base64'));
      case 'Bytes':
        return keep(new Uint8Array(Buffer.from(String(inner), 'base64')));
      case 'Map': {
        const m = keep(new Map<unknown, unknown>());
        for (const e of list()) {
          const [k = null, x = null] = Array.isArray(e) ? e : [];
          m.set(dec(k), dec(x));
        }
        return m;
      }
      case 'Set': {
        const s = keep(new Set<unknown>());
        for (const x of list()) s.add(dec(x));
        return s;
      }
      case 'Array': {
        const a = keep([] as unknown[]);
        for (const x of list()) a.push(dec(x));
        return a;
      }
      case 'Object': {
        const o = keep({} as Record<string, unknown>);
        for (const [k, x] of Object.entries(record())) o[k] = dec(x);
        return o;
      }
      case 'Instance': {
        const fields: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(record())) fields[k] = dec(x);
        return new HolderNode(fields);
      }
      default:
        throw new Error(`unknown tag $t "${String(tag)}"`);
    }
  };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('fields must be an object');
  const fields: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(json)) fields[k] = dec(x);
  return new HolderNode(fields);
}

function shapeOf(v: unknown): string {
  if (v === null || v === undefined) return 'nullish';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'map';
  if (v instanceof Set) return 'set';
  if (v instanceof Date) return 'date';
  return typeof v;
}

/**
 * Puts `value` into `holder[key]`: arrays, maps, sets and plain objects are
 * refilled in place when the live value has the same shape; other values are assigned.
 */
function putField(holder: object, key: string, value: unknown): void {
  const rec = holder as Record<string, unknown>;
  const cur = rec[key];
  if (Array.isArray(cur) && Array.isArray(value)) cur.splice(0, cur.length, ...(value as unknown[]));
  else if (cur instanceof Map && value instanceof Map) {
    cur.clear();
    for (const [k, v] of value) cur.set(k, v);
  } else if (cur instanceof Set && value instanceof Set) {
    cur.clear();
    for (const v of value) cur.add(v);
  } else if (cur !== null && typeof cur === 'object' && isPlainObject(cur) && value !== null && typeof value === 'object' && isPlainObject(value)) {
    for (const k of Object.keys(cur)) delete (cur as Record<string, unknown>)[k];
    Object.assign(cur, value);
  } else rec[key] = value;
}

/** Puts decoded fields into the live objects; returns the paths not applied (gone, kind or shape changed). */
function applyHolder(live: object, node: HolderNode, path: string, seen: Set<object>, top: boolean): string[] {
  const ignored: string[] = [];
  const rec = live as Record<string, unknown>;
  for (const [key, value] of Object.entries(node.fields)) {
    const p = path ? `${path}.${key}` : key;
    if ((top && TRANSIENT_FIELDS.includes(key)) || !Object.prototype.hasOwnProperty.call(live, key)) {
      ignored.push(p);
      continue;
    }
    const cur = rec[key];
    if (value instanceof HolderNode) {
      if (fieldKind(cur) !== 'instance' || seen.has(cur as object)) ignored.push(p);
      else {
        seen.add(cur as object);
        ignored.push(...applyHolder(cur as object, value, p, seen, false));
      }
      continue;
    }
    const curShape = shapeOf(cur);
    const newShape = shapeOf(value);
    if (!isPureData(cur) || (curShape !== newShape && curShape !== 'nullish' && newShape !== 'nullish')) {
      ignored.push(p);
      continue;
    }
    putField(live, key, value);
  }
  return ignored;
}

/**
 * Puts JSON written by {@link encodeState} back into the live object `root`
 * (walked the same way; fields gone, or of another kind or shape now, are skipped).
 * @returns paths of the encoded fields that were not applied.
 * @throws Error when the JSON is damaged (unknown tag, dangling `$ref`).
 */
export function restoreInto(root: object, json: Json, resolve?: ExternalResolver): string[] {
  return applyHolder(root, decodeState(json, resolve), '', new Set([root]), true);
}

/**
 * Decodes JSON written by {@link encodeState} for a plain root (e.g. one
 * row `{shipment, journey}` of state-db.ts) into its fields, with identity
 * kept inside it.
 * @throws Error when the JSON is damaged (unknown tag, dangling `$ref`).
 */
export function decodeFields(json: Json, resolve?: ExternalResolver): Record<string, unknown> {
  return decodeState(json, resolve).fields;
}
