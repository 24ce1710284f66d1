/** The one rule of what a failed outbox request becomes (shared/contract/outbox-outcome.ts), as core and screen read it. */
import { describe, expect, it } from 'vitest';
import { outboxStateAfterFailure, outcomeOfCode, QUEUED_CODES } from '../../../shared/contract/outbox-outcome';
import { isTransient } from '../../../electron/core/outbox/worker';
import { PlatformError } from '../../../electron/core/platform/errors';

describe('outbox outcome rule', () => {
  it('keeps queued: no answer, 429, 5xx (known code or not), an unreadable 2xx', () => {
    expect(outboxStateAfterFailure({ code: 'offline' })).toBe('queued');
    expect(outboxStateAfterFailure({ code: 'timeout', status: 0 })).toBe('queued');
    expect(outboxStateAfterFailure({ code: 'rate_limited', status: 429 })).toBe('queued');
    expect(outboxStateAfterFailure({ code: 'internal_error', status: 503 })).toBe('queued');
    expect(outboxStateAfterFailure({ code: 'http_error', status: 504 })).toBe('queued');
    expect(outboxStateAfterFailure({ code: 'http_error', status: 201 })).toBe('queued');
  });

  it('needs attention: any other answer, an unknown 4xx included', () => {
    expect(outboxStateAfterFailure({ code: 'validation_failed', status: 422 })).toBe('needs_attention');
    expect(outboxStateAfterFailure({ code: 'subscription_required', status: 402 })).toBe('needs_attention');
    expect(outboxStateAfterFailure({ code: 'http_error', status: 418 })).toBe('needs_attention');
    expect(outboxStateAfterFailure({ code: 'outcome_unknown' })).toBe('needs_attention');
  });

  it('the core worker uses the same rule', () => {
    expect(isTransient(new PlatformError(504, 'http_error', 'gateway'))).toBe(true);
    expect(isTransient(new PlatformError(418, 'http_error', 'teapot'))).toBe(false);
    expect(isTransient(new PlatformError(0, 'timeout', 'slow'))).toBe(true);
  });

  it('the screen says queued exactly for the queued codes; http_error is never "sent automatically"', () => {
    for (const c of QUEUED_CODES) expect(outcomeOfCode(c)).toBe('queued');
    expect(outcomeOfCode('http_error')).toBe('needs_attention');
    expect(outcomeOfCode('outcome_unknown')).toBe('needs_attention');
    expect(outcomeOfCode('validation_failed')).toBe('needs_attention');
  });
});
