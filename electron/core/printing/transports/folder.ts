/**
 * The one rule for a folder named by a `file://` device URI (label printer,
 * slip printer, any folder setting; issue 21 item 4), applied when the URI
 * is parsed (saving a setting, opening a printer) and again right before a
 * job touches the folder (a symlink made later is caught too):
 *
 * 1. the path is normalised (`..`, `.`, repeated separators: `//proc/x` is
 *    `/proc/x`) after the WHATWG URL parser and `url.fileURLToPath` made it
 *    a path (uri.ts);
 * 2. symlinks are resolved: the real path of the nearest existing ancestor,
 *    plus the part that does not exist yet;
 * 3. both the normalised and the real path are refused under the kernel's
 *    pseudo-file systems `/proc`, `/sys`, `/dev` (on Windows: device
 *    namespaces `\\.\` and `\\?\`, and reserved device names such as `CON`,
 *    `NUL`, `COM1`, `LPT1` in any part of the path).
 *
 * Folders are made by {@link makeFolder}, one `mkdir` per missing part, a
 * bounded number of system calls: Node's `mkdir({recursive: true})` loops
 * for ever under `/proc` (mkdir answers ENOENT, its parent exists), keeping a
 * thread-pool thread spinning long after any answer.
 */
import fs from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';

/** Kernel pseudo-file systems (POSIX): never a folder for labels or slips. */
const SYSTEM_ROOTS: ReadonlyArray<string> = ['/proc', '/sys', '/dev'];
/** Windows reserved device names, also with an extension (`NUL.txt`) or trailing dots/spaces. */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?[. ]*$/i;
/** Most parts a folder path may have (a bound on the walk and on mkdir calls). */
const MAX_DEPTH = 64;

/** Which path rules apply: the running system's, or another's (tests of the Windows rules). */
type Platform = 'posix' | 'win32';

function underSystemRoot(p: string): string | undefined {
  return SYSTEM_ROOTS.find((root) => p === root || p.startsWith(`${root}/`));
}

/**
 * The lexical half of the rule (steps 1 and 3, no file system access).
 * @param dir an absolute folder path as `fileURLToPath` gave it
 * @param platform path rules to apply (default: the running system's)
 * @returns `{dir}` normalised, or `{problem}` saying why the folder is refused
 */
export function folderPathProblem(dir: string, platform: Platform = process.platform === 'win32' ? 'win32' : 'posix'): { dir: string } | { problem: string } {
  if (dir.includes('\0')) return { problem: 'the folder path contains a NUL character' };
  if (platform === 'win32') {
    if (/^[\\/]{2}[.?][\\/]/.test(dir)) return { problem: `${dir} is a device path (\\\\.\\ or \\\\?\\), not a folder for labels` };
    const norm = path.win32.resolve(dir);
    const parts = norm.split(/[\\/]+/).filter((p) => p !== '');
    if (parts.length > MAX_DEPTH) return { problem: `the folder path has more than ${MAX_DEPTH} parts` };
    const device = parts.find((p) => WINDOWS_DEVICE_NAME.test(p));
    if (device !== undefined) return { problem: `"${device}" is a Windows device name, not a folder for labels` };
    return { dir: norm };
  }
  if (!path.posix.isAbsolute(dir)) return { problem: 'not an absolute folder path' };
  const norm = path.posix.resolve(dir);
  if (norm.split('/').length - 1 > MAX_DEPTH) return { problem: `the folder path has more than ${MAX_DEPTH} parts` };
  if (underSystemRoot(norm)) return { problem: `${norm} is a system folder, not a folder for labels` };
  return { dir: norm };
}

/**
 * The real path `dir` stands for: the real path of its nearest existing
 * ancestor (symlinks resolved) joined with the parts that do not exist yet.
 * At most {@link MAX_DEPTH} `realpath` calls.
 */
function realFolder(dir: string): string {
  const rest: string[] = [];
  let at = dir;
  for (let i = 0; i <= MAX_DEPTH; i++) {
    try {
      return path.join(fs.realpathSync.native(at), ...rest.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Missing (or not a folder yet): look one level up. Anything else (EACCES, ELOOP): judge the path as written.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return dir;
      const parent = path.dirname(at);
      if (parent === at) return dir;
      rest.push(path.basename(at));
      at = parent;
    }
  }
  return dir;
}

/**
 * The whole rule (module doc): normalised, symlinks resolved, system folders refused.
 * @param dir an absolute folder path as `fileURLToPath` gave it
 * @returns `{dir}` normalised (symlinks kept as written, so the name the packer chose is shown), or `{problem}`
 */
export function deviceFolderProblem(dir: string): { dir: string } | { problem: string } {
  const lexical = folderPathProblem(dir);
  if ('problem' in lexical) return lexical;
  if (process.platform === 'win32') return lexical;
  const real = realFolder(lexical.dir);
  const root = underSystemRoot(real);
  if (root !== undefined) return { problem: `${lexical.dir} leads to ${real}, a system folder, not a folder for labels` };
  return lexical;
}

/**
 * Creates `dir` and its missing parents, one `mkdir` each (at most
 * {@link MAX_DEPTH}), never looping: the first part that cannot be made ends
 * it with that error. Resolves when the folder exists.
 * @throws Error from the file system (ENOENT, EACCES, ENOTDIR, EROFS...) or
 *   Error when the path is deeper than {@link MAX_DEPTH}
 */
export async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    try {
      if ((await stat(at)).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a folder, mkdir '${at}'`), { code: 'ENOTDIR' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    missing.push(at);
    if (missing.length > MAX_DEPTH) throw new Error(`Folder ${dir} is more than ${MAX_DEPTH} levels deep`);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
    } catch (e) {
      // Made meanwhile by someone else: fine; anything else stops here.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** How many `-<n>` names {@link writeNewFile} tries before giving up. */
const MAX_SAME_NAME = 1000;

/**
 * Writes `bytes` to a new file `<dir>/<base>.<ext>` in a folder that exists, never overwriting one
 * already there: `<base>-2.<ext>`, `<base>-3.<ext>`… (created exclusively, so two writers never share a name).
 * @returns the path written
 * @throws Error from the file system (ENOENT, EACCES, ENOSPC…), or EEXIST when all {@link MAX_SAME_NAME} names are taken
 */
export async function writeNewFile(dir: string, base: string, ext: string, bytes: Uint8Array): Promise<string> {
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${n === 1 ? base : `${base}-${n}`}.${ext}`);
    try {
      const fh = await open(file, 'wx');
      try {
        await fh.writeFile(bytes);
      } finally {
        await fh.close();
      }
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n >= MAX_SAME_NAME) throw e;
    }
  }
}
