/**
 * `printers.getProfile` / `printers.setProfile` through the station contract
 * (schema parse + handler), against a real sandbox and a TCP printer
 * listener: bad profiles are refused naming the field and change nothing; a
 * saved profile shapes the ZPL of the next label (decoded, not compared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Station } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import type { Sandbox } from '../../../electron/sandbox/index';
import type { PrinterProfile } from '../../../shared/contract/printer-profile';
import { startFakePrinter, type FakePrinter } from '../printers/fake-printer';
import { invokerOf, parcel, startSandbox, stationConfig, stationFailure as failure, tempDir } from './helpers';

let sb: Sandbox;
let printer: FakePrinter;
let tmp: ReturnType<typeof tempDir>;
let station: Station;
const invoke = invokerOf(() => station);

const PROFILE: PrinterProfile = { dpi: 300, widthMm: 100, heightMm: 150, darkness: 22, speedIps: 4, media: 'thermal_transfer', topOffsetDots: -12 };

beforeAll(async () => {
  sb = await startSandbox();
  printer = await startFakePrinter('ready');
  tmp = tempDir();
  station = await startStation(stationConfig(sb, tmp.dir, printer.uri), { platformTimeoutMs: 5000, printerTimeoutMs: 2000, outboxBackoff: { baseMs: 600_000 } });
});

afterAll(async () => {
  await station?.close();
  await printer?.close();
  await sb?.close();
  tmp?.cleanup();
});

/** Parameters of every `cmd` (e.g. `^PW`) in a ZPL text. */
function params(zpl: string, cmd: string): string[] {
  const out: string[] = [];
  for (const m of zpl.matchAll(/([\^~][A-Za-z0-9]{2})([^^~]*)/g)) if ((m[1] ?? '').toUpperCase() === cmd) out.push((m[2] ?? '').trim()); // ZPL ignores line breaks between commands
  return out;
}

describe('printer profile commands', () => {
  it('has no profile for the printer in use until one is saved', async () => {
    expect(await invoke('printers.getProfile', {})).toEqual({ uri: printer.uri, profile: null });
  });

  it('refuses a bad profile naming the field, and saves nothing', async () => {
    const e = await failure(invoke('printers.setProfile', { profile: { ...PROFILE, darkness: 40 } }));
    expect(e.code).toBe('invalid_input');
    expect(JSON.stringify(e.details)).toContain('darkness');
    expect(e.message).toContain('darkness');
    const e2 = await failure(invoke('printers.setProfile', { profile: { ...PROFILE, media: 'wax' as PrinterProfile['media'] } }));
    expect(JSON.stringify(e2.details)).toContain('media');
    expect(await invoke('printers.getProfile', {})).toEqual({ uri: printer.uri, profile: null });
  });

  it('saves a profile per device URI and prints the next label with it', async () => {
    expect(await invoke('printers.setProfile', { profile: PROFILE })).toEqual({ uri: printer.uri, profile: PROFILE });
    expect(await invoke('printers.getProfile', { uri: 'socket://10.9.9.9:9100' })).toEqual({ uri: 'socket://10.9.9.9:9100', profile: null });
    expect((await invoke('printers.getProfile', {})).profile).toEqual(PROFILE);

    await invoke('orders.create', {
      orderNumber: 'PROF-1',
      recipient: { name: 'Anna Neri', street: 'Via Roma 1', city: 'Torino', province: 'TO', postalCode: '10121', countryCode: 'IT' },
      items: [{ name: 'Vaso', quantity: 1, unitPrice: 20 }],
    });
    const r = await invoke('scan.resolve', { code: 'PROF-1' });
    if (r.kind !== 'order') throw new Error('order not found');
    const o = r.order;
    const rates = await invoke('rates.quote', { orderId: o.id, request: { recipient: { address: { postalCode: '10121', countryCode: 'IT' } }, packages: [parcel()] } });
    const zplRate = rates.find((x) => !x.contractCode.toUpperCase().includes('DHL')) ?? rates[0];
    if (!zplRate) throw new Error('no rate');
    const shipped = await invoke('shipments.create', {
      orderId: o.id,
      request: { recipient: { name: 'Anna Neri', address: { street: 'Via Roma 1', city: 'Torino', province: 'TO', postalCode: '10121', countryCode: 'IT' } }, packages: [parcel()], serviceType: zplRate.contractCode },
    });
    expect(shipped.printJob?.state).toBe('printed');
    const zpl = (await printer.job(printer.jobs.length - 1)).toString('latin1');
    // 100 x 150 mm at 300 dpi = 1181 x 1772 dots.
    expect(params(zpl, '^PW').map(Number).every((n) => n === 1181)).toBe(true);
    expect(params(zpl, '^PW').length).toBeGreaterThan(0);
    expect(params(zpl, '^LL').map(Number).every((n) => n === 1772)).toBe(true);
    expect(params(zpl, '~SD')).toEqual(['22']);
    expect(params(zpl, '^PR').every((p) => p === '4')).toBe(true);
    expect(params(zpl, '^MT').every((p) => p === 'T')).toBe(true);
    expect(params(zpl, '^LT').every((p) => p === '-12')).toBe(true);
  });
});
