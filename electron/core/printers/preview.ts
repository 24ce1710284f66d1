/**
 * PNG previews of ZPL, as the label would come out of the printer. Rendering
 * is done by zpl-renderer-js (IngridHQ's zebrash ZPL engine compiled to
 * WebAssembly; it runs offline and calls no web service). Being an engine
 * written by others, it also checks that our own ZPL means what we think.
 * The ~9 MB module is loaded on the first preview only.
 */

interface ZplRenderApi {
  zplToBase64Async(zpl: string, widthMm?: number, heightMm?: number, dpmm?: number): Promise<string>;
}

let api: Promise<ZplRenderApi> | null = null;
// The WebAssembly engine is single-threaded: one render at a time.
let queue: Promise<unknown> = Promise.resolve();

function renderer(): Promise<ZplRenderApi> {
  api ??= import('zpl-renderer-js')
    .then(async (m) => (await m.ready).api as ZplRenderApi)
    .catch((e: unknown) => {
      api = null; // let a later preview try again
      throw e;
    });
  return api;
}

/** The `^XA`...`^XZ` formats (labels) of a ZPL stream, in order. */
export function splitZplFormats(zpl: string): string[] {
  return zpl.match(/\^XA[\s\S]*?\^XZ/gi) ?? [];
}

/** Dots per millimetre of a print head: 203 dpi = 8, 300 dpi = 12 (ZPL's own rounding). */
export function dotsPerMm(dpi: 203 | 300): number {
  return dpi === 300 ? 12 : 8;
}

/** Label size in dots taken from a format's `^PW`/`^LL`, else 4 x 6 in at `dpi`. */
export function labelSizeDots(format: string, dpi: 203 | 300): { width: number; height: number } {
  const dpmm = dotsPerMm(dpi);
  const clamp = (n: number | undefined, d: number): number => (n !== undefined && n >= 8 && n <= 400 * dpmm ? n : d);
  const pw = /\^PW(\d+)/i.exec(format)?.[1];
  const ll = /\^LL(\d+)/i.exec(format)?.[1];
  // 4 x 6 in: 812 x 1218 dots at 203 dpi, 1200 x 1800 at 300 dpi.
  return { width: clamp(pw ? Number(pw) : undefined, dpi === 300 ? 1200 : 812), height: clamp(ll ? Number(ll) : undefined, dpi === 300 ? 1800 : 1218) };
}

/**
 * Renders the first `maxLabels` labels of `zpl` as PNG images (8-bit grey),
 * each at the printer's `dpi` and its `^PW` x `^LL` size (4 x 6 in by default:
 * 812 x 1218 px at 203 dpi).
 *
 * @returns one PNG per rendered label and the count of labels found
 * @throws Error when the stream has no `^XA...^XZ` label or the engine rejects it
 */
export async function renderZplPreview(zpl: string, opts: { dpi: 203 | 300; maxLabels?: number }): Promise<{ pngs: Buffer[]; labelCount: number }> {
  const formats = splitZplFormats(zpl);
  if (formats.length === 0) throw new Error('no ^XA...^XZ label in the ZPL');
  const dpmm = dotsPerMm(opts.dpi);
  const wanted = formats.slice(0, Math.max(1, opts.maxLabels ?? 10));
  const run = queue.then(async () => {
    const r = await renderer();
    const pngs: Buffer[] = [];
    for (const f of wanted) {
      const { width, height } = labelSizeDots(f, opts.dpi);
      pngs.push(Buffer.from(await r.zplToBase64Async(f, width / dpmm, height / dpmm, dpmm), 'base64'));
    }
    return pngs;
  });
  queue = run.catch(() => undefined);
  return { pngs: await run, labelCount: formats.length };
}
