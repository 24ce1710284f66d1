/**
 * Bench `scale-to-quote`: a stable reading received from the scale (a fake
 * HID scale with node-hid's interface, in process) → `scales.changed` → the
 * rates the Quote screen shows (`shipping.quote` answered by the sandbox over
 * loopback HTTP). What the screen does on a stable weight, without the
 * browser's paint. 100 weighings (box on, box off), 10 warm-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ScaleView } from '../../shared/contract/views';
import { createSandbox } from '../../electron/sandbox';
import { startStation } from '../../electron/shell/start';
import { fakeHid } from '../unit/core/scales/fakes';
import { scaleReached } from './stats';

/** Runs the bench and prints its JSON line and a human line; `quantile` is the bench's nearest-rank quantile. */
export async function benchScaleToQuote(quantile: (sorted: number[], q: number) => number): Promise<void> {
  const sandbox = await createSandbox({ port: 0, rateLimits: false });
  const demo = sandbox.clients[0];
  if (!demo) throw new Error('sandbox has no demo client');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-scale-'));
  const hid = fakeHid();
  const station = await startStation(
    {
      dataDir,
      platform: { mode: 'platform', baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret },
      printerUri: `file://${dataDir}/labels`,
      ignoredArgs: [],
    },
    { platformRateLimits: false, scale: { loadHid: async () => ({ lib: hid.lib }), loadSerial: async () => ({ error: 'not used' }), rescanMs: 5 } },
  );
  const waitFor = (pred: (v: ScaleView) => boolean) => scaleReached(station, pred);
  try {
    const plugged = waitFor((v) => v.connected);
    hid.plug({ vendorId: 0x0922, productId: 0x8004, path: 'bench-scale' });
    await plugged;
    hid.report([3, 2, 2, 0, 0, 0]); // dropped first report
    const samples: number[] = [];
    for (let i = 0; i < 110; i++) {
      const grams = 500 + i * 17;
      const stable = waitFor((v) => v.reading?.status === 'stable');
      const t0 = performance.now();
      hid.report([3, 4, 2, 0, grams & 0xff, grams >> 8]);
      const kg = (await stable).reading!.kg!;
      const rates = await station.handlers['shipping.quote']({
        request: { recipient: { address: { postalCode: '20121', countryCode: 'IT' } }, packages: [{ weight: { value: kg, units: 'KG' }, dimensions: { length: 30, width: 20, height: 15, units: 'CM' } }] },
      });
      const t1 = performance.now();
      if (rates.length === 0) throw new Error(`no rates for ${kg} kg`);
      if (i >= 10) samples.push(t1 - t0);
      const off = waitFor((v) => v.reading?.status === 'zero');
      hid.report([3, 2, 2, 0, 0, 0]); // box off
      await off;
    }
    samples.sort((a, b) => a - b);
    const p50 = quantile(samples, 0.5);
    const p95 = quantile(samples, 0.95);
    console.log(JSON.stringify({ bench: 'scale-to-quote', p50Ms: Number(p50.toFixed(2)), p95Ms: Number(p95.toFixed(2)) }));
    console.log(`scale to quote, ${samples.length} weighings: median ${p50.toFixed(1)} ms   p95 ${p95.toFixed(1)} ms (target p95 ≤ 150 ms)`);
  } finally {
    await station.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
