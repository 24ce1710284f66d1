/**
 * Errors of the sandbox, answered with the spec's envelope
 * `{error: {code, message, details?}}` (spec: Errors > Envelope).
 */
import type { z } from 'zod';
import { issuesToDetails, type FieldErrors, type PlatformErrorCode } from '../../shared/platform/common';

/** An error the API answers as-is: HTTP status, envelope code, message and optional field details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: PlatformErrorCode,
    message: string,
    readonly details?: FieldErrors,
    /** Extra response headers (e.g. `Allow` on 405). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The envelope body. */
  toBody(): { error: { code: string; message: string; details?: FieldErrors } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** 401 `unauthenticated` (missing, malformed, expired or unknown token; wrong client credentials). */
export const unauthenticated = (message: string) => new ApiError(401, 'unauthenticated', message);

/** 404 `not_found`: missing resource or a resource of another client (tenancy). */
export const notFound = (message: string) => new ApiError(404, 'not_found', message);

/** 409 `invalid_state`: operation no longer possible. */
export const invalidState = (message: string) => new ApiError(409, 'invalid_state', message);

/** 422 `shipment_rejected`: refused by platform or carrier rules; the reason is the message. */
export const rejected = (message: string) => new ApiError(422, 'shipment_rejected', message);

/** 422 `validation_failed` with `details` keyed by field path. */
export function validationFailed(details: FieldErrors, message = 'The given data was invalid.'): ApiError {
  return new ApiError(422, 'validation_failed', message, details);
}

/** 422 `validation_failed` for a single field path. */
export function fieldError(path: string, message: string): ApiError {
  return validationFailed({ [path]: [message] });
}

/**
 * Parses `data` with a zod schema; on failure throws 422 `validation_failed`
 * whose `details` keys are the issue paths joined with '.' (e.g.
 * `packages.0.weight.value`). A non-object body is reported under `_body`.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  if (data === undefined || data === null) {
    // No body at all: validate an empty object so `details` names each required field.
    const r = schema.safeParse({});
    if (r.success) return r.data;
    throw validationFailed(issuesToDetails(r.error.issues));
  }
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const details = issuesToDetails(r.error.issues);
  if (details._ && (typeof data !== 'object' || Array.isArray(data))) {
    throw validationFailed({ _body: ['Request body must be a JSON object'] });
  }
  throw validationFailed(details);
}
