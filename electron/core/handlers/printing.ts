/**
 * The label printer in use and label printing (DESIGN.md "Printing", "Print
 * jobs are rows too"). Every print is a `print_jobs` row: queued, claimed,
 * sent, then `printed` or `failed`. A failed job is never resent on its own;
 * the packer reprints (`labels.reprint`), which makes a new `reprint` job.
 * Labels are printed from the bytes stored when the shipment was created, so
 * printing never needs the network.
 */
import { z } from 'zod';
import type { PrintJobView, PrinterView } from '../../../shared/contract/views';
import { StationError } from '../../../shared/contract/errors';
import { adaptZplBytes, describePrinter, parseDeviceUri, type LabelPrinter } from '../printers';
import { defineSetting, type PrintRequester, type Store } from '../store';
import type { StationEmitter } from './events';
import { errorSummary } from './errors';
import { printJobView } from './views';

/** Setting: the label printer's device URI chosen on the Settings screen (null = training default). */
export const LabelPrinterSetting = defineSetting('printer.label.uri', z.string().min(1).nullable(), null);

/** Outcome of printing one label: the job row, and the error when it did not print. */
interface PrintOutcome {
  job: PrintJobView | null;
  error: { code: string; message: string } | null;
}

/** The printer in use and what can be done with it. */
export interface PrinterService {
  /** Device URI of the printer in use. */
  readonly uri: string;
  /** Asks the printer for its status (`~HS` for socket printers); at most `timeoutMs` (default: the printer's own timeout). */
  view(timeoutMs?: number): Promise<PrinterView>;
  /** Last status read, without asking the printer. */
  cached(): PrinterView;
  /**
   * Switches to another printer, closes the old one and saves the choice in settings.
   * @throws PrinterError `invalid_printer_uri` / `printer_unsupported` (nothing changes).
   */
  setUri(uri: string): Promise<PrinterView>;
  /**
   * Prints the newest stored ZPL label of the shipment as a new job.
   * Never throws for a printer failure: the job is `failed` and the error returned.
   * @throws StationError `not_found_locally` when no ZPL label is stored for the tracking number.
   */
  printLabel(trackingNumber: string, requestedBy: PrintRequester): Promise<PrintOutcome>;
  /** Closes the printer. */
  close(): Promise<void>;
}

/** Options of {@link createPrinterService}. */
export interface PrinterServiceOptions {
  store: Store;
  events: StationEmitter;
  /** URI to start with. */
  uri: string;
  /** Opens a printer for a URI (electron/core/printers `openPrinter`). */
  open: (uri: string) => LabelPrinter;
  /** Resolution of the label printer; carrier ZPL is adapted to it (default 203 dpi). */
  dpi?: 203 | 300;
}

function nameOf(uri: string): string {
  try {
    return describePrinter(parseDeviceUri(uri));
  } catch {
    return uri;
  }
}

/**
 * Builds the printer service on an opened printer.
 * @throws PrinterError when `opts.uri` cannot be opened.
 */
export function createPrinterService(opts: PrinterServiceOptions): PrinterService {
  const { store, events } = opts;
  const dpi = opts.dpi ?? 203;
  let printer = opts.open(opts.uri);
  let last: PrinterView = { uri: printer.uri, name: nameOf(printer.uri), state: 'unknown', detail: 'Not checked yet' };

  async function view(timeoutMs?: number): Promise<PrinterView> {
    const current = printer;
    const status = current.status();
    const answer =
      timeoutMs === undefined
        ? await status
        : await Promise.race([status, new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref?.())]);
    if (current !== printer) return last;
    last = answer
      ? { uri: current.uri, name: nameOf(current.uri), state: answer.state, detail: answer.detail }
      : { ...last, uri: current.uri, name: nameOf(current.uri) };
    return last;
  }

  return {
    get uri() {
      return printer.uri;
    },
    view,
    cached: () => last,
    async setUri(uri) {
      const next = opts.open(uri);
      const old = printer;
      printer = next;
      last = { uri: next.uri, name: nameOf(next.uri), state: 'unknown', detail: 'Not checked yet' };
      store.settings.set(LabelPrinterSetting, next.uri);
      await old.close().catch(() => undefined);
      return view();
    },
    async printLabel(trackingNumber, requestedBy) {
      const label = store.labels.getLatest(trackingNumber, 'ZPL');
      if (!label) {
        const pdf = store.labels.getLatest(trackingNumber, 'PDF');
        throw new StationError(
          'not_found_locally',
          pdf
            ? `Only a PDF label is stored for ${trackingNumber}; the label printer needs ZPL`
            : `No label is stored for ${trackingNumber}`,
        );
      }
      const current = printer;
      let job;
      try {
        job = store.tx(() => {
          // The shipment's `auto` job is created with the shipment (outbox/shipments.ts): print that one.
          const own = requestedBy === 'auto' ? store.printJobs.ensureAuto(label.id, current.uri).job : undefined;
          const queued = own?.state === 'queued' ? own : store.printJobs.enqueue({ labelId: label.id, printerUri: current.uri, requestedBy });
          return store.printJobs.claim(queued.id);
        });
      } catch (e) {
        return { job: null, error: errorSummary(e) };
      }
      events.emit('printJobs.changed', printJobView(job));
      try {
        const zpl = adaptZplBytes(label.bytes, { dpi });
        const result = await current.print(zpl, { jobName: trackingNumber });
        job = store.printJobs.markPrinted(job.id, result.bytesWritten);
        events.emit('printJobs.changed', printJobView(job));
        return { job: printJobView(job), error: null };
      } catch (e) {
        const error = errorSummary(e);
        job = store.printJobs.markFailed(job.id, `${error.code}: ${error.message}`, { retry: false });
        events.emit('printJobs.changed', printJobView(job));
        return { job: printJobView(job), error };
      }
    },
    async close() {
      await printer.close();
    },
  };
}
