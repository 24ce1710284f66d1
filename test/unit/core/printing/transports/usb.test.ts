/**
 * USB label printers over an injected device with the `usb` package's own
 * interface (./fake-usb.ts): claiming the printer-class
 * interface with usblp detached and given back, chunked writes, status over
 * bulk IN in 64-byte packets, and the scripted failures: stall, timeout,
 * unplug mid-job, paper out reported by ~HQES, permission denied.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { USB_CHUNK_BYTES, openPrinter, usbUri, type LabelPrinter } from '../../../../../electron/core/printing';
import { discoverPrinters } from '../../../../../electron/core/printing/transports/discover';
import { fakeBus, zd421 } from './fake-usb';

const URI = (serial: string) => `usb://Zebra/ZTC%20ZD421-203dpi%20ZPL?serial=${serial}`;
const ZPL = new TextEncoder().encode('^XA^FO50,50^FDLDV000000001^FS^XZ');

let printers: LabelPrinter[] = [];
function open(uri: string, bus: ReturnType<typeof fakeBus>, timeoutMs = 300): LabelPrinter {
  const p = openPrinter(uri, { usb: bus, timeoutMs, idleReleaseMs: 20 });
  printers.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(printers.map((p) => p.close()));
  printers = [];
});

describe('USB printer: jobs', () => {
  it('finds the printer by make, model and serial among identical ones, detaches usblp, claims, writes, and gives usblp back when idle', async () => {
    const a = zd421('D2J1', 5);
    const b = zd421('D2J2', 6);
    const bus = fakeBus(a, b);
    const p = open(URI('D2J2'), bus);
    const res = await p.print(ZPL);
    expect(res.bytesWritten).toBe(ZPL.length);
    expect(b.jobBytes()).toBe(Buffer.from(ZPL).toString('latin1'));
    expect(a.jobBytes()).toBe('');
    expect(b.calls.slice(-3)).toEqual(['open', 'detachKernelDriver', 'claim']);
    expect(b.claimed).toBe(true);
    await vi.waitFor(() => expect(b.claimed).toBe(false));
    expect(b.calls.slice(-3)).toEqual(['release', 'attachKernelDriver', 'close']);
    expect(b.kernelDriver).toBe(true);
  });

  it('accepts usb://vid:pid and writes big jobs in chunks', async () => {
    const d = zd421('X', 7);
    const bus = fakeBus(d);
    const p = open('usb://0a5f:0166', bus);
    const big = new Uint8Array(USB_CHUNK_BYTES * 2 + 100).fill(0x41);
    expect((await p.print(big)).bytesWritten).toBe(big.length);
    expect(d.transferSizes).toEqual([USB_CHUNK_BYTES, USB_CHUNK_BYTES, 100]);
  });

  it('is unreachable (nothing delivered) when the printer is not plugged in', async () => {
    const bus = fakeBus();
    const p = open(URI('NOPE'), bus);
    await expect(p.print(ZPL)).rejects.toMatchObject({ code: 'printer_unreachable', delivered: 'none', message: expect.stringContaining('not connected') });
    expect(await p.status()).toMatchObject({ state: 'unreachable' });
  });

  it('fails a stalled transfer as printer_error, clears the halt and releases the device', async () => {
    const d = zd421('S');
    const bus = fakeBus(d);
    d.script.fail = { kind: 'stall', afterBytes: 0 };
    const p = open(URI('S'), bus);
    await expect(p.print(ZPL)).rejects.toMatchObject({ code: 'printer_error', delivered: 'none', message: expect.stringContaining('stalled') });
    expect(d.calls).toContain('clearHalt');
    expect(d.claimed).toBe(false);
    expect(d.kernelDriver).toBe(true);
  });

  it('times out a transfer the printer does not take (part delivered: partial)', async () => {
    const d = zd421('T');
    const bus = fakeBus(d);
    d.script.fail = { kind: 'timeout', afterBytes: 10 };
    const p = open(URI('T'), bus);
    await expect(p.print(ZPL)).rejects.toMatchObject({ code: 'printer_timeout', delivered: 'partial', message: expect.stringContaining(`10 of ${ZPL.length} bytes`) });
  });

  it('does not report attached a printer unplugged while its plug-in is being checked', async () => {
    const d = zd421('R');
    const bus = fakeBus(d);
    const p = open(URI('R'), bus);
    const events: string[] = [];
    p.on?.('detached', () => events.push('detached'));
    p.on?.('attached', () => events.push('attached'));
    await vi.waitFor(() => expect(bus.listenerCount('detach')).toBe(1));
    await new Promise((r) => setTimeout(r, 20)); // the transport learns which device is its own
    bus.unplug(d);
    expect(events).toEqual(['detached']);
    // Plugged in and pulled out again before its serial could be read (a loose cable).
    bus.plug(d);
    bus.unplug(d);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.at(-1)).toBe('detached');
    expect(events).not.toContain('attached');
    await expect(p.print(ZPL)).rejects.toMatchObject({ code: 'printer_unreachable' });
    // Plugged in for good: attached, and it prints.
    bus.plug(d);
    await vi.waitFor(() => expect(events.at(-1)).toBe('attached'));
    expect((await p.print(ZPL)).bytesWritten).toBe(ZPL.length);
  });

  it('checks a plug-in one at a time with its own search: a job looking for the printer is not disturbed', async () => {
    const d = zd421('S');
    const bus = fakeBus(d);
    const p = open(URI('S'), bus);
    p.on?.('attached', () => undefined);
    await vi.waitFor(() => expect(bus.listenerCount('attach')).toBe(1));
    // The job's search opens the device to read its serial; an attach event for it arrives meanwhile
    // (a hub re-announcing it): its check must not open and close the device under the search.
    const job = p.print(ZPL);
    bus.emit('attach', d);
    expect((await job).bytesWritten).toBe(ZPL.length);
    expect(d.jobBytes()).toBe(Buffer.from(ZPL).toString('latin1'));
  });

  it('reports an unplug mid-job, emits detached, and attached when it comes back', async () => {
    const d = zd421('U');
    const bus = fakeBus(d);
    const p = open(URI('U'), bus);
    const events: string[] = [];
    p.on?.('detached', () => events.push('detached'));
    p.on?.('attached', () => events.push('attached'));
    await vi.waitFor(() => expect(bus.listenerCount('detach')).toBe(1));
    await new Promise((r) => setTimeout(r, 20)); // the transport learns which device is its own
    d.script.fail = { kind: 'unplug', afterBytes: 12 };
    await expect(p.print(ZPL)).rejects.toMatchObject({ code: 'printer_unreachable', delivered: 'partial', message: expect.stringContaining('unplugged during the job') });
    expect(events).toEqual(['detached']);
    d.script.fail = undefined;
    bus.plug(d);
    await vi.waitFor(() => expect(events).toEqual(['detached', 'attached']));
    expect((await p.print(ZPL)).bytesWritten).toBe(ZPL.length);
    // A different printer plugged in does not count.
    bus.plug(zd421('OTHER', 9));
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toEqual(['detached', 'attached']);
  });

  it('names the device and the udev fix when this user may not open it', async () => {
    const d = zd421('P', 11);
    d.script.deny = 'access';
    const bus = fakeBus(d);
    const p = openPrinter('usb://0a5f:0166', { usb: bus, timeoutMs: 200 });
    printers.push(p);
    const err = await p.print(ZPL).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: process.platform === 'linux' ? 'printer_permission' : 'printer_permission', delivered: 'none' });
    if (process.platform === 'linux') expect((err as Error).message).toMatch(/bus 1 device 11, 0a5f:0166.*60-shipping-station-printers\.rules.*udevadm/);
    expect(await p.status()).toMatchObject({ state: 'error', code: 'printer_permission' });
    // Matching by make/model needs to open it: the same error, naming the device.
    const q = open(URI('P'), bus);
    await expect(q.print(ZPL)).rejects.toMatchObject({ code: 'printer_permission' });
  });

  it('says busy when another program holds the interface', async () => {
    const d = zd421('B');
    d.script.deny = 'busy';
    const p = open(URI('B'), fakeBus(d));
    await expect(p.print(ZPL)).rejects.toMatchObject({ code: 'printer_error', delivered: 'none', message: expect.stringContaining('another program') });
    expect(d.kernelDriver).toBe(true); // usblp given back
  });
});

describe('USB printer: status over bulk IN', () => {
  it('reads ~HQES~HS answers in 64-byte packets: ready, paper out from ~HQES, head open', async () => {
    const d = zd421('H');
    const p = open(URI('H'), fakeBus(d));
    expect(await p.status()).toMatchObject({ state: 'ready', buffer: { formats: 0, labelsRemaining: 0 } });
    d.script.hqes = 0x1; // media out, reported only by ~HQES
    expect(await p.status()).toMatchObject({ state: 'paper_out' });
    d.script.hqes = 0;
    d.script.hs = { headUp: true };
    expect(await p.status()).toMatchObject({ state: 'head_open' });
    d.script.hs = {};
    d.script.ignoresHqes = true;
    expect(await p.status()).toMatchObject({ state: 'ready' });
  });

  it('is status unknown, never ready, when the printer does not answer', async () => {
    const d = zd421('Q');
    d.script.answers = false;
    const p = open(URI('Q'), fakeBus(d), 150);
    expect(await p.status()).toMatchObject({ state: 'unknown', detail: expect.stringContaining('did not answer') });
  });
});

describe('USB discovery', () => {
  it('lists printer-class devices with make, model, serial and the usb:// URI CUPS would write; a denied one with the fix', async () => {
    const a = zd421('D2J193601234', 5);
    const denied = zd421('X', 6);
    denied.script.deny = 'access';
    const bus = fakeBus(a, denied);
    const found = await discoverPrinters({ usb: bus, queues: () => Promise.resolve([{ queue: 'Zebra_ZD421', uri: 'printer:Zebra_ZD421' }]) });
    expect(found[0]).toEqual({
      uri: 'usb://Zebra%20Technologies/ZTC%20ZD421-203dpi%20ZPL?serial=D2J193601234',
      name: 'Zebra Technologies ZTC ZD421-203dpi ZPL (USB, D2J193601234)',
      nameParts: { kind: 'usb', what: 'Zebra Technologies ZTC ZD421-203dpi ZPL (D2J193601234)' },
      kind: 'usb',
      current: false,
    });
    expect(found[1]).toMatchObject({ uri: 'usb://0a5f:0166', kind: 'usb' });
    // A device the station cannot open keeps the name with the fix: no parts to reword it.
    expect(found[1]).not.toHaveProperty('nameParts');
    expect(found[2]).toMatchObject({ uri: 'printer:Zebra_ZD421', kind: 'queue', nameParts: { kind: 'queue', what: 'Zebra_ZD421' } });
    expect(a.opened).toBe(false);
    // The discovered URI opens the same printer.
    const p = open(found[0]!.uri, bus);
    await p.print(ZPL);
    expect(a.jobBytes()).toContain('LDV000000001');
    expect(usbUri('Zebra', "ZD421 (it's)", 'A B')).toBe('usb://Zebra/ZD421%20%28it%27s%29?serial=A%20B');
  });
});

describe('USB printer with the job runner', () => {
  it('holds the job while ~HQES says paper out, prints it once paper is in, and follows unplug/replug in the header status', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { openStore } = await import('../../../../../electron/core/store');
    const { createEmitter } = await import('../../../../../electron/core/common/events');
    const { createPrinterService } = await import('../../../../../electron/core/printing/jobs/service');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usbjobs-'));
    const store = openStore(path.join(dir, 's.db'));
    const d = zd421('R');
    const bus = fakeBus(d);
    const states: string[] = [];
    const svc = createPrinterService({
      store,
      events: createEmitter(),
      uri: URI('R'),
      open: (u) => open(u, bus, 200),
      retryMs: 30,
      confirmPollMs: 5,
      onStatus: (v) => states.push(v.state),
    });
    try {
      store.shipments.recordPlatform({ trackingNumber: 'LDV9', platformId: 9, reference: 'R9', contractCode: 'BRT-EXP', carrierCode: 'BRT', statusKey: 'shipped', costTotal: 1, currency: 'EUR', platform: null });
      store.labels.save('LDV9', 'ZPL', ZPL);
      d.script.hqes = 0x1;
      const out = await svc.printLabel('LDV9', 'auto');
      expect(out.job).toMatchObject({ state: 'queued', lastError: expect.stringContaining('out of paper') });
      expect(d.jobBytes()).toBe('');
      d.script.hqes = 0;
      await vi.waitFor(() => expect(store.printJobs.list()[0]?.state).toBe('printed'), { timeout: 2000 });
      expect(d.jobBytes()).toBe(Buffer.from(ZPL).toString('latin1'));

      // Hot-plug: the header's status follows within a second, no restart.
      await svc.view();
      bus.unplug(d);
      await vi.waitFor(() => expect(svc.cached().state).toBe('unreachable'), { timeout: 1000 });
      bus.plug(d);
      await vi.waitFor(() => expect(svc.cached().state).toBe('ready'), { timeout: 1000 });
      expect(states).toContain('unreachable');
      expect(states.at(-1)).toBe('ready');
    } finally {
      await svc.close();
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
