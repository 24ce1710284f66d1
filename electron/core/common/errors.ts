/**
 * Mapping of every failure inside the core to the contract's
 * {@link StationError} (DESIGN.md "One contract": platform codes pass through
 * unchanged, local ones are added).
 */
import { isStationText } from '../../../shared/contract/core-text';
import { LOCAL_ERROR_CODES, PRINTER_ERROR_CODES, StationError, type StationErrorCode } from '../../../shared/contract/errors';
import type { StationText } from '../../../shared/contract/views';
import { PlatformErrorCode } from '../../../shared/platform/common';
import { PlatformError } from '../platform/errors';

/** Every code the contract knows. */
const STATION_CODES = new Set<string>([...PlatformErrorCode.options, ...LOCAL_ERROR_CODES]);

/** True when `code` is a {@link StationErrorCode}. */
export function isStationErrorCode(code: unknown): code is StationErrorCode {
  return typeof code === 'string' && STATION_CODES.has(code);
}

/** Printer error codes the contract knows. */
const PRINTER_CODES = new Set<StationErrorCode>(PRINTER_ERROR_CODES);

/**
 * Turns any thrown value into a {@link StationError}:
 * - StationError: unchanged;
 * - PlatformError: same code (`validation_failed`, `invalid_state`, `offline`,
 *   `timeout`, ...), message and `details`;
 * - an error carrying a printer code (the printers module's `PrinterError`):
 *   that code, or `printer_error` for one the contract does not list;
 * - the store's `StoreError`: `store_error`, except `not_found` (`not_found_locally`),
 *   `conflict` and `invalid_input` (`invalid_input`, a field error with its details) and
 *   `invalid_state` (`invalid_state`);
 * - another error whose `code` is a contract code (the outbox's `OutboxAttention`): that code;
 * - anything else: `internal_error` with the error's message.
 */
export function toStationError(e: unknown): StationError {
  if (e instanceof StationError) return e;
  // The core's own wording travels with the code (issue 25): a queued label's wait is said in the bench's language.
  if (e instanceof PlatformError) return new StationError(e.code, e.message, e.details, isStationText(e.text) ? e.text : undefined);
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    const details = (e as { details?: unknown }).details as Record<string, string[]> | undefined;
    if (e.name === 'PrinterError' || (typeof code === 'string' && code.startsWith('printer_'))) {
      const c = typeof code === 'string' && PRINTER_CODES.has(code as StationErrorCode) ? (code as StationErrorCode) : 'printer_error';
      const text = (e as { text?: unknown }).text;
      return new StationError(c, e.message, undefined, isStationText(text) ? text : undefined);
    }
    if (e.name === 'StoreError') {
      if (code === 'not_found') return new StationError('not_found_locally', e.message);
      // A taken order or tracking number is the packer's to change: a field error, with its details.
      if (code === 'invalid_input' || code === 'conflict') return new StationError('invalid_input', e.message, details);
      if (code === 'invalid_state') return new StationError('invalid_state', e.message, details);
      return new StationError('store_error', e.message, details);
    }
    if (isStationErrorCode(code)) {
      const text = (e as { text?: unknown }).text;
      return new StationError(code, e.message, details, isStationText(text) ? text : undefined);
    }
    return new StationError('internal_error', e.message || 'Unexpected error');
  }
  return new StationError('internal_error', String(e));
}

/** Short `{code, message, text?}` of any error, for rows and events (printError, lastError); `text` when the core worded it (issue 25). */
export function errorSummary(e: unknown): { code: string; message: string; text?: StationText } {
  const s = toStationError(e);
  return { code: s.code, message: s.message, ...(s.text ? { text: s.text } : {}) };
}
