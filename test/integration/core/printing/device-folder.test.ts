/**
 * Issue 21 item 4, "One device-address rule": hostile `file://` addresses
 * (a system folder spelt with an empty authority `file:////proc/x`, with
 * `localhost`, through `..`, through a symlink) for the label printer
 * (`printers.set`, field `uri`) and the slip printer (`slips.settings.set`,
 * field `printerUri`) are refused at once with a field error, nothing is
 * saved, and no file-system request is left running after the answer
 * (Node's recursive mkdir never returns under /proc and spun a thread-pool
 * thread per attempt).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Station } from '../../../../electron/core/station';
import type { Sandbox } from '../../../../electron/sandbox/index';
import { startStation } from '../../../../electron/shell/start';
import { invokerOf, startSandbox, stationConfig, stationFailure, tempDir } from '../helpers';
import { startFakePrinter, type FakePrinter } from './fake-printer';

let sb: Sandbox;
let labelPrinter: FakePrinter;
let tmp: ReturnType<typeof tempDir>;
let station: Station;
const invoke = invokerOf(() => station);

beforeAll(async () => {
  sb = await startSandbox();
  labelPrinter = await startFakePrinter('ready');
  tmp = tempDir();
  station = await startStation(stationConfig(sb, tmp.dir, labelPrinter.uri), { platformTimeoutMs: 5000, printerTimeoutMs: 1000, platformRateLimits: false, slipRetryMs: 100 });
  fs.symlinkSync('/proc', path.join(tmp.dir, 'to-proc'));
});

afterAll(async () => {
  await station?.close();
  await labelPrinter?.close();
  await sb?.close();
  tmp?.cleanup();
});

/** The hostile addresses of the audit, plus a symlink into /proc made in the data folder. */
const hostile = (): string[] => [
  'file:////proc/x',
  'file://localhost//proc/x',
  'file:///tmp/../proc/x',
  'file:////sys/x',
  'file:///tmp/%2e%2e/dev/x',
  `file://${path.join(tmp.dir, 'to-proc', 'labels')}`,
];

/** File-system requests in flight (a spinning recursive mkdir shows here). */
const fsRequests = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('FSReq'));

describe('one device-address rule for file:// folders', () => {
  it('label printer: each hostile folder is refused on `uri` as invalid_printer_uri, the printer in use unchanged', async () => {
    const before = await invoke('printers.get', {});
    for (const uri of hostile()) {
      const e = await stationFailure(invoke('printers.set', { uri }));
      expect(e.code, uri).toBe('invalid_printer_uri');
      expect(e.message, uri).toMatch(/system folder/);
      expect(Object.keys(e.details ?? {}), uri).toEqual(['uri']);
      expect(fsRequests(), uri).toEqual([]);
    }
    expect((await invoke('printers.get', {})).uri).toBe(before.uri);
    expect((await invoke('printers.discover', {})).map((p) => p.uri).filter((u) => u.startsWith('file:'))).toEqual([]);
  });

  it('slip printer: each hostile folder is refused on `printerUri`, nothing saved, no slip runner left working', async () => {
    const before = await invoke('slips.settings.get', {});
    for (const printerUri of hostile()) {
      const e = await stationFailure(invoke('slips.settings.set', { ...before, printerUri, format: 'a4', when: 'on_demand' }));
      expect(e.code, printerUri).toBe('invalid_input');
      expect(Object.keys(e.details ?? {}), printerUri).toEqual(['printerUri']);
      expect(e.details?.printerUri?.[0], printerUri).toMatch(/system folder/);
      expect(fsRequests(), printerUri).toEqual([]);
    }
    expect(await invoke('slips.settings.get', {})).toEqual(before);
    expect(await invoke('slips.list', {})).toEqual([]);
  });

  it('an ordinary folder, written with `..` or `//`, is still taken (normalised) for both printers', async () => {
    const dir = path.join(tmp.dir, 'slips');
    const saved = await invoke('slips.settings.set', { printerUri: `file://${tmp.dir}/x/../slips`, format: 'a4', paperWidthMm: 80, when: 'on_demand', shopName: '' });
    expect(saved.printerUri).toBe(`file://${tmp.dir}/x/../slips`);
    const view = await invoke('printers.set', { uri: `file:///${tmp.dir}//labels` });
    expect(view.name).toBe(`Folder ${path.join(tmp.dir, 'labels')}`);
    expect(fs.statSync(path.join(tmp.dir, 'labels')).isDirectory()).toBe(true);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
