/**
 * The whole-file check of the station database, off the start-up path
 * (issue 27): `PRAGMA quick_check` (https://sqlite.org/pragma.html#pragma_quick_check,
 * page and b-tree structure; about 4 ms per MB) reads every page, which on a
 * folder of a year is seconds to minutes. It runs here on a second,
 * read-only connection in a worker thread, so commands on the station's own
 * connection answer meanwhile (WAL: readers never wait for the writer).
 * The station starts it in an idle moment, or at once after an unclean stop
 * (store/index.ts `uncleanStop`), and shows its result (app.info `integrity`,
 * mapped by storage/views.ts).
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/**
 * The result of one whole-file check: `ok`; `damaged` with what SQLite found
 * (`problems`, first 20 lines); `failed` when the check could not run (the
 * reason in `problems[0]`). `checkedAt` ISO 8601, when it ended; `ms` its
 * wall time.
 */
export interface IntegrityRecord {
  state: 'ok' | 'damaged' | 'failed';
  checkedAt: string;
  ms: number;
  problems: string[];
}

// Runs inside the worker (CommonJS): one read-only connection, one quick_check, then exit.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: 5000 });
  const rows = db.pragma('quick_check');
  const problems = rows.map((r) => String(Object.values(r)[0] ?? '')).filter((t) => t !== 'ok');
  parentPort.postMessage({ problems });
} catch (e) {
  parentPort.postMessage({ error: String((e && e.message) || e), code: e && e.code });
} finally {
  if (db && db.open) db.close();
}
`;

/**
 * Runs `PRAGMA quick_check` on `file` in a worker thread and resolves to its
 * result: `ok`, `damaged` with what SQLite found (first 20 lines), or `failed`
 * when the check could not run (the reason in `problems[0]`). Never rejects.
 * `checkedAt` is ISO 8601; `ms` the check's wall time.
 */
export function checkIntegrityInBackground(file: string, now: () => Date = () => new Date()): Promise<IntegrityRecord> {
  const t0 = performance.now();
  const done = (state: 'ok' | 'damaged' | 'failed', problems: string[]): IntegrityRecord => ({
    state,
    checkedAt: now().toISOString(),
    ms: Math.round(performance.now() - t0),
    problems: problems.slice(0, 20),
  });
  return new Promise((resolve) => {
    let modulePath: string;
    try {
      // Resolved here (not in the worker) so it works from tsx, vitest and a bundle alike.
      modulePath = createRequire(typeof __filename === 'string' ? __filename : import.meta.url).resolve('better-sqlite3');
    } catch (e) {
      resolve(done('failed', [`the check cannot load SQLite: ${String(e)}`]));
      return;
    }
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file } });
    let settled = false;
    const settle = (v: IntegrityRecord) => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    w.on('message', (m: { problems?: string[]; error?: string; code?: unknown }) => {
      if (m.problems) settle(done(m.problems.length ? 'damaged' : 'ok', m.problems));
      else {
        // SQLite saying the file itself is damaged is a finding, not a check that could not run.
        const corrupt = typeof m.code === 'string' && (m.code.startsWith('SQLITE_CORRUPT') || m.code === 'SQLITE_NOTADB');
        settle(done(corrupt ? 'damaged' : 'failed', [m.error ?? 'the check stopped without an answer']));
      }
    });
    w.on('error', (e) => settle(done('failed', [e.message])));
    w.on('exit', (code) => settle(done('failed', [`the check stopped (exit ${code})`])));
  });
}
