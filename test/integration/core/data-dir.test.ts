/**
 * Private data (issue 15): the station creates its data folder 0700 and its
 * databases 0600, and tightens a folder and files left looser by an older
 * version or a permissive umask. Real createStation in training mode (the
 * embedded sandbox) on a temp folder; modes read back with stat.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../../electron/core/station';
import { startStation } from '../../../electron/shell/start';
import { trainingSandboxFile } from '../../../electron/training';
import { ensurePrivateDataDir } from '../../../electron/core/data-dir';
import { tempDir } from './helpers';

const mode = (p: string) => fs.statSync(p).mode & 0o777;
let tmp: ReturnType<typeof tempDir>;
let oldUmask: number;

beforeEach(() => {
  tmp = tempDir('station-modes-');
  oldUmask = process.umask(0o022); // the usual permissive umask: files 0644, folders 0755
});
afterEach(() => {
  process.umask(oldUmask);
  tmp.cleanup();
});

describe.skipIf(process.platform === 'win32')('data folder modes', () => {
  it('a new data folder is 0700 and the training databases 0600 (with their WAL files)', async () => {
    const dataDir = path.join(tmp.dir, 'nested', 'station');
    const station = await startStation({ dataDir, platform: { mode: 'sandbox' }, printerUri: `file://${path.join(tmp.dir, 'labels')}`, ignoredArgs: [] });
    try {
      expect(mode(dataDir)).toBe(0o700);
      const db = databaseFile(dataDir, 'sandbox');
      expect(mode(db)).toBe(0o600);
      for (const companion of [`${db}-wal`, `${db}-shm`]) if (fs.existsSync(companion)) expect([companion, mode(companion)]).toEqual([companion, 0o600]);
    } finally {
      await station.close();
    }
    // A state file the sandbox wrote under a loose umask is private at the next start.
    const state = trainingSandboxFile(dataDir);
    if (fs.existsSync(state)) fs.chmodSync(state, 0o644);
    const again = await startStation({ dataDir, platform: { mode: 'sandbox' }, printerUri: `file://${path.join(tmp.dir, 'labels')}`, ignoredArgs: [] });
    await again.close();
    if (fs.existsSync(state)) expect(mode(state)).toBe(0o600);
  });

  it('an existing folder and files with loose modes are tightened at start, and say so', async () => {
    const dataDir = path.join(tmp.dir, 'old');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const first = await startStation({ dataDir, platform: { mode: 'sandbox' }, printerUri: `file://${path.join(tmp.dir, 'labels')}`, ignoredArgs: [] });
    await first.close();
    const db = databaseFile(dataDir, 'sandbox');
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(db, 0o644);
    const lines: string[] = [];
    const second = await startStation({ dataDir, platform: { mode: 'sandbox' }, printerUri: `file://${path.join(tmp.dir, 'labels')}`, ignoredArgs: [] }, { log: (l) => lines.push(l) });
    await second.close();
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(db)).toBe(0o600);
    expect(lines.join('\n')).toContain(`data folder: made private (0700/0600): ${dataDir}, `);
  });

  it('ensurePrivateDataDir leaves files that are not station data alone', () => {
    const dataDir = path.join(tmp.dir, 'd');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'x', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'station.sqlite'), '', { mode: 0o644 });
    expect(ensurePrivateDataDir(dataDir)).toEqual([dataDir, path.join(dataDir, 'station.sqlite')]);
    expect(mode(path.join(dataDir, 'notes.txt'))).toBe(0o644);
    expect(ensurePrivateDataDir(dataDir)).toEqual([]);
  });
});
