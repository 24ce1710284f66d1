/**
 * `orders.importCsv`, `orders.importBegin` / `importChunk` / `importFinish`:
 * the Shopify CSV import (electron/core/orders/shopify-csv.ts) for a shop,
 * with that shop's pickup method names.
 *
 * A large export is uploaded in pieces of at most 1 MiB
 * ({@link IMPORT_CHUNK_BYTES}) into `<data folder>/imports/<id>.csv` and
 * read from there as a stream, so no command carries the whole file and the
 * core never holds it as one string; this works the same over Electron's IPC
 * and the headless host's HTTP (whose body limit is 32 MiB), and needs no
 * file path from the renderer (a browser cannot give one). Imports run one
 * at a time; each reports its progress in `imports.changed`. The upload is
 * deleted when its import ends, failed or not; uploads left by an earlier
 * run are deleted at the next `orders.importBegin`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT_CHUNK_BYTES, type Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { ImportReport } from '../../../shared/domain/order';
import type { FieldErrors } from '../../../shared/platform/common';
import { importShopifyCsv, MAX_IMPORT_BYTES, ShopifyImportError, tooLargeError } from './';
import type { ShopifyCsvInput } from './shopify-csv';
import type { StationContext } from '../common/context';
import { emitOrdersChanged, pickupMethodsOf } from './handlers';

/** An upload being received. `received`: bytes written so far. */
interface Upload {
  fileName: string;
  shop: string | undefined;
  size: number;
  file: string;
  received: number;
}

/** Time one slice of the search indexing after an import may hold the database, ms (as the import's own slices). */
const INDEX_SLICE_MS = 8;

/**
 * Writes the search index rows an import left for later
 * (`OrdersRepo.indexPending`), one slice per event-loop turn, so a scan
 * or a shipment waits at most one slice. Stops quietly when the store is
 * closed (what is left waits for the next start or import, and is found by
 * substring meanwhile).
 */
function indexInSlices(ctx: StationContext): Promise<void> {
  return new Promise<void>((resolve) => {
    const step = () => {
      let left: number;
      try {
        left = ctx.store.orders.indexPending(INDEX_SLICE_MS);
      } catch (e) {
        if (!/not open/i.test(String(e))) console.warn(`orders search index: ${String(e)}`);
        resolve();
        return;
      }
      if (left > 0) setImmediate(step);
      else resolve();
    };
    setImmediate(step);
  });
}

/** Handlers of the order import. */
export function createOrderImportHandlers(ctx: StationContext) {
  const uploads = new Map<string, Upload>();
  const folder = path.join(ctx.dataDir, 'imports');
  /** The import running now: the next waits for it. */
  let running: Promise<unknown> = Promise.resolve();
  /** The search indexing after imports (one at a time; a crash's leftovers are picked up here at start). */
  let indexing: Promise<void> | undefined;
  const indexLater = () => {
    indexing ??= indexInSlices(ctx).finally(() => (indexing = undefined));
  };
  if (ctx.store.orders.pendingIndexCount() > 0) indexLater();

  const run = (importId: string, fileName: string, input: ShopifyCsvInput, shop: string | undefined): Promise<ImportReport> => {
    const job = running.then(async () => {
      const methods = pickupMethodsOf(ctx, shop);
      try {
        const report = await importShopifyCsv(ctx.store, input, {
          now: () => new Date(ctx.now()),
          ...(shop !== undefined ? { shop } : {}),
          ...(methods !== undefined ? { pickupMethods: methods } : {}),
          onProgress: (p) => ctx.events.emit('imports.changed', { importId, fileName, ...p }),
          ...(ctx.stopping ? { signal: ctx.stopping } : {}),
        });
        emitOrdersChanged(ctx);
        // The warehouse's to-ship list gets them (issue 35): in the background, or when it is back.
        ctx.warehouse.shareOrders();
        indexLater();
        return report;
      } catch (e) {
        if (e instanceof ShopifyImportError) {
          const details: FieldErrors = {};
          for (const issue of e.issues) (details[issue.column || '_'] ??= []).push(issue.message);
          throw new StationError('import_failed', e.message, details);
        }
        throw e;
      }
    });
    running = job.catch(() => undefined);
    return job;
  };

  const mustUpload = (importId: string): Upload => {
    const u = uploads.get(importId);
    if (!u) throw new StationError('not_found_locally', `No upload ${importId} at this station (finished, or the station restarted): choose the file again`, { importId: ['No such upload'] });
    return u;
  };

  const drop = (importId: string) => {
    const u = uploads.get(importId);
    uploads.delete(importId);
    if (u) fs.rmSync(u.file, { force: true });
  };

  return {
    /**
     * Imports a Shopify "Export orders" CSV sent whole (`contentBase64` bytes or
     * `content` text; at most 24 MiB of bytes by the command's bounds).
     * @throws StationError `import_failed` when the file is refused as a whole
     *   (empty, binary, missing columns), `details` keyed by column name.
     */
    'orders.importCsv': async ({ fileName, content, contentBase64, shop }) => {
      const input = contentBase64 !== undefined ? Buffer.from(contentBase64, 'base64') : (content ?? '');
      return run(randomBytes(8).toString('hex'), fileName, input, shop);
    },
    'orders.importBegin': async ({ fileName, size, shop }) => {
      if (size > MAX_IMPORT_BYTES) {
        const { message } = tooLargeError(size);
        throw new StationError('import_failed', message, { size: [message] });
      }
      fs.mkdirSync(folder, { recursive: true });
      const live = new Set([...uploads.values()].map((u) => path.basename(u.file)));
      for (const name of fs.readdirSync(folder)) if (!live.has(name)) fs.rmSync(path.join(folder, name), { force: true });
      const importId = randomBytes(12).toString('hex');
      const file = path.join(folder, `${importId}.csv`);
      fs.writeFileSync(file, '');
      uploads.set(importId, { fileName, shop, size, file, received: 0 });
      return { importId, chunkBytes: IMPORT_CHUNK_BYTES, maxBytes: MAX_IMPORT_BYTES };
    },
    'orders.importChunk': async ({ importId, offset, dataBase64 }) => {
      const u = mustUpload(importId);
      if (offset !== u.received) {
        throw new StationError('invalid_input', `Piece at byte ${offset}, expected ${u.received}: send the pieces in order`, { offset: [`Expected ${u.received}`] });
      }
      const bytes = Buffer.from(dataBase64, 'base64');
      if (u.received + bytes.length > u.size) {
        drop(importId);
        const message = `The file is longer than the ${u.size} bytes announced: choose it again`;
        throw new StationError('invalid_input', message, { dataBase64: [message] });
      }
      await fs.promises.appendFile(u.file, bytes);
      u.received += bytes.length;
      return { received: u.received };
    },
    'orders.importFinish': async ({ importId }) => {
      const u = mustUpload(importId);
      if (u.received !== u.size) {
        drop(importId);
        const message = `Only ${u.received} of ${u.size} bytes arrived: choose the file again`;
        throw new StationError('import_failed', message, { _: [message] });
      }
      try {
        return await run(importId, u.fileName, { path: u.file }, u.shop);
      } finally {
        drop(importId);
      }
    },
  } satisfies Pick<Handlers, 'orders.importCsv' | 'orders.importBegin' | 'orders.importChunk' | 'orders.importFinish'>;
}
