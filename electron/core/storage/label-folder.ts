/**
 * Retention of the station's own label folder (issue 27): `<data folder>/labels`,
 * where the folder printer of training mode (and of a station with no
 * printer chosen, config.ts `defaultPrinterUri`) writes each job as
 * `<job>.zpl` with PNG previews, about 20 KB a shipment. Files of the folder
 * printer older than the retention (`storage.retentionDays`, by modification
 * time) are deleted in an idle moment, a bounded number a pass; anything else
 * in the folder (other files, sub-folders) is left alone, and so is a folder
 * printer the user pointed elsewhere.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** What the folder printer writes (printing/transports/file.ts): the job's ZPL and its previews. */
const PRINTED_FILE = /\.(zpl|png)$/i;
const DAY_MS = 86_400_000;

/** The station's own label folder in a data folder (the folder of config.ts `defaultPrinterUri`). */
export function labelFolderOf(dataDir: string): string {
  return path.join(dataDir, 'labels');
}

/** What one {@link pruneLabelFolder} pass did: files deleted, their bytes, and `more` when it stopped at `maxFiles`. */
export interface LabelFolderPrune {
  removed: number;
  bytes: number;
  more: boolean;
}

/**
 * Deletes the printed files (`.zpl`, `.png`) directly in `dir` last modified
 * more than `days` days before `nowMs`, at most `maxFiles` of them. A missing
 * folder is nothing to do; a file that vanishes or cannot be deleted meanwhile
 * is skipped.
 * @param days whole days ≥ 1 (the retention setting)
 * @param nowMs the station's clock, epoch ms
 * @throws RangeError when `days` or `maxFiles` is not a whole number ≥ 1.
 */
export async function pruneLabelFolder(dir: string, days: number, nowMs: number, maxFiles = 500): Promise<LabelFolderPrune> {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a whole number ≥ 1, got ${days}`);
  if (!Number.isInteger(maxFiles) || maxFiles < 1) throw new RangeError(`maxFiles must be a whole number ≥ 1, got ${maxFiles}`);
  const cutoff = nowMs - days * DAY_MS;
  const out: LabelFolderPrune = { removed: 0, bytes: 0, more: false };
  let folder: import('node:fs').Dir;
  try {
    folder = await fs.opendir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw e;
  }
  try {
    for await (const e of folder) {
      if (!e.isFile() || !PRINTED_FILE.test(e.name)) continue;
      const file = path.join(dir, e.name);
      const st = await fs.stat(file).catch(() => undefined);
      if (!st || st.mtimeMs >= cutoff) continue;
      if (out.removed >= maxFiles) {
        out.more = true;
        break;
      }
      const gone = await fs.unlink(file).then(
        () => true,
        () => false,
      );
      if (!gone) continue;
      out.removed++;
      out.bytes += st.size;
    }
  } finally {
    // `break` closes the iterator's folder handle itself; closing twice throws ERR_DIR_CLOSED.
    await folder.close().catch(() => undefined);
  }
  return out;
}
