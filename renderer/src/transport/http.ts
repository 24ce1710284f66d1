/**
 * HTTP transport of the station contract, for the headless host
 * (electron/host/server.ts): commands are `POST /rpc/<command>` with the
 * per-launch token in the `x-station-token` header; events come from one
 * `EventSource` on `GET /events?token=...` (EventSource cannot set headers).
 * Failed commands reject with a {@link StationError} carrying the host's
 * `{code, message, details?}`; a host that cannot be reached rejects with
 * code `offline`.
 */
import { StationError, TOKEN_HEADER, isStationErrorShape, type EventName, type StationApi, type StationEvents } from '../../../shared/contract';
import { t } from '../lib/i18n';
import { isStationText } from '../../../shared/contract/core-text';


/** The part of EventSource this transport uses (injectable for tests). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (ev: { data?: unknown }) => void): void;
  onopen: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}

/** State of the link between the screens and the station host. */
export type LinkState = 'connecting' | 'up' | 'down';

/** Options of {@link createHttpStation}. */
export interface HttpStationOptions {
  /** Origin of the host, e.g. `http://127.0.0.1:5123` (default: the page's own). */
  origin: string;
  token: string;
  fetch?: typeof fetch;
  eventSource?: (url: string) => EventSourceLike;
  /** Told when the event stream opens or drops (header shows it). */
  onLink?: (state: LinkState) => void;
}

/** Turns a host answer into the thrown error: the envelope's error, or a generic one naming the status. */
function errorFromResponse(status: number, body: unknown, command: string): StationError {
  const e = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  // The core's wording (`text`) comes along, so the screen says the error in the bench's language.
  if (isStationErrorShape(e)) return new StationError(e.code, e.message, e.details, isStationText(e.text) ? e.text : undefined);
  return new StationError('internal_error', `Station host answered HTTP ${status} to ${command}`);
}

/**
 * Creates the HTTP-backed {@link StationApi}. The event stream opens on the
 * first `on()` and stays open (EventSource reconnects by itself).
 */
export function createHttpStation(opts: HttpStationOptions): StationApi & { close(): void } {
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const makeSource = opts.eventSource ?? ((url: string) => new EventSource(url) as unknown as EventSourceLike);
  const listeners = new Map<string, Set<(payload: never) => void>>();
  let source: EventSourceLike | null = null;

  const ensureSource = (name: string) => {
    if (!source) {
      source = makeSource(`${opts.origin}/events?token=${encodeURIComponent(opts.token)}`);
      opts.onLink?.('connecting');
      source.onopen = () => opts.onLink?.('up');
      source.onerror = () => opts.onLink?.('down');
    }
    if (!listeners.has(name)) {
      const set = new Set<(payload: never) => void>();
      listeners.set(name, set);
      source.addEventListener(name, (ev) => {
        if (typeof ev.data !== 'string') return;
        let payload: unknown;
        try {
          payload = JSON.parse(ev.data);
        } catch {
          return; // a torn message; the next change event brings fresh data
        }
        for (const l of [...set]) (l as (p: unknown) => void)(payload);
      });
    }
    return listeners.get(name)!;
  };

  return {
    async invoke(name, input) {
      let res: Response;
      try {
        res = await doFetch(`${opts.origin}/rpc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', [TOKEN_HEADER]: opts.token },
          body: JSON.stringify(input ?? {}),
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch {
        throw new StationError('offline', t('transport.hostDown'));
      }
      let body: unknown = null;
      const text = await res.text();
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw new StationError('internal_error', `Station host sent an unreadable answer to ${name} (HTTP ${res.status})`);
        }
      }
      if (!res.ok) throw errorFromResponse(res.status, body, name);
      return body as never;
    },
    on<E extends EventName>(event: E, listener: (payload: StationEvents[E]) => void) {
      const set = ensureSource(event);
      const l = listener as (payload: never) => void;
      set.add(l);
      return () => {
        set.delete(l);
      };
    },
    close() {
      source?.close();
      source = null;
      listeners.clear();
    },
  } satisfies StationApi & { close(): void };
}

/**
 * Reads the launch token from the page address: `#token=...` (preferred: a
 * fragment never reaches a server or a log) or `?token=...`. Returns null when absent.
 */
export function tokenFromLocation(loc: { hash: string; search: string }): string | null {
  const fromHash = new URLSearchParams(loc.hash.replace(/^#/, '')).get('token');
  if (fromHash) return fromHash;
  const fromQuery = new URLSearchParams(loc.search).get('token');
  return fromQuery || null;
}
