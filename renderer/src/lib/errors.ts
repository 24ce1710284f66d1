/**
 * Normalises whatever a command rejected with into a {@link StationError}
 * (the IPC bridge delivers plain `{code, message, details}` objects; the HTTP
 * transport already throws StationError; anything else is a station bug).
 */
import { StationError, isStationErrorShape } from '../../../shared/contract';
import { isStationText } from '../../../shared/contract/core-text';
import { LOCAL_ERROR_CODES } from '../../../shared/contract/errors';
import type { StationText } from '../../../shared/contract/views';
import type { FieldErrors } from '../../../shared/platform';
import { coreTextOf } from './coreText';
import { hasText, language, t } from './i18n';

/** The rejection as a StationError; unknown shapes become `internal_error` with their text. */
export function asStationError(e: unknown): StationError {
  if (e instanceof StationError) return e;
  if (isStationErrorShape(e)) return new StationError(e.code, e.message, e.details, isStationText(e.text) ? e.text : undefined);
  if (e instanceof Error) return new StationError('internal_error', e.message);
  return new StationError('internal_error', String(e));
}

/**
 * Rewrites `details` keys that carry the command's wrapper: the station may
 * report `request.recipient.address.postalCode` (the shipping.shipOrder input)
 * while the form fields are keyed `recipient.address.postalCode` like the spec.
 */
export function stripPrefix(details: FieldErrors | undefined, prefix: string): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(details ?? {})) {
    const key = k.startsWith(`${prefix}.`) ? k.slice(prefix.length + 1) : k;
    (out[key] ??= []).push(...v);
  }
  return out;
}

/**
 * The detail line of a failed action: the station's message and its code
 * (`Printer 10.0.0.5 refused the connection [printer_unreachable]`). On an
 * Italian bench a code with an Italian meaning (`errorCode.<code>` in the
 * locales) is said in Italian: the station's own codes (LOCAL_ERROR_CODES,
 * whose prose is English) by that meaning alone, the platform's codes by the
 * meaning and then the platform's own message. A message the core worded as a
 * text (`text`, issue 25) is said in the bench's language with its details
 * (`La stampante 10.0.0.5:9100 ha rifiutato la connessione … [printer_unreachable]`).
 */
export function errorDetail(err: { code: string; message: string; text?: StationText }): string {
  const said = coreTextOf(err.text);
  if (said !== null) return `${said} [${err.code}]`;
  const base = `${err.message} [${err.code}]`;
  if (language() !== 'it' || !hasText(`errorCode.${err.code}`)) return base;
  const meaning = t(`errorCode.${err.code}`);
  return (LOCAL_ERROR_CODES as readonly string[]).includes(err.code) ? `${meaning} [${err.code}]` : `${meaning} — ${base}`;
}
