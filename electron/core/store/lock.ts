/**
 * One station per data folder (issue 7 item 8): a second station on the
 * same folder would run a second outbox worker over the same queued
 * shipments (two posts, two payments) and fight over the training sandbox's
 * state file. {@link lockDataFolder} takes an OS-level lock held for the
 * life of the process and answers a second station with a clear "already
 * running".
 *
 * Why this lock: the station already carries SQLite (better-sqlite3), whose
 * file locks are the operating system's own (POSIX `fcntl` record locks,
 * Windows `LockFileEx`). A connection in `locking_mode = EXCLUSIVE` that has
 * written once keeps its exclusive lock until it closes, and the kernel drops
 * it when the process ends in any way, kill -9 and power loss included, so
 * there is never a stale lock to time out or clean up (the weak point of
 * lock-directory schemes such as `proper-lockfile`, which must guess
 * staleness from an mtime and would refuse a restart for seconds after a
 * crash) and no new native module to ship. SQLite also tracks its locks per
 * file within a process, so a second station in the same process is refused
 * too. Limits: like every advisory lock, it binds only programs that ask
 * (SQLite does); on network file systems whose locking is broken it may not
 * hold. Electron's own single-instance lock (electron/main) additionally
 * keeps one window per folder.
 *
 * Files: `<dataDir>/station.lock` (the SQLite lock file; never opened by
 * anything else in the process, since closing any descriptor of a file drops
 * a process's POSIX locks on it) and `<dataDir>/station.lock.json` (who holds
 * it: pid, host, start time; only for the message).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from './errors';
import { classOfCode, classifyStoreError, errorCodeOf } from './open-errors';

/** The held lock of a data folder. */
export interface DataFolderLock {
  /** The data folder. */
  readonly dir: string;
  /** Releases the lock (closes its connection) and removes the holder file. Safe to call twice. */
  release(): void;
}

/** Name of the lock file in the data folder. */
export const LOCK_FILE = 'station.lock';
/** Name of the holder description beside it. */
const LOCK_HOLDER_FILE = 'station.lock.json';

/** Who holds a data folder's lock (from `station.lock.json`). */
interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

/** The holder recorded in `dir`, or undefined when there is none or it cannot be read. */
function readLockHolder(dir: string): LockHolder | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dir, LOCK_HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.startedAt === 'string') return { pid: v.pid, host: v.host, startedAt: v.startedAt };
  } catch {
    // No holder file (a station that crashed before writing it) or a damaged one: the message just says less.
  }
  return undefined;
}

/**
 * Creates `dir` when missing (mode 0700: the data is the station's alone) and
 * locks it for this process's life.
 *
 * @throws StoreError `already_running` when another station (in this or
 *   another process) holds it, naming its pid and start time when known;
 *   `permission_denied` when the folder cannot be created or written;
 *   `disk_full`; `cannot_open` for anything else. Never a raw fs or SQLite error.
 */
export function lockDataFolder(dir: string): DataFolderLock {
  const file = path.join(dir, LOCK_FILE);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    const code = errorCodeOf(e);
    if (classOfCode(code) === 'permission_denied') {
      throw new StoreError(
        'permission_denied',
        `The station may not create its data folder ${dir} (${code}). Create it for the user running the station, or start it with --data-dir set to a folder it may write.`,
        undefined,
        { cause: e },
      );
    }
    throw new StoreError('cannot_open', `Cannot create the data folder ${dir}: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = OFF');
    // The first write takes the exclusive lock; locking_mode EXCLUSIVE keeps it until close.
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, started_at TEXT NOT NULL)');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid, started_at) VALUES (?, ?)').run(process.pid, new Date().toISOString());
  } catch (e) {
    db?.close();
    if (classOfCode(errorCodeOf(e)) === 'locked') throw alreadyRunning(dir, e);
    throw classifyStoreError(e, file, 'cannot_open', 0, `its data folder ${dir} (lock file ${LOCK_FILE})`);
  }
  const holder: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  const holderFile = path.join(dir, LOCK_HOLDER_FILE);
  try {
    fs.writeFileSync(holderFile, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  } catch {
    // Only the "already running" message of a second station would say less.
  }
  const held = db;
  let released = false;
  return {
    dir,
    release() {
      if (released) return;
      released = true;
      // Remove the holder file first, while the lock still keeps others from writing theirs.
      if (readLockHolder(dir)?.pid === process.pid) fs.rmSync(holderFile, { force: true });
      held.close();
    },
  };
}

function alreadyRunning(dir: string, cause: unknown): StoreError {
  const h = readLockHolder(dir);
  const who = h ? ` (process ${h.pid} on ${h.host}, started ${h.startedAt})` : '';
  return new StoreError(
    'already_running',
    `Another Shipping Station is already running with the data folder ${dir}${who}. ` +
      'Use that one, or close it first; to run two stations on one computer, give each its own --data-dir.',
    undefined,
    { cause },
  );
}
