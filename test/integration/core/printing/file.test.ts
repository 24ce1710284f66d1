import bwipjs from 'bwip-js/node';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPrinter, stopZplPreviewWorker } from '../../../../electron/core/printing';
import { renderLabelsZpl } from '../../../../electron/sandbox/labels';
import { parcels } from '../../../unit/sandbox/labels/fixtures';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'station-file-printer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await stopZplPreviewWorker();
});

const folderUri = (d: string): string => pathToFileURL(d).href;

/** Widths of alternating dark/light runs along row `y` between x0 and x1, starting at the first dark pixel. */
function runs(png: PNG, y: number, x0: number, x1: number): number[] {
  const dark = (x: number): boolean => (png.data[(y * png.width + x) * 4] ?? 255) < 128;
  const out: number[] = [];
  let x = x0;
  while (x < x1 && !dark(x)) x++;
  let last = x1 - 1;
  while (last > x && !dark(last)) last--;
  let cur = dark(x);
  let len = 0;
  for (; x <= last; x++) {
    if (dark(x) === cur) len++;
    else {
      out.push(len);
      cur = !cur;
      len = 1;
    }
  }
  out.push(len);
  return out;
}

describe('file printer', () => {
  it('writes the .zpl bytes and one 812x1218 PNG preview per label', async () => {
    const printer = openPrinter(folderUri(dir));
    const labels = parcels(3);
    const zpl = Buffer.from(renderLabelsZpl(labels), 'utf8');
    const r = await printer.print(zpl, { jobName: 'LDV 900000000001' });
    expect(r.bytesWritten).toBe(zpl.byteLength);
    expect(r.zplPath).toBe(join(dir, 'LDV_900000000001.zpl'));
    expect(r.previewPaths).toEqual([join(dir, 'LDV_900000000001.png'), join(dir, 'LDV_900000000001.2.png'), join(dir, 'LDV_900000000001.3.png')]);
    expect(r.previewError).toBeUndefined();
    expect(Buffer.compare(await readFile(r.zplPath ?? ''), zpl)).toBe(0);
    for (const p of r.previewPaths ?? []) {
      const png = PNG.sync.read(await readFile(p));
      expect([png.width, png.height]).toEqual([812, 1218]);
    }
    expect((await readdir(dir)).sort()).toEqual(['LDV_900000000001.2.png', 'LDV_900000000001.3.png', 'LDV_900000000001.png', 'LDV_900000000001.zpl']);
  });

  it('draws the same Code 128 bars in the preview as bwip-js encodes for the tracking number', async () => {
    const printer = openPrinter(folderUri(dir));
    const [first] = parcels(1);
    const r = await printer.print(Buffer.from(renderLabelsZpl([first!]), 'utf8'), { jobName: 'bars' });
    const preview = PNG.sync.read(await readFile(r.previewPaths?.[0] ?? ''));
    // Middle of the barcode (layout: bars from y=846, 220 dots tall), inside the frame.
    const seen = runs(preview, 846 + 110, 20, 792);
    const ref = PNG.sync.read(await bwipjs.toBuffer({ bcid: 'code128', text: first!.trackingNumber, scale: 1, height: 2, backgroundcolor: 'FFFFFF' }));
    const expected = runs(ref, 1, 0, ref.width);
    const module = seen.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
    expect(module).toBeGreaterThanOrEqual(2);
    expect(seen.map((w) => w / module)).toEqual(expected);
  });

  it('never overwrites: a second job with the same name gets a suffix; no name means a timestamp', async () => {
    const printer = openPrinter(folderUri(dir));
    const zpl = Buffer.from(renderLabelsZpl(parcels(1)), 'utf8');
    const a = await printer.print(zpl, { jobName: 'job' });
    const b = await printer.print(zpl, { jobName: 'job' });
    expect(a.zplPath).toBe(join(dir, 'job.zpl'));
    expect(b.zplPath).toBe(join(dir, 'job-2.zpl'));
    expect(b.previewPaths).toEqual([join(dir, 'job-2.png')]);
    const c = await printer.print(zpl);
    expect(c.zplPath).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.zpl$/);
  });

  it('renders previews at 300 dpi as 1200x1800', async () => {
    const printer = openPrinter(folderUri(dir), { dpi: 300 });
    const r = await printer.print(Buffer.from(renderLabelsZpl(parcels(1), 300), 'utf8'), { jobName: 'hi-res' });
    const png = PNG.sync.read(await readFile(r.previewPaths?.[0] ?? ''));
    expect([png.width, png.height]).toEqual([1200, 1800]);
  });

  it('draws the preview at the label the job was made for (the printer profile), not the station dpi', async () => {
    const printer = openPrinter(folderUri(dir), { dpi: 203 });
    // A 600 dpi 100 x 150 mm label without ^PW/^LL: only the job's media says its size.
    const zpl = '^XA^FO100,100^A0N,120,120^FDPROFILE 600^FS^XZ';
    const r = await printer.print(Buffer.from(zpl, 'utf8'), { jobName: 'profile-600', media: { dpi: 600, widthMm: 100, heightMm: 150 } });
    const png = PNG.sync.read(await readFile(r.previewPaths?.[0] ?? ''));
    expect([png.width, png.height]).toEqual([2362, 3543]);
  });

  it('keeps the job when no preview can be made, and says why', async () => {
    const printer = openPrinter(folderUri(dir));
    const r = await printer.print(Buffer.from('not zpl at all'), { jobName: 'junk' });
    expect(await readFile(join(dir, 'junk.zpl'), 'utf8')).toBe('not zpl at all');
    expect(r.previewPaths).toEqual([]);
    expect(r.previewError).toContain('no ^XA...^XZ label');
  });

  it('creates a missing folder, and reports an unwritable one', async () => {
    const nested = join(dir, 'labels', 'today');
    const printer = openPrinter(folderUri(nested));
    expect(await printer.status()).toMatchObject({ state: 'ready' });
    await printer.print(Buffer.from('^XA^FO10,10^A0N,30,30^FDok^FS^XZ'), { jobName: 'ok' });
    expect(await readdir(nested)).toContain('ok.zpl');

    // A folder "inside" a regular file can never be created, even as root.
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, 'x');
    const bad = openPrinter(folderUri(join(blocker, 'labels')));
    expect(await bad.status()).toMatchObject({ state: 'error', detail: expect.stringContaining('not writable') });
    await expect(bad.print(Buffer.from('^XA^XZ'))).rejects.toMatchObject({ code: 'printer_error' });
  });
});
