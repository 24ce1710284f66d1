/**
 * Errors of the label printer layer. `code` is one of the station's local
 * error codes (shared/contract/errors.ts) and is what callers match on.
 */
import type { PrinterErrorCode } from '../../../shared/contract/errors';

/**
 * A printer operation failed.
 * - `invalid_printer_uri`: the device URI cannot be parsed (message names the problem).
 * - `printer_unsupported`: the URI is valid but its kind cannot be opened yet (usb://).
 * - `printer_unreachable`: connection refused, host or network unreachable, name not found.
 * - `printer_timeout`: no connection, or the printer stopped taking bytes, within the timeout.
 * - `printer_permission`: the device exists but this user may not open it (USB: udev rule missing).
 * - `printer_error`: anything else (connection reset mid-job, folder not writable, printer closed).
 */
export class PrinterError extends Error {
  /**
   * For a failed job: whether any byte reached the device. `none` (never
   * connected, device absent, nothing accepted) lets the job runner send the
   * job again safely; `partial` means part of the label may have printed, so
   * it is never resent without the packer. Absent: not a job failure.
   */
  readonly delivered: 'none' | 'partial' | undefined;
  constructor(
    readonly code: PrinterErrorCode,
    message: string,
    options?: { cause?: unknown; delivered?: 'none' | 'partial' },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PrinterError';
    this.delivered = options?.delivered;
  }
  /** `{code, message}` as the station boundary carries errors. */
  toJSON(): { code: PrinterErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
