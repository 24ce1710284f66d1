/**
 * Errors of the label printer layer. `code` is one of the station's local
 * error codes (shared/contract/errors.ts) and is what callers match on.
 */

/** Why a printer operation failed. */
export type PrinterErrorCode = 'printer_unreachable' | 'printer_timeout' | 'invalid_printer_uri' | 'printer_unsupported' | 'printer_error';

/**
 * A printer operation failed.
 * - `invalid_printer_uri`: the device URI cannot be parsed (message names the problem).
 * - `printer_unsupported`: the URI is valid but its kind cannot be opened yet (usb://).
 * - `printer_unreachable`: connection refused, host or network unreachable, name not found.
 * - `printer_timeout`: no connection, or the printer stopped taking bytes, within the timeout.
 * - `printer_error`: anything else (connection reset mid-job, folder not writable, printer closed).
 */
export class PrinterError extends Error {
  constructor(
    readonly code: PrinterErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PrinterError';
  }
  /** `{code, message}` as the station boundary carries errors. */
  toJSON(): { code: PrinterErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
