import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../../shared/contract/commands';
import { invokeCommand } from '../../../electron/core/handlers/invoke';
import { PlatformError } from '../../../electron/core/platform/errors';
import { stationFailure as failure } from '../../integration/core/helpers';

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
      invokeCommand(handlers, 'rates.quote', {
        request: { recipient: { address: { postalCode: '20121', countryCode: 'ITA' } }, packages: [{ weight: { value: 0 }, dimensions: { length: 10, width: 10, height: 10 } }] },
      }),
    );
    expect(e.code).toBe('invalid_input');
    expect(Object.keys(e.details ?? {}).sort()).toEqual(['request.packages.0.weight.value', 'request.recipient.address.countryCode']);
    expect(e.message).toContain('rates.quote');
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
      'orders.list': async () => {
        throw new Error('disk I/O error');
      },
    });
    const a = await failure(invokeCommand(handlers, 'shipments.cancel', { trackingNumber: 'X1' }));
    expect(a.toJSON()).toEqual({ code: 'invalid_state', message: 'Shipment already in a manifest' });
    const b = await failure(invokeCommand(handlers, 'credit.get', {}));
    expect(b.toJSON()).toEqual({ code: 'validation_failed', message: 'Invalid data', details });
    expect((await failure(invokeCommand(handlers, 'carriers.list', {}))).code).toBe('offline');
    expect((await failure(invokeCommand(handlers, 'orders.list', {}))).code).toBe('internal_error');
  });
});
