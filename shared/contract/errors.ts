/**
 * Errors crossing the station boundary (DESIGN.md "One contract"): always
 * `{code, message, details?}`. Platform codes pass through unchanged; the
 * station adds its local ones. Code matches on `code`, never on `message`.
 */
import type { FieldErrors, PlatformErrorCode } from '../platform/common';
import type { StationText } from './views';

/**
 * Codes of a failed printer operation (label or slip printer), defined once
 * here: `printer_unreachable` (off, unplugged, host not found),
 * `printer_timeout` (no connection or stalled within the timeout),
 * `printer_error` (anything else: reset mid-job, folder not writable),
 * `printer_unsupported` (a device URI kind that cannot be opened),
 * `invalid_printer_uri` (the device URI cannot be parsed),
 * `printer_permission` (the device exists but this user may not open it).
 */
export const PRINTER_ERROR_CODES = ['printer_unreachable', 'printer_timeout', 'printer_error', 'printer_unsupported', 'invalid_printer_uri', 'printer_permission'] as const;

/** One of {@link PRINTER_ERROR_CODES}. */
export type PrinterErrorCode = (typeof PRINTER_ERROR_CODES)[number];

/** Codes the station adds to the platform's own (spec: Errors), defined once here. */
export const LOCAL_ERROR_CODES = [
  'offline',
  'timeout',
  ...PRINTER_ERROR_CODES,
  'invalid_input',
  'unknown_command',
  'store_error',
  'import_failed',
  'not_found_locally',
  /** The platform answered 503 (e.g. invoice PDF generation): try later. */
  'unavailable',
  /** The request stays queued and the outbox sends it by itself (shared/contract/outbox-outcome.ts). */
  'queued',
  /** The request waits for the packer in the Queue panel. */
  'needs_attention',
  /** A create call got no answer and the platform shows nothing after the settle window: the packer confirms before it is sent again. */
  'outcome_unknown',
  'secret_store_unavailable',
  /** A setting that changes money or devices needs a supervisor's PIN (issue 26): sign in as a supervisor or unlock. */
  'supervisor_required',
  /** A PIN or badge that names no packer (issue 26). */
  'unknown_packer',
  /** Another bench of the warehouse is packing this order (issue 35): the message names the bench, the packer and since when. */
  'claimed',
  /** A press that was not sent and is not queued (issue 42 item 8): the message says why and when to press again. */
  'not_sent',
  /** A shared setting cannot be changed while the bench's warehouse is offline (issue 35): it is read-only until the warehouse is back. */
  'warehouse_offline',
  /** Another bench changed this shared setting first (issue 35): the message names the bench, the packer and when; the screen reloads it. */
  'changed_elsewhere',
] as const;

/** One of {@link LOCAL_ERROR_CODES}. */
type LocalErrorCode = (typeof LOCAL_ERROR_CODES)[number];

/** Every error code a station command may answer with. */
export type StationErrorCode = PlatformErrorCode | LocalErrorCode;

/** Serialised error: what the renderer receives for a failed command. */
export interface StationErrorShape {
  code: StationErrorCode;
  message: string;
  /** Field path (spec `details` keys, e.g. `recipient.address.postalCode`) -> messages. */
  details?: FieldErrors;
  /** The message as a core text (shared/contract/core-text.ts, `coreText.<key>` in the locales), when the station made it: the screens say it in the bench's language (issue 25). */
  text?: StationText;
}

/** Error thrown by handlers and rethrown in the renderer; serialises to {@link StationErrorShape}. */
export class StationError extends Error implements StationErrorShape {
  constructor(
    public readonly code: StationErrorCode,
    message: string,
    public readonly details?: FieldErrors,
    /** The message as a core text, see {@link StationErrorShape.text}. */
    public readonly text?: StationText,
  ) {
    super(message);
    this.name = 'StationError';
  }
  /** Plain object for a transport (IPC or HTTP JSON). */
  toJSON(): StationErrorShape {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}), ...(this.text ? { text: this.text } : {}) };
  }
}

/** True when `v` looks like a serialised station error. */
export function isStationErrorShape(v: unknown): v is StationErrorShape {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'string' && typeof (v as { message?: unknown }).message === 'string';
}
