/**
 * Retention of the station's own label folder (electron/core/storage/label-folder.ts):
 * printed files past the retention go, recent ones, other files and
 * sub-folders stay, and a pass stops at its bound saying there is more.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { labelFolderOf, pruneLabelFolder } from '../../../../electron/core/storage/label-folder';

const DAY = 86_400_000;
const NOW = Date.parse('2027-03-01T10:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A data folder whose label folder holds `files` (name → age in days). */
function labels(files: Record<string, number>): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'label-folder-'));
  dirs.push(dataDir);
  const dir = labelFolderOf(dataDir);
  fs.mkdirSync(path.join(dir, 'keep-me'), { recursive: true });
  for (const [name, age] of Object.entries(files)) {
    const f = path.join(dir, name);
    fs.writeFileSync(f, `^XA^FD${name}^FS^XZ`);
    fs.utimesSync(f, new Date(NOW - age * DAY), new Date(NOW - age * DAY));
  }
  return dir;
}

describe('label folder retention', () => {
  it('deletes printed files older than the retention and keeps the rest', async () => {
    const dir = labels({ 'BR1.zpl': 120, 'BR1.png': 120, 'BR1.2.png': 91, 'BR2.zpl': 89, 'BR2.png': 3, 'notes.txt': 400 });
    const r = await pruneLabelFolder(dir, 90, NOW);
    expect(r).toEqual({ removed: 3, bytes: expect.any(Number) as number, more: false });
    expect(r.bytes).toBeGreaterThan(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['BR2.png', 'BR2.zpl', 'keep-me', 'notes.txt']);
  });

  it('stops at its bound and says there is more; the next pass goes on', async () => {
    const dir = labels({ 'A.zpl': 200, 'B.zpl': 200, 'C.zpl': 200 });
    expect(await pruneLabelFolder(dir, 30, NOW, 2)).toMatchObject({ removed: 2, more: true });
    expect(await pruneLabelFolder(dir, 30, NOW, 2)).toMatchObject({ removed: 1, more: false });
    expect(fs.readdirSync(dir)).toEqual(['keep-me']);
  });

  it('is nothing to do without a label folder, and refuses a retention that is not whole days', async () => {
    const missing = path.join(os.tmpdir(), 'label-folder-missing-' + String(process.pid), 'labels');
    expect(await pruneLabelFolder(missing, 90, NOW)).toEqual({ removed: 0, bytes: 0, more: false });
    await expect(pruneLabelFolder(missing, 0, NOW)).rejects.toThrow(/days must be a whole number/);
    await expect(pruneLabelFolder(missing, 90, NOW, 0)).rejects.toThrow(/maxFiles/);
  });
});
