/**
 * The print job runner (electron/core/printing/jobs/service.ts) against a
 * scripted in-memory printer: jobs that survive the printer (off, out of
 * paper, head open), in order, never twice; status asked before a job when
 * stale; "printed" only once the printer's buffer is empty; printers that
 * never answer status print as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPrinterService } from '../../../../../electron/core/printing/jobs/service';
import type { PrinterService } from '../../../../../electron/core/common/services';
import { createEmitter } from '../../../../../electron/core/common/events';
import { PrinterError, type LabelPrinter, type PrinterStatus } from '../../../../../electron/core/printing';
import { ScriptedPrinter } from '../../../../support/scripted-printer';
import { openStore, type Store } from '../../../../../electron/core/store';
import { PrinterProfilesSetting } from '../../../../../electron/core/printing/jobs/service-api';
import type { PrintJobView } from '../../../../../shared/contract/views';
import { storeShipmentWithLabel } from '../../../../support/label-shipment';

const PAPER_OUT: PrinterStatus = { state: 'paper_out', detail: 'Out of paper; Paused', buffer: { formats: 0, labelsRemaining: 0 } };
const HEAD_OPEN: PrinterStatus = { state: 'head_open', detail: 'Printhead open', buffer: { formats: 0, labelsRemaining: 0 } };
const READY: PrinterStatus = { state: 'ready', detail: 'Ready', buffer: { formats: 0, labelsRemaining: 0 } };

let dir: string;
let store: Store;
let svc: PrinterService | undefined;
let clock = 1_000_000;
const events: PrintJobView[] = [];

function shipment(ldv: string): void {
  storeShipmentWithLabel(store, ldv, 'ZPL', `^XA^FD${ldv}^FS^XZ`);
}

function service(p: LabelPrinter, extra: Partial<Parameters<typeof createPrinterService>[0]> = {}): PrinterService {
  const emitter = createEmitter();
  emitter.on('printJobs.changed', (j) => events.push(j));
  svc = createPrinterService({ store, events: emitter, uri: p.uri, open: () => p, retryMs: 40, confirmPollMs: 5, now: () => clock, ...extra });
  return svc;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-'));
  store = openStore(path.join(dir, 'station.db'));
  events.length = 0;
  clock = 1_000_000;
});
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('print job runner', () => {
  it('holds jobs while the printer is out of paper and prints them by itself, in order, once, when it is ready', async () => {
    const p = new ScriptedPrinter();
    p.status_ = PAPER_OUT;
    const s = service(p);
    for (const ldv of ['LDV1', 'LDV2', 'LDV3']) shipment(ldv);
    const first = await s.printLabel('LDV1', 'auto');
    expect(first.job).toMatchObject({ state: 'queued', lastError: expect.stringContaining('out of paper') });
    expect(first.error?.message).toContain('out of paper');
    await s.printLabel('LDV2', 'auto');
    await s.printLabel('LDV3', 'auto');
    expect(p.printed).toEqual([]);
    expect(s.pending().map((j) => [j.trackingNumber, j.state])).toEqual([
      ['LDV1', 'queued'],
      ['LDV2', 'queued'],
      ['LDV3', 'queued'],
    ]);
    expect(s.pending().every((j) => j.lastError?.includes('out of paper'))).toBe(true);
    expect(s.cached().state).toBe('paper_out');

    p.status_ = READY;
    clock += 10_000;
    await vi.waitFor(() => expect(p.printed).toHaveLength(3), { timeout: 2000 });
    await s.idle();
    expect(p.printed.map((z) => /LDV\d/.exec(z)?.[0])).toEqual(['LDV1', 'LDV2', 'LDV3']);
    expect(s.pending()).toEqual([]);
    expect(store.printJobs.list().map((j) => j.state)).toEqual(['printed', 'printed', 'printed']);
    // Asking again for the automatic print of a printed label does not print it again.
    const again = await s.printLabel('LDV1', 'auto');
    expect(again.job?.state).toBe('printed');
    await new Promise((r) => setTimeout(r, 100));
    expect(p.printed).toHaveLength(3);
  });

  it('waits while the head is open, then prints; a job refused before any byte waits too and goes out later', async () => {
    const p = new ScriptedPrinter();
    const s = service(p);
    shipment('LDV1');
    p.outcomes = ['refused'];
    const out = await s.printLabel('LDV1', 'auto');
    expect(out.job).toMatchObject({ state: 'queued', attempts: 1 });
    expect(out.error?.code).toBe('printer_unreachable');
    p.status_ = HEAD_OPEN;
    clock += 10_000;
    await vi.waitFor(() => expect(s.pending()[0]?.lastError).toContain('printhead open'), { timeout: 2000 });
    expect(p.printed).toEqual([]);
    p.status_ = READY;
    clock += 10_000;
    await vi.waitFor(() => expect(p.printed).toHaveLength(1), { timeout: 2000 });
    await s.idle();
    expect(store.printJobs.list()[0]).toMatchObject({ state: 'printed', attempts: 2 });
  });

  it('fails a job that broke mid-way and never resends it on its own; the packer reprints', async () => {
    const p = new ScriptedPrinter();
    const s = service(p);
    shipment('LDV1');
    p.outcomes = ['reset'];
    const out = await s.printLabel('LDV1', 'auto');
    expect(out.job?.state).toBe('failed');
    expect(out.error?.message).toContain('part of the label may have printed');
    await new Promise((r) => setTimeout(r, 150));
    expect(p.printed).toEqual([]);
    const re = await s.printLabel('LDV1', 'reprint');
    expect(re.job).toMatchObject({ state: 'printed', requestedBy: 'reprint' });
    expect(p.printed).toHaveLength(1);
  });

  it('asks for status before a job only when the last answer is older than a few seconds', async () => {
    const p = new ScriptedPrinter();
    const s = service(p);
    shipment('LDV1');
    shipment('LDV2');
    shipment('LDV3');
    await s.printLabel('LDV1', 'auto');
    const afterFirst = p.statusCalls;
    expect(afterFirst).toBeGreaterThanOrEqual(2); // before the job, and to confirm the buffer emptied
    await s.printLabel('LDV2', 'auto');
    expect(p.statusCalls - afterFirst).toBe(1); // fresh answer: only the confirmation
    clock += 10_000;
    const before3 = p.statusCalls;
    await s.printLabel('LDV3', 'auto');
    expect(p.statusCalls - before3).toBe(2);
  });

  it('calls a job printed only once the printer says its buffer is empty; a label held by the printer stays printing', async () => {
    const p = new ScriptedPrinter();
    const s = service(p, { waitMs: 300 });
    shipment('LDV1');
    p.afterJob = [
      READY, // before the job
      { state: 'ready', detail: 'Ready (1 format waiting)', buffer: { formats: 1, labelsRemaining: 1 } },
      { ...PAPER_OUT, buffer: { formats: 1, labelsRemaining: 1 } },
    ];
    const out = await s.printLabel('LDV1', 'auto');
    expect(out.job).toMatchObject({ state: 'printing', lastError: expect.stringContaining('In the printer, waiting: printer out of paper') });
    expect(p.printed).toHaveLength(1);
    await vi.waitFor(() => expect(store.printJobs.list()[0]?.state).toBe('printed'), { timeout: 2000 });
    expect(p.printed).toHaveLength(1);
  });

  it('prints to a printer that never answers status as before, and shows "status unknown"', async () => {
    const p = new ScriptedPrinter();
    p.status_ = { state: 'unknown', detail: 'did not answer ~HS' };
    const s = service(p);
    shipment('LDV1');
    shipment('LDV2');
    expect((await s.printLabel('LDV1', 'auto')).job?.state).toBe('printed');
    expect(s.cached().state).toBe('unknown');
    const calls = p.statusCalls;
    expect((await s.printLabel('LDV2', 'auto')).job?.state).toBe('printed');
    expect(p.statusCalls).toBe(calls); // not asked again before every job
  });

  it('prints the jobs a previous run left queued as soon as it is kicked, and re-plugging a USB printer resumes at once', async () => {
    const p = new ScriptedPrinter('usb://Zebra/ZD421?serial=X1');
    shipment('LDV1');
    const label = store.labels.getLatest('LDV1', 'ZPL');
    store.printJobs.enqueue({ labelId: label!.id, printerUri: 'socket://old:9100', requestedBy: 'auto' });
    p.status_ = { state: 'unreachable', detail: 'unplugged' };
    const s = service(p, { retryMs: 60_000 });
    s.kick();
    await s.idle();
    expect(p.printed).toEqual([]);
    p.status_ = READY;
    p.fire('attached');
    await vi.waitFor(() => expect(p.printed).toHaveLength(1), { timeout: 2000 });
    await s.idle();
    expect(store.printJobs.list()[0]).toMatchObject({ state: 'printed', printerUri: 'usb://Zebra/ZD421?serial=X1' });
  });

  it('cancels a waiting job so it never prints', async () => {
    const p = new ScriptedPrinter();
    p.status_ = PAPER_OUT;
    const s = service(p);
    shipment('LDV1');
    const out = await s.printLabel('LDV1', 'auto');
    const cancelled = s.cancel(out.job!.id);
    expect(cancelled).toMatchObject({ state: 'failed', lastError: 'cancelled by the packer' });
    p.status_ = READY;
    clock += 10_000;
    await new Promise((r) => setTimeout(r, 150));
    expect(p.printed).toEqual([]);
    expect(() => s.cancel(out.job!.id)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });

  it('refuses to switch to a printer whose probe does not answer in time, naming the URI, and keeps the old one', async () => {
    const p = new ScriptedPrinter();
    const hung: LabelPrinter = { uri: 'file:///mnt/hung', print: () => new Promise(() => undefined), status: () => new Promise(() => undefined), close: () => Promise.resolve() };
    const s = service(p, { open: (u) => (u === hung.uri ? hung : p), probeMs: 50 });
    await expect(s.setUri(hung.uri)).rejects.toMatchObject({ code: 'printer_error', message: expect.stringContaining('file:///mnt/hung') });
    expect(s.uri).toBe(p.uri);
  });

  it('prints a job pinned to a rule\'s printer there with its profile, while that printer waits the others go on, and a reprint follows it', async () => {
    const main = new ScriptedPrinter('socket://10.0.0.9:9100');
    const big = new ScriptedPrinter('socket://10.0.0.10:9100');
    store.settings.set(PrinterProfilesSetting, { [big.uri]: { dpi: 300, widthMm: 102, heightMm: 203, darkness: 25, speedIps: 4, media: 'direct_thermal', topOffsetDots: 0 } });
    const s = service(main, { open: (u) => (u === big.uri ? big : main) });
    for (const ldv of ['LDV1', 'LDV2', 'LDV3']) shipment(ldv);
    const pinned = await s.printLabel('LDV1', 'auto', { printerUri: big.uri });
    expect(pinned.job).toMatchObject({ state: 'printed', printerUri: big.uri });
    expect(big.printed).toHaveLength(1);
    expect(big.printed[0]).toMatch(/^~SD25\^XA\^PW1205\^LL2398\^PR4\^MTD\^LT0/);
    expect(main.printed).toEqual([]);
    // The rule's printer runs out of paper: its job waits, a job of the printer in use still prints.
    big.status_ = PAPER_OUT;
    const waiting = await s.printLabel('LDV2', 'auto', { printerUri: big.uri });
    expect(waiting.job).toMatchObject({ state: 'queued', printerUri: big.uri, lastError: expect.stringContaining('out of paper') });
    const plain = await s.printLabel('LDV3', 'auto');
    expect(plain.job).toMatchObject({ state: 'printed', printerUri: main.uri });
    expect(main.printed).toHaveLength(1);
    expect(main.printed[0]).not.toContain('~SD25');
    expect(s.cached().state).toBe('ready');
    big.status_ = READY;
    s.kick();
    await vi.waitFor(() => expect(big.printed).toHaveLength(2), { timeout: 2000 });
    await s.idle();
    // The packer's reprint of a pinned label goes to the same printer.
    const again = await s.printLabel('LDV1', 'reprint');
    expect(again.job).toMatchObject({ state: 'printed', printerUri: big.uri, requestedBy: 'reprint' });
    expect(big.printed).toHaveLength(3);
    expect(main.printed).toHaveLength(1);
  });

  it('fails a pinned job naming the URI when the rule\'s printer cannot be opened, and prints the others', async () => {
    const main = new ScriptedPrinter();
    const s = service(main, {
      open: (u) => {
        if (u === main.uri) return main;
        throw new PrinterError('invalid_printer_uri', `cannot open ${u}`);
      },
    });
    shipment('LDV1');
    shipment('LDV2');
    const out = await s.printLabel('LDV1', 'auto', { printerUri: 'usb://Nowhere/X' });
    expect(out.job).toMatchObject({ state: 'failed', lastError: expect.stringContaining('usb://Nowhere/X') });
    expect((await s.printLabel('LDV2', 'auto')).job).toMatchObject({ state: 'printed', printerUri: main.uri });
  });
});
