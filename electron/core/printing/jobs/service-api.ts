/**
 * What the printer service (./service.ts) offers and is built from: its
 * interface and options, the saved printer settings (label printer, history,
 * profiles), the label stock default and how a printer's state is worded.
 */
import { z } from 'zod';
import type { DiscoveredPrinterView, PrinterNameParts, PrinterView, StationText } from '../../../../shared/contract/views';
import { coreText, coreTextNesting } from '../../../../shared/contract/core-text';
import { PrinterProfileSchema } from '../../../../shared/contract/printer-profile';
import { describePrinter, parseDeviceUri, printerNameParts, type LabelPrinter, type PrinterStatus } from '..';
import { defineSetting, type PrintJobRecord, type Store } from '../../store';
import { printJobView } from './job-views';
import type { StationEmitter } from '../../common/events';
import type { PrintOutcome } from '../../common/services';

/** Setting: the label printer's device URI chosen on the Settings screen (null = training default). */
export const LabelPrinterSetting = defineSetting('printer.label.uri', z.string().min(1).nullable(), null);
/** Setting: printers chosen before, newest first (at most {@link PRINTER_HISTORY_MAX}); discovery lists them. */
export const PrinterHistorySetting = defineSetting('printer.label.history', z.array(z.string().min(1)), []);
/**
 * Setting: printer profiles by device URI (issue 9 "Printer profiles"). One setting for all printers because
 * setting keys are dotted words and a URI is not; a printer without an entry keeps the old behaviour.
 */
export const PrinterProfilesSetting = defineSetting('printer.profiles', z.record(z.string().min(1), PrinterProfileSchema), {});
/** Most printers kept in {@link PrinterHistorySetting}. */
export const PRINTER_HISTORY_MAX = 10;

/** Label size PDF-only labels are fitted to, mm (4 x 6 in, the thermal label of every carrier here). */
export const LABEL_WIDTH_MM = 101.6;
export const LABEL_HEIGHT_MM = 152.4;

/** A status answer younger than this (ms) is trusted before a job without asking again (issue 16.2: "a few seconds"). */
export const STATUS_MAX_AGE_MS = 3000;
/** A printer that did not answer status is not asked before each job again for this long (ms); jobs go out as before. */
export const SILENT_RECHECK_MS = 60_000;

/** Options of {@link createPrinterService}. */
export interface PrinterServiceOptions {
  store: Store;
  events: StationEmitter;
  /** URI to start with. */
  uri: string;
  /** Opens a printer for a URI (electron/core/printing `openPrinter`). */
  open: (uri: string) => LabelPrinter;
  /**
   * The A4 printer's device URI (the packing-slip printer in A4 format), or null when none is set: the rest of a
   * PDF label's A4 page goes to it (page-rest.ts). Default: none.
   */
  a4Printer?: () => string | null;
  /** Resolution of the label printer; carrier ZPL is adapted to it (default 203 dpi). */
  dpi?: 203 | 300;
  /** How often a waiting runner asks the printer again, ms (default 3000). */
  retryMs?: number;
  /** How often the runner asks whether the printer's buffer is empty after a job, ms (default 250). */
  confirmPollMs?: number;
  /** Most a ready printer may take to empty its buffer before the job counts as printed anyway, ms (default 60000). */
  confirmMaxMs?: number;
  /** Most `printLabel` waits for its job's outcome, ms (default 15000); then it answers with the job as it is. */
  waitMs?: number;
  /** Most a status query may take before the printer counts as not answering, ms (default 8000). */
  statusTimeoutMs?: number;
  /** Most the probe of a new printer (`setUri`) may take, ms (default 5000). */
  probeMs?: number;
  /** Finds attached USB printers and OS print queues (electron/core/printing `discoverPrinters`). */
  discover?: () => Promise<DiscoveredPrinterView[]>;
  /** Called when the printer's state (as the header shows it) changes. */
  onStatus?: (view: PrinterView) => void;
  /** Log line for runner failures that reach no caller. */
  log?: (line: string) => void;
  /** Clock for status ages (ms), default `Date.now`. */
  now?: () => number;
}

/** The printer's name as the screens show it (`describePrinter` of its parsed device URI); the URI itself when it does not parse. */
function nameOf(uri: string): string {
  try {
    return describePrinter(parseDeviceUri(uri));
  } catch {
    return uri;
  }
}

/** The parts of the printer's name ({@link printerNameParts}) for the screens; undefined when the URI does not parse. */
function namePartsOf(uri: string): PrinterNameParts | undefined {
  try {
    return printerNameParts(parseDeviceUri(uri));
  } catch {
    return undefined;
  }
}

/**
 * A printer view of `uri`: its name (English, and its parts for the screens), state and detail
 * (`detailText` when the station words the detail itself, e.g. `{key: 'notChecked'}`).
 */
export function printerView(uri: string, state: PrinterView['state'], detail: string, detailText?: StationText): PrinterView {
  const nameParts = namePartsOf(uri);
  return { uri, name: nameOf(uri), ...(nameParts ? { nameParts } : {}), state, detail, ...(detailText ? { detailText } : {}) };
}

/** A printer's URI with its name (English) and the name's parts for the screens. */
export function printerNameOf(uri: string): { uri: string; name: string; nameParts?: PrinterNameParts } {
  const nameParts = namePartsOf(uri);
  return { uri, name: nameOf(uri), ...(nameParts ? { nameParts } : {}) };
}

/** Which kind of device a URI names (network, USB, OS print queue, folder), for the printer list. */
export function kindOf(uri: string): DiscoveredPrinterView['kind'] {
  if (uri.startsWith('usb:')) return 'usb';
  if (uri.startsWith('printer:')) return 'queue';
  if (uri.startsWith('file:')) return 'folder';
  return 'network';
}

/** States in which a job is held instead of sent. */
export const HOLD: ReadonlySet<PrinterView['state']> = new Set(['paper_out', 'head_open', 'paused', 'error', 'unreachable']);

const STATE_TEXT: Record<PrinterView['state'], string> = {
  ready: 'ready',
  paper_out: 'out of paper',
  head_open: 'printhead open',
  paused: 'paused',
  error: 'reports a fault',
  unreachable: 'off or not connected',
  unknown: 'status unknown',
};

/**
 * "Waiting: printer out of paper — Out of paper; Paused", with its core text (`jobWaitingPrinter`,
 * or `jobInPrinterWaiting` for a job already in the printer): `state` the English words,
 * `printerState` the state's code (the screens word it), `detail` the printer's detail.
 */
export function waitReason(v: PrinterView, inPrinter = false): { message: string; text: StationText } {
  return coreText(inPrinter ? 'jobInPrinterWaiting' : 'jobWaitingPrinter', { state: STATE_TEXT[v.state], printerState: v.state, detail: v.detail });
}

/** A job's note made of the printer's error (`{{code}}`, `{{error}}` with its own text). */
export const jobNote = (key: 'jobWaiting' | 'jobFailed' | 'jobFailedPartial', err: { code: string; message: string; text?: StationText }) =>
  coreTextNesting(key, { code: err.code }, { error: err });

/** How a print job ended for its caller: on paper, failed, waiting for the printer, or held for the packer (too long for the stock). */
export type Terminal = 'printed' | 'failed' | 'waiting' | 'held';

/** `p.status()` bounded by `ms`: a device that never answers (a hung folder, a wedged USB stack) is `error`. */
export async function boundedStatus(p: LabelPrinter, ms: number): Promise<PrinterStatus> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.status(),
      new Promise<PrinterStatus>((resolve) => {
        const said = coreText('printerNoStatus', { uri: p.uri, ms });
        timer = setTimeout(() => resolve({ state: 'error', detail: said.message, detailText: said.text, code: 'printer_error' }), ms);
        timer.unref();
      }),
    ]);
  } finally {
    // No timer outlives the answer.
    clearTimeout(timer);
  }
}

/**
 * What `printLabel` answers for a job as it is: printed, or the error saying why
 * not (the code from the job's `lastError`, else from `lastState`, the printer's last known state).
 */
export function printOutcome(job: PrintJobRecord | undefined, lastState: PrinterView['state']): PrintOutcome {
  if (!job) return { job: null, error: { code: 'printer_error', message: 'The print job is gone' } };
  const view = printJobView(job);
  if (job.state === 'printed') return { job: view, error: null };
  // Held as too long for the stock (issue 36): the sentence saying what to load, and the job to print shrunk anyway.
  if (job.state === 'held') return { job: view, error: { code: 'label_too_long', message: job.lastError ?? 'The label is longer than the labels loaded', ...(job.lastErrorText ? { text: job.lastErrorText } : {}) } };
  if (job.state === 'failed' || job.lastError) {
    const m = /^(printer_[a-z_]+|not_found_locally): /.exec(job.lastError ?? '');
    const code = m?.[1] ?? (lastState === 'unreachable' ? 'printer_unreachable' : 'printer_error');
    return { job: view, error: { code, message: job.lastError ?? 'The label was not printed', ...(job.lastErrorText ? { text: job.lastErrorText } : {}) } };
  }
  return { job: view, error: null };
}
