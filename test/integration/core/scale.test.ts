/**
 * The scale in the running station against the real sandbox over HTTP: a
 * fake HID scale (node-hid's interface) plugged, motion then stable 1.23 kg,
 * `scales.changed` events, the stable weight quoted with billable 1.23 kg;
 * switching to a fake serial scale and bad settings refused by field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScaleView } from '../../../shared/contract/views';
import { fakeHid, fakeSerial } from '../../unit/core/scales/fakes';
import { stationFailure } from './helpers';
import { useStation } from './station-fixture';

const hid = fakeHid();
const serial = fakeSerial(['/dev/ttyUSB0']);
const seen: ScaleView[] = [];
const fx = useStation({
  printer: 'file',
  tempPrefix: 'station-scale-',
  options: () => ({
    outboxBackoff: { baseMs: 600_000 },
    scale: { loadHid: async () => ({ lib: hid.lib }), loadSerial: async () => ({ lib: serial.lib }), rescanMs: 10, pollMs: 10 },
  }),
});
const invoke = fx.invoke;

const next = (pred: (v: ScaleView) => boolean, ms = 3000) =>
  new Promise<ScaleView>((resolve, reject) => {
    const t = setTimeout(() => {
      off();
      reject(new Error('no such scales.changed'));
    }, ms);
    const off = fx.station.events.on('scales.changed', (v) => {
      if (!pred(v)) return;
      clearTimeout(t);
      off();
      resolve(v);
    });
  });

beforeAll(async () => {
  fx.station.events.on('scales.changed', (v) => seen.push(v));
});

describe('station scale', () => {
  it('starts with no scale (a normal state), then finds a plugged Mettler Toledo', async () => {
    expect(await invoke('scales.get')).toMatchObject({ config: { kind: 'hid' }, connected: false, reading: null, problem: null, requoteOnStable: true });
    const plugged = next((v) => v.connected);
    hid.plug({ vendorId: 0x0eb8, productId: 0xf000, path: '/dev/hidraw5' });
    expect(await plugged).toMatchObject({ name: 'Mettler Toledo PS60' });
  });

  it('publishes motion then stable, and the stable weight quotes with billable 1.23 kg', async () => {
    hid.report([3, 4, 2, 0, 0, 0]); // first report after opening: dropped
    const moving = next((v) => v.reading?.status === 'motion');
    hid.report([3, 3, 2, 0, 0x4c, 0x04]); // 1.100 kg moving
    expect((await moving).reading).toEqual({ status: 'motion', kg: 1.1, decimals: 3 });
    const stable = next((v) => v.reading?.status === 'stable');
    hid.report([3, 4, 2, 0, 0xce, 0x04]); // 1.230 kg
    const kg = (await stable).reading!.kg!;
    const rates = await invoke('shipping.quote', {
      request: { recipient: { address: { postalCode: '20121', countryCode: 'IT' } }, packages: [{ weight: { value: kg, units: 'KG' }, dimensions: { length: 20, width: 15, height: 10, units: 'CM' } }] },
    });
    expect(rates.length).toBeGreaterThan(0);
    for (const r of rates) expect(r.billableWeight.value).toBeCloseTo(1.23, 3);
  });

  it('says unplugged, switches to a serial MT-SICS scale, and refuses a bad baud rate by field', async () => {
    const gone = next((v) => !v.connected);
    hid.unplug('/dev/hidraw5');
    expect((await gone).reading).toBeNull();
    serial.setAnswer((w) => (w === 'SI\r\n' ? 'S S     2.500 kg\r\n' : null));
    const stable = next((v) => v.reading?.status === 'stable' && v.name === '/dev/ttyUSB0');
    const set = await invoke('scales.set', { config: { kind: 'serial', path: '/dev/ttyUSB0', baudRate: 9600, protocol: 'mt-sics' }, requoteOnStable: false });
    expect(set).toMatchObject({ config: { kind: 'serial', path: '/dev/ttyUSB0' }, requoteOnStable: false });
    expect((await stable).reading).toEqual({ status: 'stable', kg: 2.5, decimals: 3 });
    const e = await stationFailure(invoke('scales.set', { config: { kind: 'serial', path: '/dev/ttyUSB0', baudRate: 7, protocol: 'mt-sics' } }));
    expect(JSON.stringify(e.details)).toMatch(/baudRate/);
    expect((await invoke('scales.get')).config).toMatchObject({ baudRate: 9600 }); // nothing lost
    await invoke('scales.set', { config: { kind: 'none' } });
    expect(await invoke('scales.get')).toMatchObject({ config: { kind: 'none' }, connected: false });
    expect(seen.length).toBeGreaterThan(4);
  });
});
