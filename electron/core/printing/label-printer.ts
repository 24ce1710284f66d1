/**
 * The one label printer, over any {@link Transport} (socket, USB, OS queue,
 * folder): jobs are the bytes written as they are; status is `~HQES~HS`
 * written and the answer read back (TCP, bulk IN on USB) until the three
 * `~HS` strings are in, or, for a transport with no way back from the device
 * (queue, folder), what the transport knows itself. Jobs and status queries
 * run one at a time, in call order. A device the transport keeps (USB) is
 * claimed for a job or a status query and released after `idleMs` without
 * use, so another program (a vendor tool, CUPS) can use the printer meanwhile;
 * a connection (TCP) is closed after each.
 */
import { PrinterError, printerFailure } from './errors';
import { STATUS_QUERY, hostStatusFrames, isStatusComplete, statusFromFrames } from './zpl/hoststatus';
import { StatusEnded, type Transport } from './transports/transport';
import type { LabelPrinter, PrintOptions, PrintResult, PrinterEvent, PrinterStatus } from './types';

/** Default time the device stays claimed after the last job or status query, ms. */
const DEFAULT_IDLE_RELEASE_MS = 2000;

/** A label printer reached through a transport. Create with `openPrinter`. */
export class TransportPrinter implements LabelPrinter {
  readonly uri: string;
  private chain: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * @param transport the device's transport (the printer owns it: {@link close} disposes of it)
   * @param timeoutMs how long a status answer may take, ms
   * @param idleMs how long a transport with `release: 'idle'` stays open after the last use, ms
   */
  constructor(
    private readonly transport: Transport,
    private readonly timeoutMs: number,
    private readonly idleMs = DEFAULT_IDLE_RELEASE_MS,
  ) {
    this.uri = transport.uri;
  }

  // One job or status query at a time, in call order (a status query must not interleave with a job).
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.chain.then(fn, fn);
    this.chain = p.catch(() => undefined);
    return p;
  }

  private busy(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  // After a job or status query: hang up now (`each`), or release once idle (`idle`).
  private async done(): Promise<void> {
    this.busy();
    if (this.transport.release === 'each') {
      await this.transport.close().catch(() => undefined);
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      void this.run(() => this.transport.close()).catch(() => undefined);
    }, this.idleMs);
    this.idleTimer.unref?.();
  }

  /**
   * Opens the device and writes `zpl`; resolves once the last byte was taken (the transport's
   * write). `durationMs` covers open + write (for a folder: the .zpl and its PNG previews).
   * @throws PrinterError from the transport (`delivered` says whether anything went out);
   *   `printer_error` (delivered `none`) once the printer was closed
   * @throws the signal's reason when `opts.signal` aborts first
   * @throws TypeError when `zpl` is not a Uint8Array
   */
  print(zpl: Uint8Array, opts: PrintOptions = {}): Promise<PrintResult> {
    if (!(zpl instanceof Uint8Array)) return Promise.reject(new TypeError('print(zpl): zpl must be a Uint8Array of ZPL bytes'));
    return this.run(async () => {
      if (this.closed) throw printerFailure('printer_error', 'printerClosed', { where: this.uri }, { delivered: 'none' });
      opts.signal?.throwIfAborted();
      this.busy();
      const t0 = performance.now();
      try {
        await this.transport.open(opts.signal);
        const written = await this.transport.write(zpl, opts);
        return { ...written, durationMs: performance.now() - t0 };
      } catch (e) {
        // A failed device is released at once: the next attempt starts clean.
        await this.transport.close().catch(() => undefined);
        throw e;
      } finally {
        await this.done();
      }
    });
  }

  /**
   * `~HQES~HS` over the transport, or the transport's own status when it has no way back from
   * the device. Not reachable: `unreachable`; no permission: `error` with code
   * `printer_permission`; no complete answer within the timeout: `unknown` (not every printer
   * answers). Never throws.
   */
  status(): Promise<PrinterStatus> {
    return this.run(async (): Promise<PrinterStatus> => {
      if (this.closed) return { state: 'error', detail: `Printer ${this.uri} was closed`, code: 'printer_error' };
      const t = this.transport;
      if (!t.read) return t.ownStatus ? t.ownStatus() : { state: 'unknown', detail: `${t.name} cannot report its status` };
      this.busy();
      try {
        await t.open();
        await t.write(new TextEncoder().encode(STATUS_QUERY));
        const bytes = await t.read((b) => isStatusComplete(hostStatusFrames(latin1(b))), this.timeoutMs);
        const frames = hostStatusFrames(latin1(bytes));
        if (!isStatusComplete(frames)) {
          return {
            state: 'unknown',
            detail: bytes.length ? `Incomplete answer to ~HS from ${t.name} within ${this.timeoutMs} ms` : `${t.name} did not answer ~HS within ${this.timeoutMs} ms (status unknown)`,
          };
        }
        try {
          return statusFromFrames(frames);
        } catch (e) {
          return { state: 'unknown', detail: `Unexpected answer to ~HS from ${t.name}: ${e instanceof Error ? e.message : String(e)}` };
        }
      } catch (e) {
        await t.close().catch(() => undefined);
        if (e instanceof StatusEnded) return e.status;
        return openFailure(e);
      } finally {
        await this.done();
      }
    });
  }

  /** `attached` / `detached` from the transport (USB hot-plug); a transport without hot-plug never calls the listener. */
  on(event: PrinterEvent, listener: () => void): () => void {
    return this.transport.on ? this.transport.on(event, listener) : () => undefined;
  }

  /** Releases the device and stops hot-plug watching; later calls fail with `printer_error`. */
  async close(): Promise<void> {
    this.closed = true;
    this.busy();
    await this.run(() => this.transport.dispose()).catch(() => undefined);
  }
}

/**
 * The status of a printer that could not be asked: `unreachable` (not there, or no connection in
 * time), `error` with code `printer_permission` (this user may not open it), else `error`.
 */
function openFailure(e: unknown): PrinterStatus {
  const err = e instanceof PrinterError ? e : new PrinterError('printer_error', String(e));
  const text = err.text ? { detailText: err.text } : {};
  if (err.code === 'printer_permission') return { state: 'error', detail: err.message, code: 'printer_permission' };
  if (err.code === 'printer_unreachable' || err.code === 'printer_timeout') return { state: 'unreachable', detail: err.message, ...text };
  return { state: 'error', detail: err.message, ...text };
}

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}
