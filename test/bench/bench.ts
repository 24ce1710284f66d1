/**
 * `npm run bench`: prints the station's own figures (no pass/fail).
 *
 * 1. Label to printer, over 100 shipments against the sandbox: the station's
 *    time from "label received" (the POST /shipments answer fully read off
 *    the socket) to "last label byte written to the printer socket" (the
 *    print job reported printed, which the socket printer does once its last
 *    byte is flushed). Median and p95, ms. The printer is a local TCP
 *    listener that checks every label carries its tracking number.
 * 2. Importing a 10,000-order Shopify CSV into a fresh store: wall time and
 *    peak resident memory.
 * 3. The sandbox's label renderers (what POST /shipments spends its time on):
 *    ZPL and PDF for 1 and 5 parcels, median and p95 of 200 renders.
 *
 * 4. Cold start of `npm start` to its ready line, with the `node -e 0` floor
 *    (test/bench/cold-start.ts).
 *
 * Rate limits are switched off on both sides for (1): they pace the platform
 * calls, not the station's own time, and would only make the run longer.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { recipientToParty } from '../../shared/domain/order';
import { createSandbox } from '../../electron/sandbox';
import { startStation } from '../../electron/shell/start';
import { importShopifyCsv } from '../../electron/core/orders';
import { generateShopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { openStore } from '../../electron/core/store';
import { renderLabelsPdf, renderLabelsZpl, type LabelData } from '../../electron/sandbox/labels';
import { benchColdStart } from './cold-start';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100);
const CSV_ORDERS = Number(process.env.BENCH_CSV_ORDERS ?? 10_000);

/** Value at quantile q (0..1) of sorted numbers, nearest-rank. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx] ?? NaN;
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** A stand-in label printer: collects each connection's bytes. */
async function startPrinter(): Promise<{ port: number; jobs: Buffer[]; close(): Promise<void> }> {
  const jobs: Buffer[] = [];
  const server = net.createServer((sock) => {
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    sock.on('end', () => jobs.push(Buffer.concat(chunks)));
    sock.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, jobs, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function benchLabelToPrinter(): Promise<void> {
  const sandbox = await createSandbox({ port: 0, rateLimits: false });
  const demo = sandbox.clients[0];
  const account = sandbox.state.accounts[0];
  if (!demo || !account) throw new Error('sandbox has no demo client');
  account.credit.balance = 1_000_000; // enough prepaid credit for the run
  const printer = await startPrinter();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-'));

  const labelReceivedAt = new Map<string, number>();
  const benchFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if ((init?.method ?? 'GET') === 'POST' && /\/shipments$/.test(new URL(url).pathname) && res.status === 201) {
      const body = await res.text();
      const t = performance.now();
      const ldv = /"trackingNumber"\s*:\s*"([^"]+)"/.exec(body)?.[1];
      if (ldv) labelReceivedAt.set(ldv, t);
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    return res;
  };

  const station = await startStation(
    {
      dataDir,
      platform: { mode: 'platform', baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret },
      printerUri: `socket://127.0.0.1:${printer.port}`,
      ignoredArgs: [],
    },
    { fetch: benchFetch, platformRateLimits: false },
  );
  const printedAt = new Map<string, number>();
  station.events.on('printJobs.changed', (job) => {
    if (job.state === 'printed' && !printedAt.has(job.trackingNumber)) printedAt.set(job.trackingNumber, performance.now());
  });

  try {
    const report = await station.handlers['orders.importCsv']({ fileName: 'bench.csv', content: generateShopifyCsv(Math.ceil(SHIPMENTS * 1.2), { seed: 7 }) }); // extra orders: some hold only gift cards
    const orders = (await station.handlers['orders.list']({ status: 'open' })).slice(0, SHIPMENTS);
    if (orders.length < SHIPMENTS) throw new Error(`only ${orders.length} of ${SHIPMENTS} orders imported (${report.errors.length} errors)`);

    const started = performance.now();
    const failures: string[] = [];
    for (const order of orders) {
      const result = await station.handlers['shipments.create']({
        orderId: order.id,
        request: {
          recipient: recipientToParty(order.recipient),
          packages: [{ weight: { value: 1.4, units: 'KG' }, dimensions: { length: 30, width: 20, height: 12, units: 'CM' } }],
          reference: order.orderNumber,
        },
      });
      if (result.printError) failures.push(`${result.shipment.trackingNumber}: ${result.printError.message}`);
    }
    const wall = performance.now() - started;

    const samples: number[] = [];
    for (const [ldv, t0] of labelReceivedAt) {
      const t1 = printedAt.get(ldv);
      if (t1 !== undefined) samples.push(t1 - t0);
    }
    samples.sort((a, b) => a - b);
    // Every printed job must carry its own tracking number: a figure for labels that never arrived is no figure.
    await new Promise((r) => setTimeout(r, 100));
    const received = printer.jobs.map((j) => j.toString('latin1'));
    const missing = [...printedAt.keys()].filter((ldv) => !received.some((j) => j.includes(ldv)));

    console.log(`label received -> last byte on the printer socket, ${samples.length} shipments:`);
    console.log(`  median ${fmt(quantile(samples, 0.5))}   p95 ${fmt(quantile(samples, 0.95))}   max ${fmt(samples.at(-1) ?? NaN)}`);
    console.log(`  whole ship command (platform call included): ${fmt(wall / orders.length)} per shipment on average`);
    console.log(`  printer received ${printer.jobs.length} jobs; labels without their tracking number: ${missing.length}; print failures: ${failures.length}`);
    if (missing.length || failures.length || samples.length !== SHIPMENTS) process.exitCode = 1;
  } finally {
    await station.close();
    await printer.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function benchCsvImport(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-csv-'));
  const store = openStore(path.join(dir, 'bench.sqlite'));
  try {
    const csv = generateShopifyCsv(CSV_ORDERS, { seed: 11 });
    const bytes = Buffer.byteLength(csv);
    const t0 = performance.now();
    const report = importShopifyCsv(store, csv);
    const ms = performance.now() - t0;
    const t1 = performance.now();
    const again = importShopifyCsv(store, csv);
    const msAgain = performance.now() - t1;
    console.log(`Shopify CSV import, ${CSV_ORDERS.toLocaleString('en')} orders (${(bytes / 1e6).toFixed(1)} MB):`);
    console.log(`  first import ${fmt(ms)} (${report.imported} imported, ${report.errors.length} errors, ${report.skippedNotShippable} not shippable)`);
    console.log(`  same file again ${fmt(msAgain)} (${again.imported} imported, ${again.unchanged} unchanged)`);
    console.log(`  peak resident memory of the bench process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
    if (report.errors.length || again.imported !== 0) process.exitCode = 1;
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Demo labels: `count` parcels of one shipment, with COD. */
function demoLabels(count: number): LabelData[] {
  const address = { name: 'Giulia Bianchi', street: 'Via Torino 12', city: 'Milano', province: 'MI', postalCode: '20121', countryCode: 'IT', phone: '+39 02 555 0100' };
  return Array.from({ length: count }, (_, i) => ({
    trackingNumber: `GL52009031${String(10 + i)}`,
    shipmentTrackingNumber: 'GL5200903110',
    carrierCode: 'gls',
    carrierName: 'GLS Italy',
    serviceName: 'GLS Economy',
    sender: { ...address, name: 'Bottega Verdi S.r.l.', street: 'Via dei Missaglia 97', postalCode: '20142' },
    recipient: address,
    parcelNumber: i + 1,
    parcelCount: count,
    weightKg: 2.5,
    reference: '#1001',
    cod: { amount: 49.9, currency: 'EUR' },
    createdAt: '2026-11-21T10:00:00+01:00',
  }));
}

async function benchLabelRendering(): Promise<void> {
  console.log('sandbox label rendering, 200 renders each (20 warm-up):');
  for (const parcels of [1, 5]) {
    const labels = demoLabels(parcels);
    for (const [name, render] of [
      ['ZPL', async () => void renderLabelsZpl(labels)],
      ['PDF', async () => void (await renderLabelsPdf(labels))],
    ] as const) {
      for (let i = 0; i < 20; i++) await render();
      const samples: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await render();
        samples.push(performance.now() - t0);
      }
      samples.sort((a, b) => a - b);
      console.log(`  ${name} ${parcels} parcel${parcels > 1 ? 's' : ''}: median ${fmt(quantile(samples, 0.5))}   p95 ${fmt(quantile(samples, 0.95))}`);
    }
  }
}

await benchLabelToPrinter();
benchCsvImport();
await benchLabelRendering();
await benchColdStart();
