/**
 * The station's packing-slip printer (issue 11): settings, the slip jobs'
 * runner and the commands' logic. Slips are rows (`slip_jobs`) like labels:
 * one `auto` slip is created in the transaction that records a shipment
 * when the station prints slips with the label; the packer asks for more
 * (Alt+K, on demand or reprint). The runner prints the oldest queued slip; a
 * printer that is off or unplugged (nothing delivered) keeps the slip queued
 * and is tried again every `retryMs`; a slip cut off half-way fails and waits
 * for the packer. Devices: the station's own transports (`openPrinter`:
 * socket, USB, OS print queue); `file://` folders get `.escpos` / `.pdf` files.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SlipSettings, type SlipJobView } from '../../../shared/contract/slips';
import { StationError } from '../../../shared/contract/errors';
import type { StationEmitter } from '../common/events';
import type { SlipService } from '../common/services';
import { shipmentDeliveryPoint } from '../shipping/views';
import { parseDeviceUri, PrinterError, type LabelPrinter } from '../printing';
import { deviceFolderProblem, makeFolder } from '../printing/transports/folder';
import { BenchLanguageSetting, defineSetting, type SlipJobRecord, type Store } from '../store';
import { slipContent, type SlipContent } from './content';
import { escposSlip, type SlipInterface } from './escpos';

/** Setting `slips.settings`: no slip printer until the packer chooses one. */
const SlipSettingsSetting = defineSetting('slips.settings', SlipSettings, { printerUri: null, format: 'escpos', paperWidthMm: 80, when: 'with_label', shopName: '' });

/** Options of {@link createSlipService}. */
export interface SlipServiceOptions {
  store: Store;
  events: StationEmitter;
  /** Opens a device URI (electron/core/printing `openPrinter`, with the station's USB library). */
  open: (uri: string) => LabelPrinter;
  /** Wait before trying a printer that took nothing again, ms (default 5000). */
  retryMs?: number;
  /** Clock, ms. */
  now?: () => number;
  log?: (line: string) => void;
}

/** Builds the service; call `kick()` once the station is up to print slips left queued. */
export function createSlipService(opts: SlipServiceOptions): SlipService {
  const { store, events } = opts;
  const retryMs = opts.retryMs ?? 5000;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  let running: Promise<void> | null = null;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;

  const interrupted = store.slipJobs.failInterrupted();
  if (interrupted) log(`${interrupted} packing slip(s) were interrupted by a stop; they can be printed again (Alt+K)`);

  const view = (j: SlipJobRecord): SlipJobView => ({
    id: j.id,
    orderId: j.orderId,
    orderNumber: store.orders.getById(j.orderId)?.orderNumber ?? `#${j.orderId}`,
    trackingNumber: j.trackingNumber,
    printerUri: j.printerUri,
    format: j.format,
    state: j.state,
    attempts: j.attempts,
    lastError: j.lastError,
    requestedBy: j.requestedBy,
    createdAt: j.createdAt,
    printedAt: j.printedAt,
  });
  const changed = (j: SlipJobRecord) => events.emit('slips.changed', view(j));

  /** The slip's bytes for its format. */
  async function render(content: SlipContent, job: SlipJobRecord, device: SlipInterface): Promise<void> {
    if (job.format === 'pdf') {
      const { pdfSlip } = await import('./pdf');
      await device.execute(Buffer.from(await pdfSlip(content)));
      return;
    }
    const s = store.settings.get(SlipSettingsSetting);
    await escposSlip(content, { paperWidthMm: s.paperWidthMm }, device).execute();
  }

  /** The device a job goes to: a folder gets a file; anything else the station's transport. */
  function deviceFor(job: SlipJobRecord, name: string): { iface: SlipInterface; close: () => Promise<void> } {
    const dev = parseDeviceUri(job.printerUri);
    if (dev.scheme === 'file') {
      return {
        iface: {
          getPrinterName: () => dev.uri,
          isPrinterConnected: async () => true,
          async execute(buffer) {
            const file = path.join(dev.dir, `${name}.${job.format === 'pdf' ? 'pdf' : 'escpos'}`);
            try {
              // The folder rule again (a symlink made since saving), then the folder made in bounded steps.
              const checked = deviceFolderProblem(dev.dir);
              if ('problem' in checked) throw new PrinterError('invalid_printer_uri', `Invalid printer URI "${dev.uri}": ${checked.problem}`);
              await makeFolder(dev.dir);
              await fs.writeFile(file, buffer, { flag: 'wx' });
            } catch (e) {
              if (e instanceof PrinterError) throw e;
              throw new PrinterError('printer_error', `Slip not written to ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e, delivered: 'none' });
            }
          },
        },
        close: async () => undefined,
      };
    }
    const printer = opts.open(job.printerUri);
    return {
      iface: {
        getPrinterName: () => printer.uri,
        isPrinterConnected: async () => (await printer.status()).state !== 'unreachable',
        execute: (buffer) => printer.print(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), { jobName: name, ...(job.format === 'pdf' ? { document: 'pdf' as const } : {}) }),
      },
      close: () => printer.close(),
    };
  }

  async function printOne(job: SlipJobRecord): Promise<'printed' | 'retry' | 'failed'> {
    const order = store.orders.getById(job.orderId);
    if (!order) {
      changed(store.slipJobs.markFailed(job.id, 'The order is no longer in the station', { retry: false }));
      return 'failed';
    }
    const point = job.trackingNumber !== null ? shipmentDeliveryPoint(store, job.trackingNumber) : null;
    const content = slipContent(order, {
      shopName: store.settings.get(SlipSettingsSetting).shopName || order.shop,
      trackingNumber: job.trackingNumber,
      nowMs: now(),
      language: store.settings.get(BenchLanguageSetting),
      deliveryPoint: point ? `${point.name}, ${point.address}` : null,
    });
    const name = `slip-${order.orderNumber.replace(/[^A-Za-z0-9_-]/g, '')}-${job.id}`;
    let device: ReturnType<typeof deviceFor> | undefined;
    try {
      device = deviceFor(job, name);
      await render(content, job, device.iface);
      changed(store.slipJobs.markPrinted(job.id));
      return 'printed';
    } catch (e) {
      const nothingSent = e instanceof PrinterError && e.delivered !== 'partial' && e.code !== 'invalid_printer_uri' && e.code !== 'printer_unsupported';
      const why = e instanceof Error ? e.message : String(e);
      changed(store.slipJobs.markFailed(job.id, nothingSent ? `Waiting for the slip printer: ${why}` : why, { retry: nothingSent }));
      return nothingSent ? 'retry' : 'failed';
    } finally {
      await device?.close().catch(() => undefined);
    }
  }

  async function pump(): Promise<void> {
    for (;;) {
      if (closed) return;
      const job = store.slipJobs.claimNext();
      if (!job) return;
      changed(job);
      const outcome = await printOne(job);
      if (outcome === 'retry') {
        // The printer took nothing: try again later, in order (this slip stays first).
        retry ??= setTimeout(() => {
          retry = null;
          kick();
        }, retryMs);
        retry.unref?.();
        return;
      }
    }
  }

  function kick(): void {
    if (closed || running) return;
    running = pump()
      .catch((e: unknown) => log(`slip printer: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        running = null;
      });
  }

  return {
    settings: () => store.settings.get(SlipSettingsSetting),
    setSettings(input) {
      if (input.printerUri !== null) {
        try {
          parseDeviceUri(input.printerUri);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          throw new StationError('invalid_input', message, { printerUri: [message] });
        }
      }
      const saved = store.settings.set(SlipSettingsSetting, input);
      kick();
      return saved;
    },
    queueWithLabel(orderId, trackingNumber) {
      const s = store.settings.get(SlipSettingsSetting);
      if (orderId === undefined || s.when !== 'with_label' || s.printerUri === null) return null;
      return store.slipJobs.ensureAuto({ orderId, trackingNumber, printerUri: s.printerUri, format: s.format === 'a4' ? 'pdf' : 'escpos' }).job;
    },
    request(orderId) {
      const order = store.orders.getById(orderId);
      if (!order) throw new StationError('not_found', `Order ${orderId} not found`);
      const s = store.settings.get(SlipSettingsSetting);
      if (s.printerUri === null) throw new StationError('invalid_state', 'No slip printer: choose one in Settings (F8), Packing slips');
      const shipment = store.shipments.listByOrder(orderId).reverse().find((x) => !x.cancelledAt);
      const job = store.slipJobs.enqueueReprint({ orderId, trackingNumber: shipment?.trackingNumber ?? null, printerUri: s.printerUri, format: s.format === 'a4' ? 'pdf' : 'escpos' });
      changed(job);
      kick();
      return view(job);
    },
    list: (orderId) => store.slipJobs.list(orderId === undefined ? {} : { orderId }).map(view),
    kick,
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await running;
    },
  };
}
