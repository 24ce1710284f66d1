/**
 * A reusable webhook receiver for tests: a loopback HTTP server that checks
 * each call the way the spec tells receivers to (Events > Delivery 4, 7):
 *
 * 1. reject (401) when `Webhook-Timestamp` or `Webhook-Signature` is missing;
 * 2. reject when the signed timestamp is older than 300 s against an
 *    injectable "now" (tests pass the sandbox's simulated clock);
 * 3. recompute HMAC-SHA256 of `<t>.<raw body>` with the endpoint secret and
 *    compare it with `v1` using `crypto.timingSafeEqual` — over the RAW bytes,
 *    never a re-serialised body;
 * 4. deduplicate on (`ldv`, `event`, `timestamp`) of the payload: a repeat of
 *    an event already accepted is answered 2xx but marked `duplicate`.
 *
 * What a verified call is answered can be scripted (`respond`): a status and
 * body, `hang` (never answer: exercises the sender's timeout) or `reset`
 * (drop the connection: a network error). Each call is recorded; `waitFor(n)`
 * is the readiness signal tests await instead of sleeping.
 *
 * This module is deliberately independent of the sandbox's signing code, so a
 * test proves the sandbox signs as the spec says, not as it thinks it does.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Spec: Limits — signature freshness. */
const SIGNATURE_TOLERANCE_S = 300;

/** Result of {@link verifyWebhook}. */
export type VerifyResult = { ok: true; timestamp: number; payload: Record<string, unknown> } | { ok: false; reason: string };

/** Input of {@link verifyWebhook}: headers as received (any case), the raw body, the secret and now. */
export interface VerifyInput {
  secret: string;
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** Current time, epoch seconds. */
  nowSeconds: number;
  /** Maximum age of the signed timestamp, seconds; default 300. */
  toleranceSeconds?: number;
}

function header(headers: VerifyInput['headers'], name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : headers[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Verifies one webhook call as a receiver must (spec: Events > Delivery 3-4).
 * Never throws; a failure names its reason.
 */
export function verifyWebhook(input: VerifyInput): VerifyResult {
  const tsHeader = header(input.headers, 'webhook-timestamp');
  const sigHeader = header(input.headers, 'webhook-signature');
  if (tsHeader === undefined || tsHeader === '') return { ok: false, reason: 'missing Webhook-Timestamp' };
  if (sigHeader === undefined || sigHeader === '') return { ok: false, reason: 'missing Webhook-Signature' };
  const parts = new Map(
    sigHeader.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (t === undefined || v1 === undefined || !/^\d+$/.test(t)) return { ok: false, reason: 'malformed Webhook-Signature' };
  if (t !== tsHeader.trim()) return { ok: false, reason: 'Webhook-Timestamp differs from the signed t' };
  const ts = Number(t);
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_S;
  if (input.nowSeconds - ts > tolerance) return { ok: false, reason: `timestamp older than ${tolerance} s` };
  const expected = createHmac('sha256', input.secret).update(`${t}.${input.rawBody}`, 'utf8').digest();
  const given = /^[0-9a-f]+$/.test(v1) ? Buffer.from(v1, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature mismatch' };
  let payload: unknown;
  try {
    payload = JSON.parse(input.rawBody);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return { ok: false, reason: 'body is not a JSON object' };
  return { ok: true, timestamp: ts, payload: payload as Record<string, unknown> };
}

/**
 * How the receiver answers a verified call: a status and body (optionally
 * written only after `delayMs` real ms — the event counts as processed at
 * once, as when an application commits before the network answer is lost),
 * `hang` (never answer) or `reset` (drop the connection).
 */
type ReceiverAnswer = { status: number; body?: string; delayMs?: number } | 'hang' | 'reset';

/** One call as received. */
interface ReceivedCall {
  /** 1-based arrival number. */
  n: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  /** Verification outcome; a rejected call was answered 401. */
  verification: VerifyResult;
  /** Parsed payload when verified. */
  payload: Record<string, unknown> | undefined;
  /** Verified and already accepted before under the same (`ldv`, `event`, `timestamp`). */
  duplicate: boolean;
  /** What the receiver answered (401 for a rejected call). */
  answer: ReceiverAnswer;
}

/** Options of {@link startReceiver}. */
export interface ReceiverOptions {
  /** Endpoint secret; can be set later with {@link WebhookReceiver.secret} (it is known only after registration). */
  secret?: string;
  /** Current time in epoch ms (default real time); tests pass the sandbox's simulated clock. */
  now?: () => number;
  /** Default answer to verified calls; default 200 `{"received":true}`. */
  answer?: ReceiverAnswer;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  /** Secret used to verify; set it from the registration's `secret`. */
  secret: string;
  /** Every call, in arrival order. */
  readonly calls: ReceivedCall[];
  /** Verified, non-duplicate payloads (what an application would process). */
  readonly accepted: Array<Record<string, unknown>>;
  /** Answer for the following calls (`queue` answers first, in order, then this). */
  answer: ReceiverAnswer;
  /** One-shot answers used before {@link answer}, first in first out. */
  readonly queue: ReceiverAnswer[];
  /** Resolves once at least `n` calls have arrived (rejects after `timeoutMs`, default 5000 real ms). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedCall[]>;
  /** Stops listening and drops hanging connections. */
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1, port 0; resolves once it listens. */
export async function startReceiver(opts: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const now = opts.now ?? (() => Date.now());
  const seen = new Set<string>();
  const waiters: Array<{ n: number; resolve: (c: ReceivedCall[]) => void }> = [];
  const sockets = new Set<Socket>();

  const rx: WebhookReceiver = {
    url: '',
    secret: opts.secret ?? '',
    calls: [],
    accepted: [],
    answer: opts.answer ?? { status: 200, body: '{"received":true}' },
    queue: [],
    waitFor(n, timeoutMs = 5000) {
      if (rx.calls.length >= n) return Promise.resolve(rx.calls.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: ${rx.calls.length} calls after ${timeoutMs} ms, expected ${n}`)), timeoutMs);
        waiters.push({
          n,
          resolve: (c) => {
            clearTimeout(timer);
            resolve(c);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const verification = verifyWebhook({ secret: rx.secret, rawBody, headers: req.headers, nowSeconds: Math.floor(now() / 1000) });
      let answer: ReceiverAnswer = { status: 401, body: '{"error":"signature rejected"}' };
      let duplicate = false;
      let payload: Record<string, unknown> | undefined;
      if (verification.ok) {
        payload = verification.payload;
        answer = rx.queue.shift() ?? rx.answer;
        const key = JSON.stringify([payload.ldv, payload.event, payload.timestamp]);
        duplicate = seen.has(key);
        // Only an event answered 2xx counts as processed; a 5xx asks the sender to try again.
        if (typeof answer === 'object' && answer.status >= 200 && answer.status < 300 && !duplicate) {
          seen.add(key);
          rx.accepted.push(payload);
        }
      }
      const call: ReceivedCall = { n: rx.calls.length + 1, method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody, verification, payload, duplicate, answer };
      rx.calls.push(call);
      if (answer === 'reset') req.socket.destroy();
      else if (answer !== 'hang') {
        const { status, body, delayMs } = answer;
        const send = () => {
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(body ?? '');
        };
        if (delayMs) setTimeout(send, delayMs).unref();
        else send();
      }
      for (const w of waiters.filter((x) => rx.calls.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(rx.calls.slice());
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  rx.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return rx;
}

/** A loopback URL where nothing listens (connection refused): a port is bound, read and released. */
export async function refusedUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
