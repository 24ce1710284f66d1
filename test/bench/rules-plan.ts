/**
 * Bench `rules-plan` (issue 24): what the core spends deciding before a
 * label is asked — `shipping.plan` (rules, product data, parcels, customs)
 * and `shipping.autoShip` for one order of 5 lines, with 200 rules of which
 * only the last matches (the worst case of "first match wins") and 500
 * products. In process, no platform call; 200 runs each after 20 warm-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSandbox } from '../../electron/sandbox';
import { startStation } from '../../electron/shell/start';
import { shopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { order } from '../fixtures/shopify/warehouse-order';

/** Runs the bench and prints its JSON line and a human line; `quantile` is the bench's nearest-rank quantile. */
export async function benchRulesPlan(quantile: (sorted: number[], q: number) => number): Promise<void> {
  const sandbox = await createSandbox({ port: 0, rateLimits: false });
  const demo = sandbox.clients[0];
  if (!demo) throw new Error('sandbox has no demo client');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-rules-'));
  const station = await startStation(
    { dataDir, platform: { mode: 'platform', baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret }, printerUri: `file://${dataDir}/labels`, ignoredArgs: [] },
    { platformRateLimits: false },
  );
  const h = station.handlers;
  try {
    const rules = Array.from({ length: 199 }, (_, i) => ({ name: `Francia ${i}`, when: { countries: ['FR'], weightKg: { max: i + 1 } }, then: { rate: 'cheapest' as const } }));
    rules.push({ name: 'Italia', when: { countries: ['IT'], weightKg: { max: 30 } }, then: { rate: 'cheapest' as const } });
    await h['rules.import']({ content: JSON.stringify({ version: 1, rules }) });
    const rows = Array.from({ length: 500 }, (_, i) => `SKU-${i},0.${(i % 9) + 1},10,10,10,691200,IT,Prodotto ${i}`);
    await h['products.importCsv']({ content: ['sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description', ...rows].join('\n') });
    await h['boxes.settings.set']({ presets: [{ name: 'M', lengthCm: 40, widthCm: 30, heightCm: 30, tareKg: 0.3, barcode: null }], defaultBox: 'M', marginCm: 0 });
    const ship = { name: 'Giulia Bianchi', a1: 'Via Roma 1', city: 'Milano', zip: '20121', prov: 'MI', country: 'IT' };
    const items = Array.from({ length: 5 }, (_, i) => ({ q: '2', n: `Prodotto ${i}`, p: '10.00', sku: `SKU-${i * 7}` }));
    await h['orders.importCsv']({ fileName: 'bench.csv', content: shopifyCsv(order({ name: '#9001', id: '9900000009001', created: '2026-11-20 10:00:00 +0000', email: 'a@example.it', ship, items, total: '100.00' })) });
    const found = await h['scan.resolve']({ code: '#9001' });
    if (found.kind !== 'order') throw new Error('bench order not found');
    const orderId = found.order.id;
    const time = async (run: () => Promise<unknown>): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = 0; i < 220; i++) {
        const t0 = performance.now();
        await run();
        if (i >= 20) samples.push(performance.now() - t0);
      }
      return samples.sort((a, b) => a - b);
    };
    const plan = await time(() => h['shipping.plan']({ orderId }));
    const auto = await time(() => h['shipping.autoShip']({ orderId }));
    const check = await h['shipping.autoShip']({ orderId });
    if (!check.rule || check.rule.index !== 200) throw new Error(`expected rule 200 to act, got ${JSON.stringify(check.rule)}`);
    const r2 = (n: number) => Number(n.toFixed(2));
    console.log(JSON.stringify({ bench: 'rules-plan', rules: 200, products: 500, planP50Ms: r2(quantile(plan, 0.5)), planP95Ms: r2(quantile(plan, 0.95)), autoShipP50Ms: r2(quantile(auto, 0.5)), autoShipP95Ms: r2(quantile(auto, 0.95)) }));
    console.log(`rules and plan, 200 rules (the last acts), 500 products: plan median ${quantile(plan, 0.5).toFixed(2)} ms p95 ${quantile(plan, 0.95).toFixed(2)} ms; autoShip p95 ${quantile(auto, 0.95).toFixed(2)} ms`);
  } finally {
    await station.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
