/** The label printer interface the station prints through (DESIGN.md "Printing"). */

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
 * Printer condition. `unreachable`: no connection; `error`: connected but no
 * usable answer, or a fault (ribbon out, head too hot/cold, corrupt RAM,
 * folder not writable). Never `ready` without an answer from the printer.
 */
export interface PrinterStatus {
  state: 'ready' | 'paper_out' | 'head_open' | 'paused' | 'error' | 'unreachable';
  /** Human text for the screen, e.g. "Out of paper; paused (1 format waiting)". */
  detail: string;
}

/** Options of one print job. */
export interface PrintOptions {
  /** Job name; the file printer uses it (sanitised) as the file name. */
  jobName?: string;
  /** Aborts connecting/sending; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
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
}

/** Options of {@link openPrinter}. */
export interface OpenPrinterOptions {
  /** Connect, write-stall and status-answer timeout in ms (default 5000). */
  timeoutMs?: number;
  /** Printer resolution in dpi (default 203); the file printer renders previews at it. */
  dpi?: 203 | 300;
}
