import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../../../shared/contract/commands';
import { invokeCommand } from '../../../../electron/core/common/invoke';
import { PlatformError } from '../../../../electron/core/platform/errors';
import { StoreError } from '../../../../electron/core/store/errors';
import { stationFailure as failure } from '../../../integration/core/helpers';

/** Handlers that record their input; only the ones a test calls are real. */
function recordingHandlers(overrides: Partial<Record<keyof Handlers, (input: unknown) => Promise<unknown>>> = {}) {
  const calls: Array<{ name: string; input: unknown }> = [];
  const handlers = new Proxy({} as Handlers, {
    get(_t, name: string) {
      return async (input: unknown) => {
        calls.push({ name, input });
        const o = overrides[name as keyof Handlers];
        return o ? o(input) : { ok: name };
      };
    },
  });
  return { handlers, calls };
}

describe('invokeCommand', () => {
  it('refuses a name that is not in the contract', async () => {
    const { handlers, calls } = recordingHandlers();
    const e = await failure(invokeCommand(handlers, 'shipments.delete', {}));
    expect(e.code).toBe('unknown_command');
    const proto = await failure(invokeCommand(handlers, 'toString', {}));
    expect(proto.code).toBe('unknown_command');
    expect(calls).toEqual([]);
  });

  it('parses the input with the command schema and applies defaults', async () => {
    const { handlers, calls } = recordingHandlers();
    await expect(invokeCommand(handlers, 'shipments.recent', undefined)).resolves.toEqual({ ok: 'shipments.recent' });
    await invokeCommand(handlers, 'scan.resolve', { code: '  #1001 ' });
    expect(calls).toEqual([
      { name: 'shipments.recent', input: { limit: 50 } },
      { name: 'scan.resolve', input: { code: '#1001' } },
    ]);
  });

  it('answers invalid_input with details keyed by field path', async () => {
    const { handlers, calls } = recordingHandlers();
    const e = await failure(
      invokeCommand(handlers, 'shipping.quote', {
        request: { recipient: { address: { postalCode: '20121', countryCode: 'ITA' } }, packages: [{ weight: { value: 0 }, dimensions: { length: 10, width: 10, height: 10 } }] },
      }),
    );
    expect(e.code).toBe('invalid_input');
    expect(Object.keys(e.details ?? {}).sort()).toEqual(['request.packages.0.weight.value', 'request.recipient.address.countryCode']);
    expect(e.message).toContain('shipping.quote');
    expect(calls).toEqual([]);
    const empty = await failure(invokeCommand(handlers, 'app.info', { extra: 1 }));
    expect(empty.code).toBe('invalid_input');
  });

  it('passes platform codes and details through unchanged', async () => {
    const details = { 'recipient.address.postalCode': ['Postal code is required'] };
    const { handlers } = recordingHandlers({
      'shipments.cancel': async () => {
        throw new PlatformError(409, 'invalid_state', 'Shipment already in a manifest');
      },
      'credit.get': async () => {
        throw new PlatformError(422, 'validation_failed', 'Invalid data', details);
      },
      'carriers.list': async () => {
        throw new PlatformError(0, 'offline', 'Platform not reachable');
      },
      'orders.page': async () => {
        throw new Error('disk I/O error');
      },
    });
    const a = await failure(invokeCommand(handlers, 'shipments.cancel', { trackingNumber: 'X1' }));
    expect(a.toJSON()).toEqual({ code: 'invalid_state', message: 'Shipment already in a manifest' });
    const b = await failure(invokeCommand(handlers, 'credit.get', {}));
    expect(b.toJSON()).toEqual({ code: 'validation_failed', message: 'Invalid data', details });
    expect((await failure(invokeCommand(handlers, 'carriers.list', {}))).code).toBe('offline');
    expect((await failure(invokeCommand(handlers, 'orders.page', {}, { log: () => undefined }))).code).toBe('internal_error');
  });

  it('logs an unexpected error with the command name and answers one sentence with the same reference', async () => {
    const lines: string[] = [];
    const { handlers } = recordingHandlers({
      'orders.page': async () => {
        throw new Error('SqliteError: no such column: secret_internal_detail');
      },
    });
    const e = await failure(invokeCommand(handlers, 'orders.page', { q: 'x' }, { log: (l) => lines.push(l) }));
    expect(e.code).toBe('internal_error');
    const ref = /reference ([0-9a-f]{6})\.$/.exec(e.message)?.[1];
    expect(e.message).toBe(`The station could not complete orders.page because of an unexpected error; it was logged with reference ${ref}.`);
    expect(e.message).not.toContain('secret_internal_detail');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`command orders.page failed (internal_error, ref ${ref})`);
    expect(lines[0]).toContain('secret_internal_detail');
  });

  it('maps a taken order number (StoreError conflict) to a field error, and invalid_state to invalid_state', async () => {
    const { handlers } = recordingHandlers({
      'orders.create': async () => {
        throw new StoreError('conflict', 'Order A1 already exists', { orderNumber: ['Order A1 already exists'] });
      },
      'outbox.retry': async () => {
        throw new StoreError('invalid_state', 'Row 3 is not waiting for attention');
      },
    });
    const order = { orderNumber: 'A1', recipient: { name: 'G B', street: 'Via Roma 1', city: 'Milano', postalCode: '20121', countryCode: 'IT' }, items: [] };
    const dup = await failure(invokeCommand(handlers, 'orders.create', order));
    expect(dup.toJSON()).toEqual({ code: 'invalid_input', message: 'Order A1 already exists', details: { orderNumber: ['Order A1 already exists'] } });
    expect((await failure(invokeCommand(handlers, 'outbox.retry', { id: 3 }))).code).toBe('invalid_state');
  });
});

describe('command input bounds (issue 7 item 10)', () => {
  const rcp = { name: 'Giulia Bianchi', address: { street: 'Via Torino 15', city: 'Milano', province: 'MI', postalCode: '20123', countryCode: 'IT' } };
  const pkg = (l: number, w: number, h: number, kg = 1, units: 'CM' | 'MM' = 'CM') => ({ weight: { value: kg, units: 'KG' }, dimensions: { length: l, width: w, height: h, units } });

  /** The invalid_input details of a refused call (and that no handler ran). */
  async function refused(name: string, input: unknown): Promise<Record<string, string[]>> {
    const { handlers, calls } = recordingHandlers();
    const e = await failure(invokeCommand(handlers, name, input));
    expect(e.code).toBe('invalid_input');
    expect(calls).toEqual([]);
    return e.details ?? {};
  }

  it('refuses an orders.page query longer than 100 characters (SQLite: LIKE pattern too complex)', async () => {
    expect(await refused('orders.page', { q: 'a'.repeat(101) })).toEqual({ q: ['Search is too long (max 100 characters)'] });
    expect(await refused('orders.page', { q: '%'.repeat(60_000) })).toEqual({ q: ['Text is too long (max 1000 characters)'] });
  });

  it('refuses a lone surrogate or NUL anywhere, naming the field', async () => {
    expect(Object.keys(await refused('shipments.get', { trackingNumber: 'AB\ud800CD' }))).toEqual(['trackingNumber']);
    expect(Object.keys(await refused('scan.resolve', { code: '\udc00' }))).toEqual(['code']);
    expect(Object.keys(await refused('orders.page', { q: 'a\u0000b' }))).toEqual(['q']);
    const d = await refused('shipping.shipOrder', { request: { recipient: { ...rcp, name: 'Giulia \ud83d' }, packages: [pkg(30, 20, 10)] } });
    expect(Object.keys(d)).toEqual(['request.recipient.name']);
    // A whole emoji (a surrogate pair) is fine.
    const { handlers } = recordingHandlers();
    await expect(invokeCommand(handlers, 'orders.page', { q: 'caf\u00e9 \ud83d\ude00' })).resolves.toBeDefined();
  });

  it('tracking numbers are letters, digits, - and _ (never a URL path like ..)', async () => {
    for (const bad of ['..', 'AB/CD', 'AB?x=1', 'AB CD', 'A'.repeat(65)]) {
      expect(Object.keys(await refused('labels.reprint', { trackingNumber: bad }))).toEqual(['trackingNumber']);
    }
    const { handlers, calls } = recordingHandlers();
    await invokeCommand(handlers, 'shipments.tracking', { trackingNumber: ' br-2038_283790 ' });
    expect(calls).toEqual([{ name: 'shipments.tracking', input: { trackingNumber: 'br-2038_283790' } }]);
  });

  it('a 1x1x1 cm parcel is a field error; so are a 2 t parcel, a 6 m side and a COD of a billion', async () => {
    const tiny = await refused('shipping.quote', { request: { recipient: rcp, packages: [pkg(1, 1, 1)] } });
    expect(tiny).toEqual({ 'request.packages.0.dimensions.length': ['Parcel is too small: its largest face must be at least 15 × 11 cm, room for the label'] });
    expect(Object.keys(await refused('shipping.shipOrder', { request: { recipient: rcp, packages: [pkg(30, 20, 10), pkg(1, 1, 1)] } }))).toEqual(['request.packages.1.dimensions.length']);
    expect(Object.keys(await refused('shipping.quote', { request: { recipient: rcp, packages: [pkg(30, 20, 10, 2000)] } }))).toEqual(['request.packages.0.weight.value']);
    expect(Object.keys(await refused('shipping.quote', { request: { recipient: rcp, packages: [pkg(600, 20, 10)] } }))).toEqual(['request.packages.0.dimensions.length']);
    expect(Object.keys(await refused('shipping.shipOrder', { request: { recipient: rcp, packages: [pkg(30, 20, 10)], options: { cod: { amount: 1e9 } } } }))).toEqual(['request.options.cod.amount']);
    expect(Object.keys(await refused('pickups.book', { request: { serviceType: 'X', pickupDate: '2026-12-01', packages: [pkg(5, 5, 5)] } }))).toEqual(['request.packages.0.dimensions.length']);
    // The form or the request, one of the two: neither is refused naming the form.
    expect(Object.keys(await refused('pickups.book', {}))).toEqual(['form']);
    // A document envelope: 32 × 23 cm, 2 mm thick (no minimum thickness); millimetres are converted.
    const { handlers } = recordingHandlers();
    await expect(invokeCommand(handlers, 'shipping.quote', { request: { recipient: rcp, packages: [pkg(32, 23, 0.2)] } })).resolves.toBeDefined();
    await expect(invokeCommand(handlers, 'shipping.quote', { request: { recipient: rcp, packages: [pkg(150, 110, 2, 1, 'MM')] } })).resolves.toBeDefined();
    expect(Object.keys(await refused('shipping.quote', { request: { recipient: rcp, packages: [pkg(149, 110, 2, 1, 'MM')] } }))).toEqual(['request.packages.0.dimensions.length']);
  });

  it('bounds sizes, depth and numbers of any input before its schema', async () => {
    expect(await refused('outbox.list', { doneLimit: Number.POSITIVE_INFINITY })).toEqual({ doneLimit: ['Must be a finite number'] });
    const many = await refused('shipping.shipOrder', { request: { recipient: rcp, packages: Array.from({ length: 201 }, () => pkg(30, 20, 10)) } });
    expect(many).toEqual({ 'request.packages': ['Too many items (max 200)'] });
    let deep: unknown = {};
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(Object.keys(await refused('app.info', deep))[0]).toMatch(/^a(\.a)*$/);
    expect(Object.keys(await refused('orders.importCsv', { fileName: 'x'.repeat(256), content: '' }))).toEqual(['fileName']);
    expect(Object.keys(await refused('printers.set', { uri: `file:///${'d/'.repeat(600)}` }))).toEqual(['uri']);
    expect(Object.keys(await refused('manifests.pdf', { id: -1 }))).toEqual(['id']);
    expect(Object.keys(await refused('orders.create', { recipient: { name: 'G', street: 'S', city: 'C', postalCode: '20121', countryCode: 'IT' }, items: [{ name: 'x', quantity: 1e6 }] }))).toEqual(['items.0.quantity']);
    // The CSV text may be long: only orders.importCsv content is allowed past 1000 characters.
    const { handlers } = recordingHandlers();
    await expect(invokeCommand(handlers, 'orders.importCsv', { fileName: 'a.csv', content: 'Name\n'.repeat(10_000) })).resolves.toBeDefined();
  });
});
