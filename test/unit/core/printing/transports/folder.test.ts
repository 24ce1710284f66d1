/**
 * The folder rule of `file://` device URIs (electron/core/printing/transports/folder.ts;
 * issue 21 item 4): normalised, symlinks resolved, system folders and
 * Windows devices refused, folders made in a bounded number of steps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceFolderProblem, folderPathProblem, makeFolder } from '../../../../../electron/core/printing/transports/folder';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'station-folder-'));
  made.push(d);
  return d;
}

describe('folderPathProblem (lexical)', () => {
  it('POSIX: normalises and refuses /proc, /sys, /dev however spelt', () => {
    expect(folderPathProblem('/srv//labels/./x/..', 'posix')).toEqual({ dir: '/srv/labels' });
    for (const dir of ['//proc/x', '/tmp/../proc/x', '/sys', '///dev/shm/x', '/proc']) {
      const r = folderPathProblem(dir, 'posix');
      expect('problem' in r && r.problem, dir).toMatch(/system folder/);
    }
    expect(folderPathProblem('/procedures/labels', 'posix')).toEqual({ dir: '/procedures/labels' });
    expect('problem' in folderPathProblem('/tmp/a\0b', 'posix')).toBe(true);
  });

  it('Windows: refuses device namespaces and reserved device names in any part', () => {
    for (const dir of ['\\\\.\\COM1', '\\\\?\\C:\\labels', '//./PhysicalDrive0', 'C:\\labels\\NUL', 'C:\\CON\\x', 'C:\\labels\\com1.txt', 'C:\\lpt1 \\x', 'C:\\x\\aux.']) {
      const r = folderPathProblem(dir, 'win32');
      expect('problem' in r, dir).toBe(true);
    }
    expect(folderPathProblem('C:\\Users\\bench\\labels', 'win32')).toEqual({ dir: 'C:\\Users\\bench\\labels' });
    expect(folderPathProblem('C:\\Users\\console\\labels', 'win32')).toEqual({ dir: 'C:\\Users\\console\\labels' });
  });
});

describe.skipIf(process.platform === 'win32')('deviceFolderProblem (symlinks)', () => {
  it('follows a symlink, existing or under a part not made yet, into a system folder', () => {
    const d = temp();
    fs.symlinkSync('/proc', path.join(d, 'p'));
    fs.symlinkSync('/sys/kernel', path.join(d, 's'));
    for (const dir of [path.join(d, 'p'), path.join(d, 'p', 'self', 'labels'), path.join(d, 's', 'new', 'deeper')]) {
      const r = deviceFolderProblem(dir);
      expect('problem' in r && r.problem, dir).toMatch(/leads to \/(proc|sys)/);
    }
    fs.mkdirSync(path.join(d, 'real'));
    fs.symlinkSync(path.join(d, 'real'), path.join(d, 'ok'));
    expect(deviceFolderProblem(path.join(d, 'ok', 'labels'))).toEqual({ dir: path.join(d, 'ok', 'labels') });
  });
});

describe.skipIf(process.platform === 'win32')('makeFolder', () => {
  it('makes the missing parts, and fails once (no loop) where a part cannot be made', async () => {
    const d = temp();
    await makeFolder(path.join(d, 'a', 'b', 'c'));
    expect(fs.statSync(path.join(d, 'a', 'b', 'c')).isDirectory()).toBe(true);
    await makeFolder(path.join(d, 'a', 'b', 'c'));
    fs.writeFileSync(path.join(d, 'file'), '');
    await expect(makeFolder(path.join(d, 'file', 'x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    // Where Node's recursive mkdir never settles (it retries for ever): one failed mkdir, an answer.
    await expect(makeFolder('/proc/station-no-such/x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
