/**
 * The import's worker thread in the bundles as they ship (build/bundle.mjs):
 * the launcher (ESM, code splitting: the code that starts the worker may sit
 * in chunks/) writes `csv-worker.mjs` beside `launch.mjs`, the Electron main
 * target (CommonJS) writes `csv-worker.cjs` beside `main.cjs`; and in each, a
 * bundled import (test/support/bundled-import-child.ts, built with the
 * target's own options and entries) finds its worker, runs plain Node without
 * tsx, and reports what the import on the station's thread reports (a
 * UTF-8 export, and a Windows-1252 one, whose decoder is loaded on demand).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../shared/domain/order';
import { generateShopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** Under the project (not the OS temp folder): the bundles `require` better-sqlite3 from its node_modules. */
fs.mkdirSync(path.join(ROOT, '.cache'), { recursive: true });
const OUT = fs.mkdtempSync(path.join(ROOT, '.cache', 'test-bundles-'));
const CHILD = path.join(ROOT, 'test', 'support', 'bundled-import-child.ts');

afterAll(() => fs.rmSync(OUT, { recursive: true, force: true }));

interface Target {
  entryPoints: Record<string, string>;
  outExtension: Record<string, string>;
  [option: string]: unknown;
}
interface Bundler {
  ESBUILD_TARGETS: { launcher: Target; main: Target };
}

/** Builds `name`'s target with the child as one more entry into its own folder under {@link OUT}; returns that folder. */
async function buildWithChild(name: 'launcher' | 'main'): Promise<string> {
  const { ESBUILD_TARGETS } = (await import(pathToFileURL(path.join(ROOT, 'build', 'bundle.mjs')).href)) as Bundler;
  const { build } = await import('esbuild');
  const target = ESBUILD_TARGETS[name];
  const outdir = path.join(OUT, name);
  await build({ ...target, entryPoints: { ...target.entryPoints, 'bundled-import-child': CHILD }, outdir, metafile: false, logLevel: 'error' });
  return outdir;
}

/** Runs the bundled child on `csv`; returns its JSON line. */
function runChild(script: string, csv: string): { viaWorker: ImportReport; inThread: ImportReport; workersAlive: number } {
  const data = fs.mkdtempSync(path.join(OUT, 'data-'));
  const r = spawnSync(process.execPath, [script, csv, data], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as { viaWorker: ImportReport; inThread: ImportReport; workersAlive: number };
}

describe('the bundles carry the import worker', () => {
  const csv = path.join(OUT, 'export.csv');
  fs.writeFileSync(csv, generateShopifyCsv(1_200, { seed: 41 }));

  it.each([
    ['launcher', 'launch.mjs', 'csv-worker.mjs'],
    ['main', 'main.cjs', 'csv-worker.cjs'],
  ] as const)('%s: %s has %s beside it, and a bundled import runs through it', async (name, entry, worker) => {
    const dir = await buildWithChild(name);
    expect(fs.existsSync(path.join(dir, entry))).toBe(true);
    expect(fs.existsSync(path.join(dir, worker))).toBe(true);
    const child = path.join(dir, `bundled-import-child${path.extname(worker)}`);
    const out = runChild(child, csv);
    expect(out.viaWorker.imported).toBeGreaterThan(1_000);
    expect(out.viaWorker).toEqual(out.inThread);
    expect(out.workersAlive).toBe(0);
    // A Windows-1252 export: the decoder (iconv-lite, loaded only for such files) is found in the bundle too.
    const legacy = runChild(child, path.join(ROOT, 'test', 'fixtures', 'shopify', 'warehouse', 'pt-1252.csv'));
    expect(legacy.viaWorker).toMatchObject({ encoding: 'windows-1252', errors: [] });
    expect(legacy.viaWorker.imported).toBeGreaterThan(0);
    expect(legacy.viaWorker).toEqual(legacy.inThread);
  }, 120_000);
});
