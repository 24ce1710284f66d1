// No hand-written source file over 500 lines (issue 22): lists every tracked
// .ts/.tsx/.mjs file under electron/, renderer/src/, shared/, build/ and test/
// longer than MAX_LINES and exits 1 when there is one. Run by `npm run lint`
// (lint:size). Tables of data are exempt (EXEMPT, each with its reason); a
// file waiting for another branch's split is listed in PENDING, reported on
// every run, and becomes an error once it is short enough (remove it then).
// Usage: node build/check-file-size.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 500;
const FOLDERS = ['electron', 'renderer/src', 'shared', 'build', 'test'];
const SOURCE = /\.(ts|tsx|mjs)$/;

/** Data, not logic: exempt whatever their length. Path (or folder prefix ending in `/`) -> reason. */
const EXEMPT = new Map([
  ['renderer/src/lib/locales/', 'locale tables: one line per translated string'],
  ['electron/sandbox/taric-data.ts', 'data table: a subset of the EU Combined Nomenclature, one row per code'],
]);

/** Over the limit today, split by another branch of issue 22. Path -> who splits it. */
const PENDING = new Map();

/** Lines of a text: newline-terminated lines, plus a last line without its newline. */
function countLines(text) {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** Reason a path is exempt, or undefined. */
function exemption(file) {
  for (const [prefix, reason] of EXEMPT) if (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix) return reason;
  return undefined;
}

const tracked = execFileSync('git', ['ls-files', '-z', '--', ...FOLDERS], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((f) => SOURCE.test(f));

const tooLong = [];
for (const file of tracked) {
  let text;
  try {
    text = readFileSync(path.join(ROOT, file), 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') continue; // deleted in the work tree, not yet committed
    throw e;
  }
  const lines = countLines(text);
  const pending = PENDING.get(file);
  if (pending !== undefined) {
    if (lines <= MAX_LINES) tooLong.push(`${file}: ${lines} lines, no longer over ${MAX_LINES}: remove it from PENDING in build/check-file-size.mjs`);
    else console.warn(`pending: ${file} ${lines} lines (${pending})`);
    continue;
  }
  if (lines > MAX_LINES && exemption(file) === undefined) tooLong.push(`${file}: ${lines} lines`);
}

if (tooLong.length > 0) {
  console.error(`Source files over ${MAX_LINES} lines (split them into modules that say what they hold):`);
  for (const line of tooLong) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`check-file-size: ${tracked.length} files, none over ${MAX_LINES} lines`);
