/** The label printer interface the station prints through (DESIGN.md "Printing"). */
import type { PrinterView, StationText } from '../../../shared/contract/views';

/** Outcome of one print job. */
export interface PrintResult {
  /** Bytes of ZPL handed to the printer (socket) or written to the .zpl file. */
  bytesWritten: number;
  /**
   * Milliseconds from the call until the last byte was flushed to the socket
   * (socket printer) or until the .zpl file and previews were written (file printer).
   */
  durationMs: number;
  /** File printer: absolute path of the written .zpl file. */
  zplPath?: string;
  /** File printer: absolute paths of the PNG previews, one per label (format) rendered. */
  previewPaths?: string[];
  /** File printer: why no preview could be rendered (the .zpl was written regardless). */
  previewError?: string;
}

/**
 * Printer condition. `unreachable`: no connection (off, unplugged);
 * `error`: a fault the printer reports (ribbon out, head too hot/cold,
 * corrupt RAM) or a folder that is not writable; `unknown`: reachable but it
 * gave no usable status answer (not every printer answers `~HS`). Never
 * `ready` without an answer from the printer.
 */
export interface PrinterStatus {
  /** The printer states the screens show (shared/contract/views.ts `PrinterView`). */
  state: PrinterView['state'];
  /** Human text for the screen, e.g. "Out of paper; paused (1 format waiting)". */
  detail: string;
  /** The same as a text of the locale files, when the station words it itself (shared/contract/views.ts `PrinterView.detailText`). */
  detailText?: StationText;
  /**
   * What the printer still holds, from `~HS` (formats in the receive buffer,
   * labels remaining in the batch); absent when the printer does not say.
   * The print job runner calls a job printed once both are 0.
   */
  buffer?: { formats: number; labelsRemaining: number };
  /**
   * Set when the status could not be read because of the station's side, not
   * the printer's condition: `printer_permission` (USB device not openable by
   * this user), `printer_error` (folder not writable, query timed out).
   */
  code?: 'printer_permission' | 'printer_error';
}

/** Options of one print job. */
export interface PrintOptions {
  /** Job name; the file printer uses it (sanitised) as the file name. */
  jobName?: string;
  /** Aborts connecting/sending; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The label the bytes were made for (the printer's profile): resolution in dpi and size in mm. The
   * folder printer draws its PNG preview at it; device printers ignore it (the ZPL carries `^PW`/`^LL`).
   */
  media?: { dpi: 203 | 300 | 600; widthMm: number; heightMm: number };
  /**
   * What the bytes are: printer commands sent as they are (default: ZPL, ESC/POS) or a `pdf`
   * document (an A4 packing slip), which an OS print queue must render (CUPS without `-o raw`).
   */
  document?: 'raw' | 'pdf';
}

/**
 * A label printer. Jobs and status queries on one printer run one at a time,
 * in call order. Nothing is retried here: the print job rows decide that.
 */
export interface LabelPrinter {
  /** The device URI, trimmed. */
  readonly uri: string;
  /**
   * Sends ZPL bytes (send the station's labels as UTF-8 with `^CI28`).
   * @throws PrinterError (`printer_unreachable`, `printer_timeout`, `printer_error`)
   */
  print(zpl: Uint8Array, opts?: PrintOptions): Promise<PrintResult>;
  /** Current condition; never throws (failures are reported as states). */
  status(): Promise<PrinterStatus>;
  /** Stops open connections; later calls fail with `printer_error`. */
  close(): Promise<void>;
  /**
   * Hot-plug: `attached` / `detached` when the device appears or goes (USB).
   * Printers without hot-plug never call the listener. Returns the unsubscribe.
   */
  on?(event: PrinterEvent, listener: () => void): () => void;
}

/** Events of a printer whose device can come and go (USB hot-plug). */
export type PrinterEvent = 'attached' | 'detached';
