import { describe, expect, it } from 'vitest';
import { createScaleService, type ScaleState } from '../../../../electron/core/scales/service';
import { fakeHid, fakeSerial } from './fakes';

const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const dymo = { vendorId: 0x0922, productId: 0x8004, path: '/dev/hidraw2', product: 'M25' };

describe('scale service, HID', () => {
  it('drops the first report, then follows motion → stable, unit changes, unplug and replug', async () => {
    const hid = fakeHid();
    const states: ScaleState[] = [];
    // states: every change is published
    const svc = createScaleService({ kind: 'hid' }, {
      loadHid: async () => ({ lib: hid.lib }),
      loadSerial: async () => ({ error: 'unused' }),
      onChange: (s) => states.push(s),
      rescanMs: 10,
    });
    try {
      await new Promise((r) => setTimeout(r, 30)); // a few rescans with nothing plugged
      expect(svc.state()).toMatchObject({ connected: false, name: null }); // no scale is a normal state
      hid.plug(dymo);
      await until(() => svc.state().connected);
      expect(svc.state().name).toBe('Dymo M25');
      hid.report([3, 4, 2, 0, 0x10, 0x27]); // stale 10 kg from before the scale slept: dropped
      expect(svc.state().reading).toBeNull();
      hid.report([3, 3, 2, 0, 0xe8, 0x03]); // motion 1.000 kg
      expect(svc.state().reading).toEqual({ status: 'motion', kg: 1, decimals: 3 });
      hid.report([3, 4, 2, 0, 0xce, 0x04]); // stable 1.230 kg
      expect(svc.state().reading).toEqual({ status: 'stable', kg: 1.23, decimals: 3 });
      hid.report([3, 4, 11, 0xff, 434 & 0xff, 434 >> 8]); // the packer switched to ounces: 43.4 oz
      expect(svc.state().reading).toEqual({ status: 'stable', kg: 1.23, decimals: 3 });
      hid.report([3, 6, 2, 0, 0, 0]);
      expect(svc.state().reading?.status).toBe('over_capacity');
      hid.unplug('/dev/hidraw2');
      expect(svc.state()).toMatchObject({ connected: false, reading: null });
      expect(hid.opened[0]!.closed).toBe(true);
      hid.plug(dymo);
      await until(() => svc.state().connected);
      expect(hid.opened).toHaveLength(2);
      expect(states.filter((s) => s.reading?.status === 'stable').length).toBe(1); // g then oz of the same weight is one change
    } finally {
      svc.close();
    }
  });

  it('says why when node-hid cannot load, and "none" opens nothing', async () => {
    const svc = createScaleService({ kind: 'hid' }, {
      loadHid: async () => ({ error: 'no prebuilt binary' }),
      loadSerial: async () => ({ error: 'unused' }),
      onChange: () => undefined,
    });
    await until(() => svc.state().problem !== null);
    expect(svc.state().problem).toMatch(/no prebuilt binary/);
    svc.configure({ kind: 'none' });
    expect(svc.state()).toMatchObject({ kind: 'none', connected: false, problem: null });
    svc.close();
  });
});

describe('scale service, serial', () => {
  it('polls MT-SICS with SI and reads motion then stable', async () => {
    const serial = fakeSerial(['/dev/ttyUSB0']);
    const weights = ['S D     0.800 kg', 'S D     1.100 kg', 'S S     1.230 kg'];
    serial.setAnswer((w) => (w === 'SI\r\n' ? `${weights.length > 1 ? weights.shift() : weights[0]}\r\n` : null));
    const seen: string[] = [];
    const svc = createScaleService({ kind: 'serial', path: '/dev/ttyUSB0', baudRate: 9600, protocol: 'mt-sics' }, {
      loadHid: async () => ({ error: 'unused' }),
      loadSerial: async () => ({ lib: serial.lib }),
      onChange: (s) => s.reading && seen.push(`${s.reading.status} ${s.reading.kg}`),
      pollMs: 5,
    });
    try {
      await until(() => svc.state().reading?.status === 'stable');
      expect(seen).toEqual(['motion 0.8', 'motion 1.1', 'stable 1.23']);
      expect(serial.opened[0]!.options).toMatchObject({ path: '/dev/ttyUSB0', baudRate: 9600 });
      expect(svc.state()).toMatchObject({ connected: true, name: '/dev/ttyUSB0' });
    } finally {
      svc.close();
    }
  });

  it('reads continuous output, survives unplug and a missing port, reopens when plugged', async () => {
    const serial = fakeSerial([]);
    const svc = createScaleService({ kind: 'serial', path: '/dev/ttyS1', baudRate: 2400, protocol: 'continuous' }, {
      loadHid: async () => ({ error: 'unused' }),
      loadSerial: async () => ({ lib: serial.lib }),
      onChange: () => undefined,
      rescanMs: 10,
    });
    try {
      await until(() => svc.state().problem !== null);
      expect(svc.state()).toMatchObject({ connected: false, problem: expect.stringMatching(/ttyS1/) });
      serial.plug('/dev/ttyS1');
      await until(() => svc.state().connected);
      serial.emitLine('/dev/ttyS1', 'US,GS,+  0.500kg\r\nST,GS,+  1.230kg\r\n');
      expect(svc.state().reading).toEqual({ status: 'stable', kg: 1.23, decimals: 3 });
      expect(serial.opened.at(-1)!.written).toEqual([]); // continuous: the station never writes
      serial.unplug('/dev/ttyS1');
      expect(svc.state()).toMatchObject({ connected: false, reading: null });
      serial.plug('/dev/ttyS1');
      await until(() => svc.state().connected);
    } finally {
      svc.close();
    }
  });
});
