/**
 * Electron smoke tests (`npm run test:electron`), with playwright-core's
 * `_electron`: the preload bridge is present and minimal, navigation is
 * blocked, window.open is denied, the app answers a command over IPC.
 * They need the Electron binary; where it is not installed
 * (ELECTRON_SKIP_BINARY_DOWNLOAD) they print SKIPPED and exit 0.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { electronBinary } from '../../electron/launch';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

async function main(): Promise<void> {
  const bin = electronBinary(ROOT);
  if (!bin) {
    console.log('SKIPPED: no Electron binary installed (ELECTRON_SKIP_BINARY_DOWNLOAD); Electron smoke tests not run');
    return;
  }
  const r = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bundle.mjs'), '--if-stale', 'renderer', 'electron'], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(r.status, 0, 'renderer / Electron bundle build failed');

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-electron-'));
  const app = await electron.launch({
    executablePath: bin,
    args: [ROOT, '--data-dir', dataDir, '--printer', `file://${path.join(dataDir, 'labels')}`],
    cwd: ROOT,
    env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' } as Record<string, string>,
  });
  const results: Array<[string, boolean, string?]> = [];
  const check = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
      results.push([name, true]);
    } catch (e) {
      results.push([name, false, e instanceof Error ? e.message : String(e)]);
    }
  };
  try {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');

    await check('preload bridge exposes exactly window.station = { invoke, on }', async () => {
      const shape = await page.evaluate(() => ({
        keys: Object.keys(window.station ?? {}).sort(),
        types: [typeof window.station?.invoke, typeof window.station?.on],
        ipc: typeof (window as unknown as { ipcRenderer?: unknown }).ipcRenderer,
        req: typeof (window as unknown as { require?: unknown }).require,
        proc: typeof (window as unknown as { process?: unknown }).process,
      }));
      assert.deepEqual(shape, { keys: ['invoke', 'on'], types: ['function', 'function'], ipc: 'undefined', req: 'undefined', proc: 'undefined' });
    });

    await check('a command round-trips over IPC (app.info, training mode)', async () => {
      const info = await page.evaluate(() => window.station!.invoke('app.info', {}));
      assert.equal(info.platform.mode, 'sandbox');
    });

    await check('bad input is refused with the contract error, not thrown raw', async () => {
      const err = await page.evaluate(() => window.station!.invoke('scan.resolve', { code: '' }).then(() => null, (e: unknown) => e));
      assert.equal((err as { code?: string } | null)?.code, 'invalid_input');
    });

    await check('navigation away from the app is blocked', async () => {
      const before = page.url();
      await page.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      // Expected to time out: will-navigate is prevented, so the URL never changes.
      const navigated = await page.waitForURL(/example\.com/, { timeout: 2000 }).then(
        () => true,
        () => false,
      );
      assert.equal(navigated, false);
      assert.equal(page.url(), before);
    });

    await check('window.open is denied', async () => {
      const opened = await page.evaluate(() => window.open('https://example.com/', '_blank') === null);
      assert.equal(opened, true);
      assert.equal(app.windows().length, 1);
    });

    await check('the header shows TRAINING MODE', async () => {
      await page.getByText('TRAINING MODE — sandbox').waitFor({ timeout: 10_000 });
    });
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  for (const [name, ok, why] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${why ? `: ${why}` : ''}`);
  const failed = results.filter((r) => !r[1]).length;
  console.log(`${results.length - failed}/${results.length} Electron smoke tests passed`);
  if (failed) process.exit(1);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
