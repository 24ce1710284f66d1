/**
 * Errors of the label printer layer. `code` is one of the station's local
 * error codes (shared/contract/errors.ts) and is what callers match on.
 */
import type { PrinterErrorCode } from '../../../shared/contract/errors';
import { coreText, type CoreTextKey } from '../../../shared/contract/core-text';
import type { StationText } from '../../../shared/contract/views';

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
  /** The message as a core text (shared/contract/core-text.ts), for the screens in the bench's language (issue 25). */
  readonly text: StationText | undefined;
  constructor(
    readonly code: PrinterErrorCode,
    message: string,
    options?: { cause?: unknown; delivered?: 'none' | 'partial'; text?: StationText },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PrinterError';
    this.delivered = options?.delivered;
    this.text = options?.text;
  }
  /** `{code, message, text?}` as the station boundary carries errors. */
  toJSON(): { code: PrinterErrorCode; message: string; text?: StationText } {
    return { code: this.code, message: this.message, ...(this.text ? { text: this.text } : {}) };
  }
}

/**
 * A {@link PrinterError} worded by a core text (shared/contract/core-text.ts, issue 25): the English
 * `message` from the table, and the key and values for the screens. `values` name the printer's
 * address, byte counts, timeouts (ms), the system's reason (as the system said it).
 */
export function printerFailure(
  code: PrinterErrorCode,
  key: CoreTextKey,
  values: Record<string, string | number>,
  options?: { cause?: unknown; delivered?: 'none' | 'partial' },
): PrinterError {
  const { message, text } = coreText(key, values);
  return new PrinterError(code, message, { ...options, text });
}
