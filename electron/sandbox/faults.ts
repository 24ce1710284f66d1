/**
 * Fault injection of the sandbox, set through the admin prefix
 * (`POST /__sandbox/faults`, `DELETE /__sandbox/faults`; routes/admin.ts) so
 * the station's retry, timeout and exactly-once paths can be exercised:
 *
 * - `latencyMs`: every API call waits this long (real time, not the
 *   simulated clock: it is there to trip client timeouts);
 * - `serverErrorShare`: that share (0..1) of API calls answers 500 or 503
 *   `internal_error` before doing anything (seeded pseudo-random choice);
 * - `carrierError`: 502 `carrier_error` on the carrier-facing endpoints
 *   (default: those the spec lists with 502) for the `next` N calls and then
 *   a `share` of calls; it lands after authentication and the access checks,
 *   before the handler, so nothing is created;
 * - `dropAfterCommit`: the next N successful `POST /shipments` commit the
 *   shipment (credit debited, events emitted) and then the connection is
 *   destroyed without an answer: the client cannot know the outcome;
 * - `hold`: a congested platform or proxy: the `next` N calls and then a
 *   `share` of the calls of `endpoints` (default `POST /shipments`) wait
 *   `ms` (real time) before they are handled, and are handled even when the
 *   client gave up meanwhile (the shipment is created and paid after the
 *   client's timeout).
 *
 * The hooks live in gateway.ts (one place for all routes).
 */
import { z } from 'zod';
import { normalizePattern } from './ratelimit';
import { mulberry32 } from '../../shared/domain/random';

/** Carrier-facing endpoints answering 502 in the spec: the default targets of `carrierError`. */
const CARRIER_ENDPOINTS: ReadonlyArray<string> = [
  'POST /shipments',
  'GET /shipments/{ldv}/tracking',
  'POST /manifests',
  'POST /stocks/{id}/actions',
  'GET /delivery-points',
];

const Share = z.number({ error: 'must be a number from 0 to 1' }).min(0, { error: 'must be at least 0' }).max(1, { error: 'must be at most 1' });
const Count = z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(0, { error: 'must be at least 0' });
const Endpoint = z.string().regex(/^(GET|POST|DELETE|PUT|PATCH) \/\S*$/, { error: 'must be "<METHOD> /path" relative to the base URL, e.g. "POST /shipments"' });

/** Which requests a fault hits: a `share` of them and/or the `next` N, optionally only on some `endpoints`. */
const TARGET = { share: Share.optional(), next: Count.optional(), endpoints: z.array(Endpoint).min(1).optional() };
/** A targeted fault must say how many requests it hits. */
const TARGETED: [(c: { share?: number | undefined; next?: number | undefined }) => boolean, { error: string }] = [(c) => c.share !== undefined || c.next !== undefined, { error: 'give share and/or next' }];

/**
 * Body of `POST /__sandbox/faults`. Each given key replaces that fault; keys
 * left out keep their current setting; `null` clears one fault.
 * `seed` (integer) restarts the pseudo-random choices.
 */
export const FaultsRequest = z.strictObject({
  latencyMs: z.number().int({ error: 'must be an integer (ms)' }).min(0).max(120_000, { error: 'must be at most 120000 ms' }).nullable().optional(),
  serverErrorShare: Share.nullable().optional(),
  carrierError: z.strictObject(TARGET).refine(...TARGETED).nullable().optional(),
  dropAfterCommit: z.strictObject({ next: Count.min(1, { error: 'must be at least 1' }) }).nullable().optional(),
  hold: z
    .strictObject({ ms: z.number().int({ error: 'must be an integer (ms)' }).min(1).max(600_000, { error: 'must be at most 600000 ms' }), ...TARGET })
    .refine(...TARGETED)
    .nullable()
    .optional(),
  seed: z.number().int().optional(),
});
export type FaultsRequest = z.input<typeof FaultsRequest>;

/** The faults in force (answer of the admin endpoints). */
export interface FaultSettings {
  latencyMs: number;
  serverErrorShare: number;
  carrierError: { share: number; next: number; endpoints: string[] } | null;
  dropAfterCommit: { next: number } | null;
  hold: { ms: number; share: number; next: number; endpoints: string[] } | null;
}

/** True when `endpoint` (`"POST /shipments"`, parameters in any style) is one of `endpoints`. */
function matches(endpoints: readonly string[], endpoint: string): boolean {
  const [method = '', path = ''] = endpoint.split(' ');
  const key = `${method} ${normalizePattern(path)}`;
  return endpoints.some((e) => {
    const [m = '', p = ''] = e.split(' ');
    return `${m} ${normalizePattern(p)}` === key;
  });
}

/** Faults of one sandbox; decisions are pseudo-random with a fixed seed (default 1), so a run can be replayed. */
export class Faults {
  private settings: FaultSettings = Faults.none();
  private random = mulberry32(1);

  private static none(): FaultSettings {
    return { latencyMs: 0, serverErrorShare: 0, carrierError: null, dropAfterCommit: null, hold: null };
  }

  /** Current settings (a copy). */
  get current(): FaultSettings {
    const s = this.settings;
    return {
      latencyMs: s.latencyMs,
      serverErrorShare: s.serverErrorShare,
      carrierError: s.carrierError ? { ...s.carrierError, endpoints: [...s.carrierError.endpoints] } : null,
      dropAfterCommit: s.dropAfterCommit ? { ...s.dropAfterCommit } : null,
      hold: s.hold ? { ...s.hold, endpoints: [...s.hold.endpoints] } : null,
    };
  }

  /** Applies a parsed {@link FaultsRequest}: given keys replace, `null` clears, absent keys stay. */
  apply(req: z.output<typeof FaultsRequest>): FaultSettings {
    if (req.seed !== undefined) this.random = mulberry32(req.seed);
    if (req.latencyMs !== undefined) this.settings.latencyMs = req.latencyMs ?? 0;
    if (req.serverErrorShare !== undefined) this.settings.serverErrorShare = req.serverErrorShare ?? 0;
    if (req.carrierError !== undefined) {
      this.settings.carrierError = req.carrierError
        ? { share: req.carrierError.share ?? 0, next: req.carrierError.next ?? 0, endpoints: req.carrierError.endpoints ?? [...CARRIER_ENDPOINTS] }
        : null;
    }
    if (req.dropAfterCommit !== undefined) this.settings.dropAfterCommit = req.dropAfterCommit ? { next: req.dropAfterCommit.next } : null;
    if (req.hold !== undefined) {
      this.settings.hold = req.hold
        ? { ms: req.hold.ms, share: req.hold.share ?? 0, next: req.hold.next ?? 0, endpoints: req.hold.endpoints ?? ['POST /shipments'] }
        : null;
    }
    return this.current;
  }

  /** Clears every fault (and restarts the random sequence). */
  clear(): void {
    this.settings = Faults.none();
    this.random = mulberry32(1);
  }

  /** Milliseconds (real time) to wait before handling an API call. */
  latency(): number {
    return this.settings.latencyMs;
  }

  /** 500 or 503 when this call must fail as a server error, else undefined. */
  serverError(): 500 | 503 | undefined {
    const share = this.settings.serverErrorShare;
    if (share <= 0 || this.random() >= share) return undefined;
    return this.random() < 0.5 ? 500 : 503;
  }

  /**
   * true when this call of `endpoint` (`"POST /shipments"`, parameters in any
   * style) must answer 502 `carrier_error`; consumes one of `next`.
   */
  carrierError(endpoint: string): boolean {
    const c = this.settings.carrierError;
    if (!c) return false;
    const [method = '', path = ''] = endpoint.split(' ');
    const key = `${method} ${normalizePattern(path)}`;
    if (!c.endpoints.some((e) => { const [m = '', p = ''] = e.split(' '); return `${m} ${normalizePattern(p)}` === key; })) return false;
    if (c.next > 0) {
      c.next -= 1;
      return true;
    }
    return c.share > 0 && this.random() < c.share;
  }

  /** Milliseconds (real time) to hold this call of `endpoint` before handling it (0: none); consumes one of `next`. */
  hold(endpoint: string): number {
    const h = this.settings.hold;
    if (!h || !matches(h.endpoints, endpoint)) return 0;
    if (h.next > 0) {
      h.next -= 1;
      return h.ms;
    }
    return h.share > 0 && this.random() < h.share ? h.ms : 0;
  }

  /** true when this successful POST /shipments must lose its answer; consumes one. */
  takeDrop(): boolean {
    const d = this.settings.dropAfterCommit;
    if (!d || d.next <= 0) return false;
    d.next -= 1;
    if (d.next === 0) this.settings.dropAfterCommit = null;
    return true;
  }
}
