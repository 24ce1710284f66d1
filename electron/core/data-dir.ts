/**
 * The station's data folder is private to the user running it (issue 15
 * "Private data"): the folder is 0700 and the files the station keeps there
 * (SQLite databases with their -wal/-shm companions, the training sandbox's
 * state) are 0600, whoever created them and whatever the umask was. Files
 * made by an older version with looser modes are tightened at start.
 *
 * POSIX modes only: on Windows the folder lives in the user's profile, whose
 * ACL already keeps other users out, and chmod changes only the read-only bit.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Folder mode: owner rwx only. */
const DATA_DIR_MODE = 0o700;
/** File mode of databases and state: owner rw only. */
export const DATA_FILE_MODE = 0o600;

/** Files of the data folder that hold station data: SQLite files and companions, JSON state. */
const PRIVATE_FILE = /\.(sqlite|sqlite-wal|sqlite-shm|sqlite-journal|json)$/;

/**
 * Creates `dir` (and missing parents) with mode 0700, or takes the group and
 * other bits off an existing one, then takes them (and the execute bit) off
 * every station data file directly in it, so a 0644 file becomes 0600.
 * Owner bits are never added: a file or folder the user made read-only stays
 * read-only (0444 becomes 0400), so the store still reports it as read-only
 * instead of the station silently making it writable. A mode that cannot be
 * changed (a file of another user) is left for the store to report.
 * Returns the paths whose mode was changed (for the start-up log).
 * @throws Error (EACCES, ENOTDIR, …) from the file system when the folder cannot be created.
 */
export function ensurePrivateDataDir(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  const changed: string[] = [];
  if (process.platform === 'win32') return changed;
  if (tighten(dir, DATA_DIR_MODE)) changed.push(dir);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isFile() || !PRIVATE_FILE.test(e.name)) continue;
    const file = path.join(dir, e.name);
    if (tighten(file, DATA_FILE_MODE)) changed.push(file);
  }
  return changed;
}

/** Clears the bits of `p`'s mode outside `allowed`; true when the mode changed. */
function tighten(p: string, allowed: number): boolean {
  const current = fs.statSync(p).mode & 0o777;
  const wanted = current & allowed;
  if (wanted === current) return false;
  try {
    fs.chmodSync(p, wanted);
    return true;
  } catch {
    return false;
  }
}
