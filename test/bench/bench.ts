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
 * 2b. The order list over those 10,000 orders, in the core (SQLite, what
 *    `orders.page` runs): time to the first page of rows (count + 100 rows)
 *    and a SKU substring search through the FTS5 trigram index; medians of 21.
 * 3. The sandbox's label renderers (what POST /shipments spends its time on):
 *    ZPL and PDF for 1 and 5 parcels, median and p95 of 200 renders.
 * 2c. Importing a 10,000- and a 120,000-order export in a station process
 *    while scans are asked (./csv-import.ts): import time, the child's peak
 *    RSS, the scans' p95 and longest wait.
 * 4. Scale to quote (./scale-to-quote.ts): stable reading → rates, p50/p95.
 * 4b. Rules and plan (./rules-plan.ts): `shipping.plan` and `shipping.autoShip` with 200 rules, p50/p95.
 * 4d. The Ship screen's check of one edit (./ship-form-check.ts): `shipping.check` for quote and ship, p50/p95.
 * 4c. Scan to label (./scan-to-label.ts): orders shipping by themselves, stable weight → the label's last byte, p95; key actions per order.
 *
 * 5b. One account's budget (./account-budget.ts): 50 stations of one account and one warehouse for 60 quiet and
 *    10 busy simulated minutes (labels ahead, the shared budget, the day's close): 429s, labels per window, label waits.
 * 5. The warehouse (./warehouse.ts): 50 bench links on one PostgreSQL for a simulated hour, claim p95,
 *    setting propagation p95, activity lag p95, catch-up after an outage, rows lost or duplicated.
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
import { fileURLToPath } from 'node:url';
import { recipientToParty } from '../../shared/domain/order';
import { createSandbox } from '../../electron/sandbox';
import { startStation } from '../../electron/shell/start';
import { importShopifyCsv, parseShopifyCsv } from '../../electron/core/orders';
import { generateShopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { openStore } from '../../electron/core/store';
import { renderLabelsPdf, renderLabelsZpl, type LabelData } from '../../electron/sandbox/labels';
import { pdfToZpl, type PdfRasteriser } from '../../electron/core/printing/pdf/pdf-zpl';
import { hsAnswer } from '../unit/core/printing/zpl/hs-answer';
import { fakeBus, zd421, type FakeUsbBus } from '../unit/core/printing/transports/fake-usb';
import { parcels as labelParcels } from '../unit/sandbox/labels/fixtures';
import { benchAccountBudget } from './account-budget';
import { benchScaleToQuote } from './scale-to-quote';
import { benchRulesPlan } from './rules-plan';
import { benchShipFormCheck } from './ship-form-check';
import { benchScanToLabel } from './scan-to-label';
import { benchColdStart } from './cold-start';
import { benchCsvImportStream } from './csv-import';
import { benchBigFolder, benchSoak } from './big-folder';
import { benchEndOfDay } from './end-of-day';
import { benchRealLabels } from './real-labels';
import { benchTrainingStore } from './training-store';
import { benchWarehouse } from './warehouse';
import { benchWebhooks } from './webhooks';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100);
const CSV_ORDERS = Number(process.env.BENCH_CSV_ORDERS ?? 10_000);

/** Value at quantile q (0..1) of sorted numbers, nearest-rank. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx] ?? NaN;
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** A stand-in label printer: collects each connection's bytes. */
async function startPrinter(): Promise<{ uri: string; jobs: PrinterJob[]; close(): Promise<void> }> {
  const jobs: PrinterJob[] = [];
  const server = net.createServer((sock) => {
    const chunks: Buffer[] = [];
    let last = 0;
    sock.on('data', (c: Buffer) => {
      last = performance.now();
      chunks.push(c);
      // Answers status like a ready Zebra, so the station's job runner asks and confirms as at a real bench.
      if (c.toString('latin1').includes('~HS')) sock.write(HS_READY, 'latin1');
    });
    sock.on('end', () => {
      const all = Buffer.concat(chunks);
      if (all.toString('latin1').replace(/~HQES|~HS/g, '') !== '') jobs.push({ text: all.toString('latin1'), lastByteAt: last });
    });
    sock.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { uri: `socket://127.0.0.1:${port}`, jobs, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** One job as the printer got it: its bytes and when the last one arrived (performance.now()). */
interface PrinterJob {
  text: string;
  lastByteAt: number;
}

/** A USB printer on the injected fake bus (the `usb` package's interface), recording jobs like the TCP one. */
function startUsbPrinter(): { uri: string; jobs: PrinterJob[]; bus: FakeUsbBus } {
  const jobs: PrinterJob[] = [];
  const dev = zd421('BENCH1');
  dev.onTransfer = (b) => {
    const text = b.toString('latin1');
    if (text.replace(/~HQES|~HS/g, '') === '') return;
    const prev = jobs.at(-1);
    // A job larger than one chunk arrives in several transfers: they belong to the job until its ^XZ.
    if (prev && !/\^XZ\s*$/.test(prev.text)) {
      prev.text += text;
      prev.lastByteAt = performance.now();
    } else jobs.push({ text, lastByteAt: performance.now() });
  };
  return { uri: 'usb://Zebra/ZTC%20ZD421-203dpi%20ZPL?serial=BENCH1', jobs, bus: fakeBus(dev) };
}
const HS_READY = hsAnswer({});

async function benchLabelToPrinter(transport: 'socket' | 'usb'): Promise<void> {
  const sandbox = await createSandbox({ port: 0, rateLimits: false });
  const demo = sandbox.clients[0];
  const account = sandbox.state.accounts[0];
  if (!demo || !account) throw new Error('sandbox has no demo client');
  account.credit.balance = 1_000_000; // enough prepaid credit for the run
  const usbPrinter = transport === 'usb' ? startUsbPrinter() : undefined;
  const tcpPrinter = transport === 'socket' ? await startPrinter() : undefined;
  const printer = { uri: (usbPrinter ?? tcpPrinter)!.uri, jobs: (usbPrinter ?? tcpPrinter)!.jobs, close: () => tcpPrinter?.close() ?? Promise.resolve() };
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
      printerUri: printer.uri,
      ignoredArgs: [],
    },
    { fetch: benchFetch, platformRateLimits: false, ...(usbPrinter ? { usb: usbPrinter.bus } : {}), listQueues: () => Promise.resolve([]) },
  );
  const printedAt = new Map<string, number>();
  station.events.on('printJobs.changed', (job) => {
    if (job.state === 'printed' && !printedAt.has(job.trackingNumber)) printedAt.set(job.trackingNumber, performance.now());
  });

  try {
    const report = await station.handlers['orders.importCsv']({ fileName: 'bench.csv', content: generateShopifyCsv(Math.ceil(SHIPMENTS * 1.2), { seed: 7 }) }); // extra orders: some hold only gift cards
    const orders = (await station.handlers['orders.page']({ view: 'to_ship', sort: 'newest', offset: 0, limit: 500 })).orders.slice(0, SHIPMENTS);
    if (orders.length < SHIPMENTS) throw new Error(`only ${orders.length} of ${SHIPMENTS} orders imported (${report.errors.length} errors)`);

    const started = performance.now();
    const failures: string[] = [];
    for (const order of orders) {
      const result = await station.handlers['shipping.shipOrder']({
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

    await new Promise((r) => setTimeout(r, 100));
    // Measured where the bytes land: the last byte of the job that carries the tracking number.
    const samples: number[] = [];
    for (const [ldv, t0] of labelReceivedAt) {
      const job = printer.jobs.find((j) => j.text.includes(ldv));
      if (job) samples.push(job.lastByteAt - t0);
    }
    samples.sort((a, b) => a - b);
    // Every printed job must carry its own tracking number: a figure for labels that never arrived is no figure.
    const missing = [...printedAt.keys()].filter((ldv) => !printer.jobs.some((j) => j.text.includes(ldv)));

    console.log(JSON.stringify({ bench: 'label-to-printer', transport, p50Ms: round2(quantile(samples, 0.5)), p95Ms: round2(quantile(samples, 0.95)) }));
    console.log(`label received -> last byte written to the ${transport === 'usb' ? 'USB printer (injected device)' : 'printer socket'}, ${samples.length} shipments:`);
    console.log(`  median ${fmt(quantile(samples, 0.5))}   p95 ${fmt(quantile(samples, 0.95))}   max ${fmt(samples.at(-1) ?? NaN)}`);
    console.log(`  whole ship command (platform call included): ${fmt(wall / orders.length)} per shipment on average`);
    console.log(`  printer received ${printer.jobs.length} jobs; labels without their tracking number: ${missing.length}; print failures: ${failures.length}`);
    for (const f of failures.slice(0, 3)) console.log(`  print failure: ${f}`);
    if (missing.length || failures.length || samples.length !== SHIPMENTS) process.exitCode = 1;
  } finally {
    await station.close();
    await printer.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchCsvImport(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-csv-'));
  const store = openStore(path.join(dir, 'bench.sqlite'));
  try {
    const csv = generateShopifyCsv(CSV_ORDERS, { seed: 11 });
    const bytes = Buffer.byteLength(csv);
    const t0 = performance.now();
    const report = await importShopifyCsv(store, csv);
    const ms = performance.now() - t0;
    const t1 = performance.now();
    const again = await importShopifyCsv(store, csv);
    const msAgain = performance.now() - t1;
    console.log(`Shopify CSV import, ${CSV_ORDERS.toLocaleString('en')} orders (${(bytes / 1e6).toFixed(1)} MB):`);
    console.log(`  first import ${fmt(ms)} (${report.imported} imported, ${report.errors.length} errors, ${report.skippedNotShippable} not shippable)`);
    console.log(`  same file again ${fmt(msAgain)} (${again.imported} imported, ${again.unchanged} unchanged)`);
    console.log(`  peak resident memory of the bench process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
    if (report.errors.length || again.imported !== 0) process.exitCode = 1;
    await benchOrdersList(store, report.imported);
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Median ms of `runs` calls of `f` (after one warm-up). */
function medianMs(f: () => unknown, runs = 21): number {
  f();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return quantile(samples, 0.5);
}

/**
 * The order list in the core: first page and a SKU search over 10,000 open
 * orders (the generator's gift-card-only orders have nothing to ship, so the
 * list is topped up with more generated orders, cut at exactly 10,000).
 */
async function benchOrdersList(store: ReturnType<typeof openStore>, imported: number): Promise<void> {
  let orders = imported;
  let next = 50_001;
  while (orders < 10_000) {
    const need = 10_000 - orders;
    const probe = await parseShopifyCsv(generateShopifyCsv(need + 40, { seed: 13, firstNumber: next }));
    const last = probe.orders[need - 1];
    if (!last) throw new Error('generator made too few shippable orders');
    const count = Number(last.order.orderNumber.slice(1)) - next + 1;
    await importShopifyCsv(store, generateShopifyCsv(count, { seed: 13, firstNumber: next }));
    next += count;
    orders = store.orders.count({ status: 'open' });
  }
  const firstRowMs = medianMs(() => {
    const page = store.orders.page({ view: 'to_ship', limit: 100 });
    if (page.orders.length === 0) throw new Error('no open orders to list');
  });
  let hits = 0;
  const searchMs = medianMs(() => {
    hits = store.orders.page({ view: 'to_ship', q: 'cer-bl', limit: 100 }).total;
  });
  console.log(`order list (core, SQLite), ${orders.toLocaleString('en')} orders: first page of 100 rows ${fmt(firstRowMs)}, SKU search "cer-bl" ${fmt(searchMs)} (${hits} matches), medians of 21`);
  console.log(JSON.stringify({ bench: 'orders-list', orders, firstRowMs: Number(firstRowMs.toFixed(2)), searchMs: Number(searchMs.toFixed(2)) }));
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


/** pdfjs-dist (Mozilla PDF.js, rendering on @napi-rs/canvas): the baseline rasteriser of the pdf-to-zpl bench. */
const pdfjsRasteriser: PdfRasteriser = {
  pageSizes: () => Promise.reject(new Error('not used')),
  async render(pdf, scale, use) {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const { createCanvas } = await import('@napi-rs/canvas');
    const doc = await pdfjs.getDocument({ data: pdf.slice(), verbosity: 0 }).promise;
    try {
      const out: Array<ReturnType<typeof use>> = [];
      for (let i = 1; i <= doc.numPages; i++) {
        const page = await doc.getPage(i);
        const base = page.getViewport({ scale: 1 });
        const v = scale({ width: base.width, height: base.height }, i - 1);
        // The whole page at the scale asked (no crop, no turn: the baseline renders more, never less).
        const viewport = page.getViewport({ scale: typeof v === 'number' ? v : v.scale });
        const w = Math.ceil(viewport.width);
        const h = Math.ceil(viewport.height);
        const canvas = createCanvas(w, h);
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, w, h);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pdfjs types its canvas as the DOM's; @napi-rs/canvas is API-compatible
        await page.render({ canvasContext: ctx as any, canvas: canvas as any, viewport }).promise;
        const rgba = ctx.getImageData(0, 0, w, h).data;
        const grey = new Uint8Array(w * h);
        for (let p = 0; p < grey.length; p++) grey[p] = ((rgba[p * 4] ?? 255) * 77 + (rgba[p * 4 + 1] ?? 255) * 150 + (rgba[p * 4 + 2] ?? 255) * 29) >> 8;
        out.push(use({ width: w, height: h, grey }));
      }
      return out;
    } finally {
      await doc.loadingTask.destroy();
    }
  },
};

/**
 * PDF label -> ZPL (`^GFA` Z64) at 203 and 300 dpi on a 4x6 in label: one sandbox
 * PDF label page, PDFium (the station's choice) against pdfjs-dist (the
 * baseline, rasterised in the same run), 60 conversions each after 5 warm-up, taken in
 * turn (one PDFium, one pdfjs-dist) so that both see the same load.
 */
async function benchPdfToZpl(): Promise<void> {
  for (const dpi of [203, 300] as const) await benchPdfToZplAt(dpi, 'label');
  // Issue 23: an A4 page (DHL Online-Frankierung: label and sender's copy): PDFium probes the page, finds the label and
  // renders it cropped and turned at 1:1; the baseline is pdfjs-dist rendering the page at the head's dpi, the least
  // it needs to crop the label at its size.
  await benchPdfToZplAt(300, 'A4');
}

async function benchPdfToZplAt(dpi: 203 | 300, page: 'label' | 'A4'): Promise<void> {
  const pdf = page === 'A4' ? new Uint8Array(fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/labels/real/dhl-paket-privat-a4.pdf'))) : await renderLabelsPdf(labelParcels(1));
  const target = { dpi, widthMm: 101.6, heightMm: 152.4 };
  const station = (await import('../../electron/core/printing/pdf/pdf-zpl')).pdfiumRasteriser;
  const once = async (r: PdfRasteriser): Promise<{ ms: number; bytes: number }> => {
    const t0 = performance.now();
    const bytes = page === 'A4' && r === pdfjsRasteriser ? (await r.render(pdf, () => dpi / 72, (g) => g.width * g.height)).reduce((a, b) => a + b, 0) : (await pdfToZpl(pdf, target, r)).zpl.length;
    return { ms: performance.now() - t0, bytes };
  };
  for (let i = 0; i < 5; i++) {
    await once(station);
    await once(pdfjsRasteriser);
  }
  // Interleaved, one of each in turn: both see the same machine (load, GC, CPU frequency).
  const pdfium = { samples: [] as number[], bytes: 0 };
  const baseline = { samples: [] as number[], bytes: 0 };
  for (let i = 0; i < 60; i++) {
    const a = await once(station);
    pdfium.samples.push(a.ms);
    pdfium.bytes = a.bytes;
    const b = await once(pdfjsRasteriser);
    baseline.samples.push(b.ms);
    baseline.bytes = b.bytes;
  }
  pdfium.samples.sort((x, y) => x - y);
  baseline.samples.sort((x, y) => x - y);
  console.log(
    JSON.stringify({
      bench: 'pdf-to-zpl',
      dpi,
      ...(page === 'A4' ? { page: 'A4' } : {}),
      p50Ms: round2(quantile(pdfium.samples, 0.5)),
      p95Ms: round2(quantile(pdfium.samples, 0.95)),
      bytes: pdfium.bytes,
      baselineP50Ms: round2(quantile(baseline.samples, 0.5)),
      baseline: 'pdfjs-dist',
    }),
  );
  console.log(`PDF ${page === 'A4' ? 'A4 page (label found, cropped, turned)' : 'label'} -> ZPL ^GFA Z64, ${dpi} dpi, 4x6 in, one page:`);
  console.log(`  PDFium (@hyzyla/pdfium): median ${fmt(quantile(pdfium.samples, 0.5))}   p95 ${fmt(quantile(pdfium.samples, 0.95))}   ${pdfium.bytes} bytes of ZPL`);
  console.log(`  pdfjs-dist baseline: median ${fmt(quantile(baseline.samples, 0.5))}   p95 ${fmt(quantile(baseline.samples, 0.95))}   (${baseline.bytes} ${page === 'A4' ? 'pixels' : 'bytes'})`);
}

// `npm run bench -- --only pdf-to-zpl,cold-start` runs just those measures (names as in their JSON lines).
const MEASURES: Array<[string, () => unknown]> = [
  ['label-to-printer', async () => {
    await benchLabelToPrinter('socket');
    await benchLabelToPrinter('usb');
  }],
  ['pdf-to-zpl', benchPdfToZpl],
  ['real-labels', benchRealLabels],
  ['orders-list', benchCsvImport],
  ['csv-import', benchCsvImportStream],
  ['label-rendering', benchLabelRendering],
  ['scale-to-quote', () => benchScaleToQuote(quantile)],
  ['rules-plan', () => benchRulesPlan(quantile)],
  ['ship-form-check', () => benchShipFormCheck(quantile)],
  ['scan-to-label', () => benchScanToLabel(quantile)],
  ['cold-start', benchColdStart],
  ['big-folder', benchBigFolder],
  ['soak', benchSoak],
  ['end-of-day', benchEndOfDay],
  ['training-store', benchTrainingStore],
  ['warehouse', () => benchWarehouse(quantile)],
  ['webhooks', () => benchWebhooks(quantile)],
  ['account-budget', () => benchAccountBudget(quantile)],
];
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set((process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean)) : null;
if (only) {
  const unknown = [...only].filter((n) => !MEASURES.some(([name]) => name === n));
  if (unknown.length) throw new Error(`--only: unknown measure ${unknown.join(', ')} (measures: ${MEASURES.map(([n]) => n).join(', ')})`);
}
for (const [name, run] of MEASURES) if (!only || only.has(name)) await run();
