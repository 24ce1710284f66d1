/**
 * What a press is told when its outbox row did not end `done` (worker.ts):
 * the errors executors throw to give a row up ({@link OutboxAttention}) or
 * to look again later ({@link OutboxWait}), and the error a waiting press is
 * rejected with, whose code always matches its row's state
 * (shared/contract/outbox-outcome.ts).
 */
import { romeTime } from '../../../shared/domain/rome-day';
import { outcomeOfCode, type FailedRequestState } from '../../../shared/contract/outbox-outcome';
import type { StationText } from '../../../shared/contract/views';

/** Thrown by an executor to give a row up with a message (state `needs_attention`). */
export class OutboxAttention extends Error {
  constructor(
    public readonly code: string,
    message: string,
    /** The message as a core text (shared/contract/core-text.ts), when the station worded it (issue 25). */
    public readonly text?: StationText,
  ) {
    super(message);
    this.name = 'OutboxAttention';
  }
}

/**
 * Thrown by an executor when the row cannot be decided yet and must be looked
 * at again at `until` (state stays `queued`; the press is told `queued` with
 * `message`). Not a failure of the platform: the drain goes on.
 */
export class OutboxWait extends Error {
  readonly code = 'queued';
  constructor(
    public readonly until: Date,
    message: string,
    /** The message as a core text (shared/contract/core-text.ts), when the station worded it (issue 25). */
    public readonly text?: StationText,
  ) {
    super(message);
    this.name = 'OutboxWait';
  }
}

/** The rejection of a press whose row stays queued; `code` `queued` (shared/contract/outbox-outcome.ts). */
export class OutboxQueued extends Error {
  readonly code = 'queued';
  constructor(message: string) {
    super(message);
    this.name = 'OutboxQueued';
  }
}

/**
 * The error a press is rejected with, given what its row became: the
 * failure itself when its code already says so (`timeout` for a queued row,
 * `validation_failed` for a refused one), otherwise the same message under
 * `queued` or `needs_attention`, so the screen's `outcomeOfCode` always
 * matches the row (an unknown 5xx is `http_error`, which alone would read
 * as a refusal).
 */
export function pressError(state: FailedRequestState, e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && outcomeOfCode(code) === state) return e;
  const message = e instanceof Error ? e.message : String(e);
  const tagged = typeof code === 'string' ? `${message} [${code}]` : message;
  return state === 'queued' ? new OutboxQueued(tagged) : new OutboxAttention('needs_attention', tagged);
}

/** `HH:MM:SS` of `d` in Europe/Rome: the outbox's messages give times as every screen and the labels do (Italian time). */
export function hhmmss(d: Date): string {
  return romeTime(d.getTime());
}
