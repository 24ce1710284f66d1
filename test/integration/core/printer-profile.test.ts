/**
 * `printers.profile.get` / `printers.profile.set` through the station contract
 * (schema parse + handler), against a real sandbox and a TCP printer
 * listener: bad profiles are refused naming the field and change nothing; a
 * saved profile shapes the ZPL of the next label (decoded, not compared).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc16 } from '../../../electron/core/printing/zpl/zpl-graphics';
import type { PrinterProfile } from '../../../shared/contract/printer-profile';
import { parcel, stationFailure as failure } from './helpers';
import { useStation } from './station-fixture';

const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 2000, outboxBackoff: { baseMs: 600_000 } }) });
const invoke = fx.invoke;

const PROFILE: PrinterProfile = { dpi: 300, widthMm: 100, heightMm: 150, darkness: 22, speedIps: 4, media: 'thermal_transfer', topOffsetDots: -12 };

/** Parameters of every `cmd` (e.g. `^PW`) in a ZPL text. */
function params(zpl: string, cmd: string): string[] {
  const out: string[] = [];
  for (const m of zpl.matchAll(/([\^~][A-Za-z0-9]{2})([^^~]*)/g)) if ((m[1] ?? '').toUpperCase() === cmd) out.push((m[2] ?? '').trim()); // ZPL ignores line breaks between commands
  return out;
}

describe('printer profile commands', () => {
  it('has no profile for the printer in use until one is saved', async () => {
    expect(await invoke('printers.profile.get', {})).toEqual({ uri: fx.printer.uri, profile: null });
  });

  it('refuses a bad profile naming the field, and saves nothing', async () => {
    const e = await failure(invoke('printers.profile.set', { profile: { ...PROFILE, darkness: 40 } }));
    expect(e.code).toBe('invalid_input');
    expect(JSON.stringify(e.details)).toContain('darkness');
    expect(e.message).toContain('darkness');
    const e2 = await failure(invoke('printers.profile.set', { profile: { ...PROFILE, media: 'wax' as PrinterProfile['media'] } }));
    expect(JSON.stringify(e2.details)).toContain('media');
    const e3 = await failure(invoke('printers.profile.set', { profile: { ...PROFILE, zplMadeForDpi: 250 as 203 } }));
    expect(JSON.stringify(e3.details)).toContain('zplMadeForDpi');
    expect(await invoke('printers.profile.get', {})).toEqual({ uri: fx.printer.uri, profile: null });
  });

  it('saves a profile per device URI and prints the next label with it', async () => {
    expect(await invoke('printers.profile.set', { profile: PROFILE })).toEqual({ uri: fx.printer.uri, profile: PROFILE });
    expect(await invoke('printers.profile.get', { uri: 'socket://10.9.9.9:9100' })).toEqual({ uri: 'socket://10.9.9.9:9100', profile: null });
    expect((await invoke('printers.profile.get', {})).profile).toEqual(PROFILE);

    await invoke('orders.create', {
      orderNumber: 'PROF-1',
      recipient: { name: 'Anna Neri', street: 'Via Roma 1', city: 'Torino', province: 'TO', postalCode: '10121', countryCode: 'IT' },
      items: [{ name: 'Vaso', quantity: 1, unitPrice: 20 }],
    });
    const r = await invoke('scan.resolve', { code: 'PROF-1' });
    if (r.kind !== 'order') throw new Error('order not found');
    const o = r.order;
    const rates = await invoke('shipping.quote', { request: { recipient: { address: { postalCode: '10121', countryCode: 'IT' } }, packages: [parcel()] } });
    const zplRate = rates.find((x) => !x.contractCode.toUpperCase().includes('DHL')) ?? rates[0];
    if (!zplRate) throw new Error('no rate');
    const shipped = await invoke('shipping.shipOrder', {
      orderId: o.id,
      request: { recipient: { name: 'Anna Neri', address: { street: 'Via Roma 1', city: 'Torino', province: 'TO', postalCode: '10121', countryCode: 'IT' } }, packages: [parcel()], serviceType: zplRate.contractCode },
    });
    expect(shipped.printJob?.state).toBe('printed');
    const zpl = (await fx.printer.job(fx.printer.jobs.length - 1)).toString('latin1');
    // 100 x 150 mm at 300 dpi = 1181 x 1772 dots.
    expect(params(zpl, '^PW').map(Number).every((n) => n === 1181)).toBe(true);
    expect(params(zpl, '^PW').length).toBeGreaterThan(0);
    expect(params(zpl, '^LL').map(Number).every((n) => n === 1772)).toBe(true);
    expect(params(zpl, '~SD')).toEqual(['22']);
    expect(params(zpl, '^PR').every((p) => p === '4')).toBe(true);
    expect(params(zpl, '^MT').every((p) => p === 'T')).toBe(true);
    expect(params(zpl, '^LT').every((p) => p === '-12')).toBe(true);
  });

  it('keeps the dpi the carrier makes its ZPL for (issue 23) with the profile', async () => {
    const withMadeFor = { ...PROFILE, zplMadeForDpi: 300 as const };
    expect(await invoke('printers.profile.set', { profile: withMadeFor })).toEqual({ uri: fx.printer.uri, profile: withMadeFor });
    expect((await invoke('printers.profile.get', {})).profile).toEqual(withMadeFor);
    await invoke('printers.profile.set', { profile: PROFILE });
  });

  it('prints a PDF-only carrier (DHL) label through the station as ^GFA Z64, one label per page, at the profile', async () => {
    const recipient = { name: 'Jonas Weber', address: { street: 'Hauptstraße 5', city: 'München', postalCode: '80331', countryCode: 'DE' } };
    const rates = await invoke('shipping.quote', { request: { recipient: { address: { postalCode: '80331', countryCode: 'DE' } }, packages: [parcel(2)] } });
    const dhl = rates.find((x) => x.carrierCode.toUpperCase() === 'DHL');
    if (!dhl) throw new Error(`no DHL rate to DE among ${rates.map((x) => x.contractCode).join(', ')}`);
    const before = fx.printer.jobs.length;
    const shipped = await invoke('shipping.shipOrder', { request: { recipient, packages: [parcel(2)], serviceType: dhl.contractCode } });
    expect(shipped.printJob?.state).toBe('printed');
    expect(fx.printer.jobs.length).toBe(before + 1);
    const zpl = (await fx.printer.job(fx.printer.jobs.length - 1)).toString('latin1');
    const labels = zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
    // The sandbox's DHL label PDF has one page per parcel: one parcel, one label.
    expect(labels).toHaveLength(1);
    for (const label of labels) {
      const m = /\^GFA,(\d+),(\d+),(\d+),:Z64:([A-Za-z0-9+/=]+):([0-9A-F]{4})/.exec(label);
      if (!m) throw new Error(`no ^GFA Z64 field in: ${label.slice(0, 200)}`);
      const [, total, , bytesPerRow, b64, crc] = m;
      // Z64 (ZPL II guide): CRC-16 of the base64 text; the data inflates to exactly the declared bytes.
      expect(crc16(b64!).toString(16).toUpperCase().padStart(4, '0')).toBe(crc);
      const bitmap = inflateSync(Buffer.from(b64!, 'base64'));
      expect(bitmap.length).toBe(Number(total));
      // Rasterised for the 300 dpi, 100 mm profile: 1181 dots = 148 bytes a row.
      expect(Number(bytesPerRow)).toBe(Math.ceil(1181 / 8));
      expect(bitmap.some((b) => b !== 0)).toBe(true); // something black: the label, not an empty page
      expect(params(label, '^PW')).toContain('1181');
    }
  });

  it('refuses a printer that cannot be used with its reason as a core text, the device and folder kept (issue 25)', async () => {
    // A folder "inside" a regular file can never be created.
    const blocker = path.join(fx.dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const uri = `file://${path.join(blocker, 'labels')}`;
    const e = await failure(invoke('printers.set', { uri }));
    expect(e.code).toBe('printer_error');
    expect(e.message).toContain(`Printer ${uri} not saved: `);
    expect(e.text).toMatchObject({ key: 'printerNotSaved', values: { uri, detailKey: 'folderNotWritable', 'detail.dir': path.join(blocker, 'labels') } });
    expect(await invoke('printers.profile.get', {})).toMatchObject({ uri: fx.printer.uri });
  });
});

