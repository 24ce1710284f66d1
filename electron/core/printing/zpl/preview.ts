/**
 * PNG previews of ZPL, as the label would come out of the printer. Rendering
 * is done by zpl-renderer-js (IngridHQ's zebrash ZPL engine compiled to
 * WebAssembly; it runs offline and calls no web service). Being an engine
 * written by others, it also checks that our own ZPL means what we think.
 *
 * The engine (~9 MB, ~0.2 s per 4x6 label) runs in a worker thread, started on
 * the first preview, so rendering never blocks the main process (IPC, socket
 * printing). The worker does not keep the process alive while idle.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { mmToDots } from './units';

// Runs inside the worker: CommonJS build of zpl-renderer-js, one render at a
// time (the WebAssembly engine is single-threaded).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let api = null;
let chain = Promise.resolve();
parentPort.on('message', (m) => {
  chain = chain.then(async () => {
    try {
      api ??= require(workerData.modulePath).ready.then((r) => r.api);
      const a = await api;
      const png = m.multiple ? await a.zplToBase64MultipleAsync(m.zpl, m.widthMm, m.heightMm, m.dpmm) : await a.zplToBase64Async(m.zpl, m.widthMm, m.heightMm, m.dpmm);
      parentPort.postMessage({ id: m.id, png });
    } catch (e) {
      parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
    }
  });
});
`;

interface Pending {
  resolve: (png: Buffer | Buffer[]) => void;
  reject: (e: Error) => void;
  /** The worker asked: only its own death fails the call. */
  worker: Worker;
}

/**
 * Renders a worker serves before it is replaced (when idle): the engine's Go heap grows with every
 * render and is never given back (a full corpus run reached 3.4 GB and died out of memory).
 */
const RENDERS_PER_WORKER = 150;
let renders = 0;

let worker: Worker | null = null;

/** Errors that mean the engine inside the worker is gone, not that the ZPL is bad. */
const ENGINE_DEAD = /already exited|reading 'exports'|Go program|bad pointer|fatal error|worker exited/i;

async function restartWorker(w: Worker): Promise<void> {
  if (worker === w) worker = null;
  await w.terminate().catch(() => undefined);
}
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(w: Worker, e: Error): void {
  for (const [id, p] of pending) {
    if (p.worker !== w) continue;
    pending.delete(id);
    p.reject(e);
  }
}

function getWorker(): Worker {
  if (worker && renders >= RENDERS_PER_WORKER && pending.size === 0) void restartWorker(worker);
  if (worker) return worker;
  renders = 0;
  // Resolved here (not in the worker) so it works from tsx, vitest and a bundle alike.
  const modulePath = createRequire(typeof __filename === 'string' ? __filename : import.meta.url).resolve('zpl-renderer-js');
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath } });
  w.on('message', (m: { id: number; png?: string | string[]; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) w.unref();
    if (Array.isArray(m.png)) p.resolve(m.png.map((b) => Buffer.from(b, 'base64')));
    else if (m.png !== undefined) p.resolve(Buffer.from(m.png, 'base64'));
    else {
      // The engine (Go compiled to WebAssembly) can die after many renders ("found bad pointer in Go
      // heap"); every later call then fails. Start a fresh worker for the next render.
      if (ENGINE_DEAD.test(m.error ?? '')) void restartWorker(w);
      p.reject(new Error(m.error ?? 'ZPL preview failed'));
    }
  });
  w.on('error', (e) => {
    if (worker === w) worker = null;
    failAll(w, e);
  });
  w.on('exit', (code) => {
    if (worker === w) worker = null;
    failAll(w, new Error(`ZPL preview worker exited (code ${code})`));
  });
  worker = w;
  return w;
}

function post(zpl: string, widthMm: number, heightMm: number, dpmm: number, multiple: boolean): Promise<Buffer | Buffer[]> {
  return new Promise((resolve, reject) => {
    const w = getWorker();
    const id = nextId++;
    renders++;
    pending.set(id, { resolve, reject, worker: w });
    w.ref(); // keep the process alive until the answer arrives
    w.postMessage({ id, zpl, widthMm, heightMm, dpmm, multiple });
  });
}

async function renderOne(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<Buffer> {
  const png = await post(zpl, widthMm, heightMm, dpmm, false);
  return Array.isArray(png) ? png[0]! : png;
}

/**
 * Renders a whole ZPL stream (stored graphics `~DG` included: the formats are
 * not split) as one PNG per `^XA…^XZ`, at `dpi` on a `widthMm` × `heightMm` canvas.
 * @throws Error when the engine rejects the stream
 */
export async function renderZplStream(zpl: string, dpi: PreviewDpi, widthMm: number, heightMm: number): Promise<Buffer[]> {
  const once = async (): Promise<Buffer[]> => {
    const png = await post(zpl, widthMm, heightMm, dotsPerMm(dpi), true);
    return Array.isArray(png) ? png : [png];
  };
  // One retry on a fresh engine when the old one died under us.
  return once().catch((e: unknown) => (e instanceof Error && ENGINE_DEAD.test(e.message) ? once() : Promise.reject(e)));
}

/** Stops the preview worker (it is started again by the next preview). */
export async function stopZplPreviewWorker(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}

/** The `^XA`...`^XZ` formats (labels) of a ZPL stream, in order. */
function splitZplFormats(zpl: string): string[] {
  return zpl.match(/\^XA[\s\S]*?\^XZ/gi) ?? [];
}

/** Dots per millimetre of a print head: 203 dpi = 8, 300 dpi = 12, 600 dpi = 24 (ZPL's own rounding). */
function dotsPerMm(dpi: PreviewDpi): number {
  return dpi === 600 ? 24 : dpi === 300 ? 12 : 8;
}

/** Print-head resolutions the preview renders at, dpi. */
export type PreviewDpi = 203 | 300 | 600;

/** Label size in dots taken from a format's `^PW`/`^LL`, else 4 x 6 in at `dpi`. */
function labelSizeDots(format: string, dpi: PreviewDpi, fallbackMm: { widthMm: number; heightMm: number } = { widthMm: 101.6, heightMm: 152.4 }): { width: number; height: number } {
  const dpmm = dotsPerMm(dpi);
  const clamp = (n: number | undefined, d: number): number => (n !== undefined && n >= 8 && n <= 400 * dpmm ? n : d);
  const pw = /\^PW(\d+)/i.exec(format)?.[1];
  const ll = /\^LL(\d+)/i.exec(format)?.[1];
  // Without ^PW/^LL: the fallback size (4 x 6 in: 812 x 1218 dots at 203 dpi, 1200 x 1800 at 300 dpi).
  return { width: clamp(pw ? Number(pw) : undefined, mmToDots(fallbackMm.widthMm, dpi)), height: clamp(ll ? Number(ll) : undefined, mmToDots(fallbackMm.heightMm, dpi)) };
}

/**
 * Renders the first `maxLabels` labels of `zpl` as PNG images (8-bit grey),
 * each at the printer's `dpi` (203, 300 or 600: 8, 12 or 24 dots/mm) and its
 * `^PW` x `^LL` size, else `labelMm` (default 4 x 6 in: 812 x 1218 px at 203 dpi).
 *
 * @returns one PNG per rendered label and the count of labels found
 * @throws Error when the stream has no `^XA...^XZ` label or the engine rejects it
 */
export async function renderZplPreview(
  zpl: string,
  opts: { dpi: PreviewDpi; maxLabels?: number; labelMm?: { widthMm: number; heightMm: number } },
): Promise<{ pngs: Buffer[]; labelCount: number }> {
  const formats = splitZplFormats(zpl);
  if (formats.length === 0) throw new Error('no ^XA...^XZ label in the ZPL');
  const dpmm = dotsPerMm(opts.dpi);
  const wanted = formats.slice(0, Math.max(1, opts.maxLabels ?? 10));
  const pngs = await Promise.all(
    wanted.map((f) => {
      const { width, height } = labelSizeDots(f, opts.dpi, opts.labelMm);
      return renderOne(f, width / dpmm, height / dpmm, dpmm);
    }),
  );
  return { pngs, labelCount: formats.length };
}
