/**
 * A ZPL label printer over any {@link Transport} (USB today): jobs are the
 * bytes written as they are; status is `~HQES~HS` written and the answer
 * read back (bulk IN on USB) until the three `~HS` strings are in. The device
 * is claimed for a job or a status query and released after `idleMs` without
 * use, so another program (a vendor tool, CUPS) can use the printer meanwhile.
 */
import { PrinterError, printerFailure } from './errors';
import { STATUS_QUERY, hostStatusFrames, isStatusComplete, statusFromFrames } from './zpl/hoststatus';
import type { Transport } from './transports/transport';
import type { LabelPrinter, PrintOptions, PrintResult, PrinterEvent, PrinterStatus } from './types';

/** Default time the device stays claimed after the last job or status query, ms. */
const DEFAULT_IDLE_RELEASE_MS = 2000;

/** A label printer reached through a transport. Create with `openPrinter`. */
export class TransportPrinter implements LabelPrinter {
  readonly uri: string;
  private chain: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

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

  private idle(): void {
    this.busy();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      void this.run(() => this.transport.close()).catch(() => undefined);
    }, this.idleMs);
    this.idleTimer.unref?.();
  }

  /**
   * Claims the device and writes `zpl`; resolves once the last chunk was
   * accepted by the device.
   * @throws PrinterError from the transport (`delivered` says whether anything went out)
   */
  print(zpl: Uint8Array, opts: PrintOptions = {}): Promise<PrintResult> {
    if (!(zpl instanceof Uint8Array)) return Promise.reject(new TypeError('print(zpl): zpl must be a Uint8Array of ZPL bytes'));
    return this.run(async () => {
      if (this.closed) throw printerFailure('printer_error', 'printerClosed', { where: this.uri }, { delivered: 'none' });
      opts.signal?.throwIfAborted();
      this.busy();
      const t0 = performance.now();
      try {
        await this.transport.open();
        const n = await this.transport.write(zpl, opts.signal);
        return { bytesWritten: n, durationMs: performance.now() - t0 };
      } catch (e) {
        // A failed device is released at once: the next attempt starts clean.
        await this.transport.close().catch(() => undefined);
        throw e;
      } finally {
        this.idle();
      }
    });
  }

  /**
   * `~HQES~HS` over the transport. Not attached: `unreachable`; no permission:
   * `error` with code `printer_permission`; no complete answer within the
   * timeout: `unknown` (not every printer answers on its IN endpoint). Never throws.
   */
  status(): Promise<PrinterStatus> {
    return this.run(async (): Promise<PrinterStatus> => {
      if (this.closed) return { state: 'error', detail: `Printer ${this.uri} was closed`, code: 'printer_error' };
      this.busy();
      try {
        await this.transport.open();
        await this.transport.write(new TextEncoder().encode(STATUS_QUERY));
        const bytes = await this.transport.read((b) => isStatusComplete(hostStatusFrames(latin1(b))), this.timeoutMs);
        const frames = hostStatusFrames(latin1(bytes));
        if (!isStatusComplete(frames)) {
          return {
            state: 'unknown',
            detail: bytes.length
              ? `Incomplete answer to ~HS from ${this.transport.name} within ${this.timeoutMs} ms`
              : `${this.transport.name} did not answer ~HS within ${this.timeoutMs} ms (status unknown)`,
          };
        }
        try {
          return statusFromFrames(frames);
        } catch (e) {
          return { state: 'unknown', detail: `Unexpected answer to ~HS from ${this.transport.name}: ${e instanceof Error ? e.message : String(e)}` };
        }
      } catch (e) {
        await this.transport.close().catch(() => undefined);
        const err = e instanceof PrinterError ? e : new PrinterError('printer_error', String(e));
        if (err.code === 'printer_permission') return { state: 'error', detail: err.message, code: 'printer_permission' };
        if (err.code === 'printer_unreachable') return { state: 'unreachable', detail: err.message };
        return { state: 'error', detail: err.message };
      } finally {
        this.idle();
      }
    });
  }

  /** `attached` / `detached` from the transport (USB hot-plug). */
  on(event: PrinterEvent, listener: () => void): () => void {
    return this.transport.on(event, listener);
  }

  /** Releases the device and stops hot-plug watching; later calls fail with `printer_error`. */
  async close(): Promise<void> {
    this.closed = true;
    this.busy();
    await this.run(() => this.transport.dispose()).catch(() => undefined);
  }
}

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}
