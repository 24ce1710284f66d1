import { afterEach, describe, expect, it } from 'vitest';
import { PrinterError, openPrinter, type LabelPrinter } from '../../../../electron/core/printing';
import { renderLabelsZpl } from '../../../../electron/sandbox/labels';
import { parcels } from '../../../unit/sandbox/labels/fixtures';
import { closedPort, startFakePrinter, type FakePrinter } from './fake-printer';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function setup(mode: Parameters<typeof startFakePrinter>[0] = 'ready', timeoutMs = 2000): Promise<{ fake: FakePrinter; printer: LabelPrinter }> {
  const fake = await startFakePrinter(mode);
  const printer = openPrinter(fake.uri, { timeoutMs });
  cleanup.push(() => printer.close(), () => fake.close());
  return { fake, printer };
}

describe('socket printer: printing', () => {
  it('sends every byte of the labels and reports the count and time', async () => {
    const { fake, printer } = await setup();
    const zpl = Buffer.from(renderLabelsZpl(parcels(3)), 'utf8');
    const result = await printer.print(zpl, { jobName: 'LDV 900000000001' });
    expect(result.bytesWritten).toBe(zpl.byteLength);
    expect(result.durationMs).toBeGreaterThan(0);
    const received = await fake.job(0);
    expect(Buffer.compare(received, zpl)).toBe(0);
    expect(received.toString('utf8')).toContain('NICCOLÒ PELLEGRINI');
  });

  it('runs jobs one at a time in call order, one connection each', async () => {
    const { fake, printer } = await setup();
    const a = Buffer.from('^XA^FDfirst^FS^XZ');
    const b = Buffer.from('^XA^FDsecond^FS^XZ');
    await Promise.all([printer.print(a), printer.print(b)]);
    expect((await fake.job(0)).toString()).toBe(a.toString());
    expect((await fake.job(1)).toString()).toBe(b.toString());
  });

  it('fails with printer_unreachable when the connection is refused', async () => {
    const port = await closedPort();
    const printer = openPrinter(`socket://127.0.0.1:${port}`, { timeoutMs: 2000 });
    const err = await printer.print(Buffer.from('^XA^XZ')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrinterError);
    expect(err).toMatchObject({ code: 'printer_unreachable', message: expect.stringContaining(`127.0.0.1:${port}`) });
    // The same as a core text, the address among its values, for an Italian bench (issue 25).
    expect(err).toMatchObject({ text: { key: 'socketRefused', values: { where: `127.0.0.1:${port}` } } });
    expect(await printer.status()).toMatchObject({ state: 'unreachable' });
  });

  it('fails with printer_timeout when the printer stops taking data', async () => {
    const { fake, printer } = await setup('stall', 300);
    const big = Buffer.alloc(64 * 1024 * 1024, 0x41); // more than loopback socket buffers hold
    const err = await printer.print(big).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'printer_timeout', message: expect.stringContaining('took no data') });
    expect(err).toMatchObject({ text: { key: 'socketNoData', values: { ms: 300, total: big.byteLength } } });
    expect(fake.jobs).toHaveLength(0);
  });

  it('stops on abort, with the signal reason', async () => {
    const { fake, printer } = await setup('stall', 5000);
    const ac = new AbortController();
    const connected = fake.nextConnection();
    const job = printer.print(Buffer.alloc(64 * 1024 * 1024, 0x41), { signal: ac.signal }).catch((e: unknown) => e);
    await connected;
    ac.abort();
    expect(await job).toMatchObject({ name: 'AbortError' });
    const pre = new AbortController();
    pre.abort();
    await expect(printer.print(Buffer.from('^XA^XZ'), { signal: pre.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses to print after close', async () => {
    const { printer } = await setup();
    await printer.close();
    await expect(printer.print(Buffer.from('^XA^XZ'))).rejects.toMatchObject({ code: 'printer_error' });
  });
});

describe('socket printer: ~HS status', () => {
  it.each([
    ['ready', 'ready', 'Ready'],
    ['paper_out', 'paper_out', 'Out of paper'],
    ['head_open', 'head_open', 'Printhead open'],
    ['paused', 'paused', 'Paused'],
    ['chunked', 'ready', 'Ready'],
  ] as const)('fake printer in mode %s reads as %s', async (mode, state, detail) => {
    const { printer } = await setup(mode);
    const s = await printer.status();
    expect(s.state).toBe(state);
    expect(s.detail).toContain(detail);
  });

  it('is status unknown, never ready, when the printer does not answer in time', async () => {
    const { printer } = await setup('silent', 300);
    const t0 = performance.now();
    const s = await printer.status();
    expect(s.state).toBe('unknown');
    expect(s.detail).toContain('did not answer ~HS within 300 ms');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('is status unknown when the answer is not ~HS or the printer hangs up', async () => {
    const { fake, printer } = await setup('garbage');
    expect(await printer.status()).toMatchObject({ state: 'unknown', detail: expect.stringContaining('Unexpected answer') });
    fake.mode = 'hangup';
    expect(await printer.status()).toMatchObject({ state: 'unknown', detail: expect.stringContaining('without answering') });
  });

  it('follows the printer as it changes (paper out, then reloaded)', async () => {
    const { fake, printer } = await setup('paper_out');
    expect((await printer.status()).state).toBe('paper_out');
    fake.mode = 'ready';
    expect((await printer.status()).state).toBe('ready');
    // Status queries do not count as jobs.
    expect(fake.jobs).toHaveLength(0);
  });
});
