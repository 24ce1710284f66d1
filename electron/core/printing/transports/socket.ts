/**
 * Raw TCP printing (`socket://host:9100`): the ZPL bytes are written on a
 * fresh connection per job, as CUPS' socket backend does, and status is read
 * with `~HS` on its own connection.
 */
import net from 'node:net';
import { PrinterError, printerFailure } from '../errors';
import { STATUS_QUERY, hostStatusFrames, isStatusComplete, statusFromFrames } from '../zpl/hoststatus';
import type { LabelPrinter, PrintOptions, PrintResult, PrinterStatus } from '../types';
import type { DeviceUri } from './uri';

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EADDRNOTAVAIL', 'ENETDOWN']);

// Most an answer to ~HS may grow before we give up on finding its strings.
const MAX_STATUS_BYTES = 64 * 1024;

/**
 * Maps a socket error to a PrinterError naming the printer and the step.
 * `delivered` is `none` while connecting (nothing reached the printer) and
 * `partial` while sending (some bytes may have).
 */
function socketError(e: unknown, where: string, step: 'connecting' | 'sending'): PrinterError {
  const code = (e as NodeJS.ErrnoException | null)?.code ?? '';
  const msg = e instanceof Error ? e.message : String(e);
  const o = { cause: e, delivered: step === 'connecting' ? ('none' as const) : ('partial' as const) };
  const during = step === 'connecting' ? 'Connecting' : 'Sending';
  if (code === 'ECONNREFUSED') return printerFailure('printer_unreachable', 'socketRefused', { where }, o);
  if (UNREACHABLE.has(code)) return printerFailure('printer_unreachable', `socketUnreachable${during}`, { where, code }, o);
  if (code === 'ETIMEDOUT') return printerFailure('printer_timeout', `socketTimedOut${during}`, { where, code }, o);
  if (code === 'ECONNRESET' || code === 'EPIPE') return printerFailure('printer_error', `socketDropped${during}`, { where, code }, o);
  return printerFailure('printer_error', `socketFailed${during}`, { where, reason: msg }, o);
}

/** A ZPL printer reached over raw TCP. Create with {@link openPrinter}. */
export class SocketPrinter implements LabelPrinter {
  readonly uri: string;
  private readonly where: string;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly sockets = new Set<net.Socket>();
  private closed = false;

  constructor(
    private readonly dev: Extract<DeviceUri, { scheme: 'socket' }>,
    private readonly timeoutMs: number,
  ) {
    this.uri = dev.uri;
    this.where = `${dev.host.includes(':') ? `[${dev.host}]` : dev.host}:${dev.port}`;
  }

  // One job or status query at a time, in call order: a printer port takes
  // one connection at a time, and status must not interleave with a job.
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.chain.then(fn, fn);
    this.chain = p.catch(() => undefined);
    return p;
  }

  private connect(signal?: AbortSignal): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(printerFailure('printer_error', 'printerClosed', { where: this.where }, { delivered: 'none' }));
      if (signal?.aborted) return reject(signal.reason as Error);
      const socket = net.connect({ host: this.dev.host, port: this.dev.port, noDelay: true });
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      const cleanup = (): void => {
        clearTimeout(timer);
        socket.removeListener('error', onError);
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (err: unknown): void => {
        cleanup();
        socket.destroy();
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      const onError = (e: Error): void => fail(socketError(e, this.where, 'connecting'));
      const onAbort = (): void => fail(signal?.reason);
      const timer = setTimeout(() => fail(printerFailure('printer_timeout', 'socketNoConnection', { where: this.where, ms: this.timeoutMs }, { delivered: 'none' })), this.timeoutMs);
      socket.once('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        cleanup();
        resolve(socket);
      });
    });
  }

  // Ends our side gracefully; drains whatever the printer sends and destroys
  // the socket if the printer never closes its side.
  private hangUp(socket: net.Socket): void {
    socket.setTimeout(0);
    socket.removeAllListeners('data');
    socket.on('error', () => undefined);
    socket.resume();
    socket.end();
    const t = setTimeout(() => socket.destroy(), this.timeoutMs);
    t.unref();
    socket.once('close', () => clearTimeout(t));
  }

  /**
   * Sends `zpl` on a new connection and resolves once the last byte has been
   * flushed to the socket (write callback), then ends the connection.
   * `durationMs` covers connect + write.
   *
   * @throws PrinterError `printer_unreachable` (refused, no route, unknown host),
   *   `printer_timeout` (no connection, or the printer took no data for `timeoutMs`),
   *   `printer_error` (connection dropped mid-job, printer closed)
   * @throws the signal's reason when `opts.signal` aborts first
   */
  print(zpl: Uint8Array, opts: PrintOptions = {}): Promise<PrintResult> {
    if (!(zpl instanceof Uint8Array)) return Promise.reject(new TypeError('print(zpl): zpl must be a Uint8Array of ZPL bytes'));
    return this.run(async () => {
      const t0 = performance.now();
      const socket = await this.connect(opts.signal);
      const signal = opts.signal;
      await new Promise<void>((resolve, reject) => {
        let settled = false;
        const finish = (err?: unknown): void => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          socket.removeListener('error', onError);
          socket.removeListener('close', onClose);
          if (err === undefined) return resolve();
          socket.destroy();
          reject(err instanceof Error ? err : new Error(String(err)));
        };
        const onAbort = (): void => finish(signal?.reason);
        const onError = (e: Error): void => finish(socketError(e, this.where, 'sending'));
        const onClose = (): void => finish(printerFailure('printer_error', 'socketClosedEarly', { where: this.where }, { delivered: 'partial' }));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        socket.setTimeout(this.timeoutMs, () =>
          finish(
            printerFailure('printer_timeout', 'socketNoData', { where: this.where, ms: this.timeoutMs, sent: socket.bytesWritten, total: zpl.byteLength }, { delivered: 'partial' }),
          ),
        );
        socket.on('error', onError);
        socket.on('close', onClose);
        socket.write(zpl, (err) => finish(err ? socketError(err, this.where, 'sending') : undefined));
      });
      const durationMs = performance.now() - t0;
      this.hangUp(socket);
      return { bytesWritten: zpl.byteLength, durationMs };
    });
  }

  /**
   * Sends `~HQES~HS` and decodes the answer ({@link statusFromFrames}; a printer
   * that ignores `~HQES` answers `~HS` alone). No connection:
   * `unreachable`; connected but no complete answer within `timeoutMs`, or an
   * answer that is not `~HS`: `unknown` (the printer does not tell; jobs are
   * sent as before, see DESIGN.md "no answer is status unknown"). Never throws.
   */
  status(): Promise<PrinterStatus> {
    return this.run(async (): Promise<PrinterStatus> => {
      let socket: net.Socket;
      try {
        socket = await this.connect();
      } catch (e) {
        return { state: 'unreachable', detail: e instanceof Error ? e.message : String(e), ...(e instanceof PrinterError && e.text ? { detailText: e.text } : {}) };
      }
      return new Promise<PrinterStatus>((resolve) => {
        let text = '';
        let settled = false;
        const done = (s: PrinterStatus): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          socket.removeAllListeners('end');
          this.hangUp(socket);
          resolve(s);
        };
        const timer = setTimeout(
          () =>
            done({
              state: 'unknown',
              detail: text
                ? `Incomplete answer to ~HS from ${this.where} within ${this.timeoutMs} ms`
                : `Printer ${this.where} accepted the connection but did not answer ~HS within ${this.timeoutMs} ms (not a ZPL printer, or busy)`,
            }),
          this.timeoutMs,
        );
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1');
          const frames = hostStatusFrames(text);
          if (isStatusComplete(frames)) {
            try {
              done(statusFromFrames(frames));
            } catch (e) {
              done({ state: 'unknown', detail: `Unexpected answer to ~HS from ${this.where}: ${e instanceof Error ? e.message : String(e)}` });
            }
          } else if (text.length > MAX_STATUS_BYTES) {
            done({ state: 'unknown', detail: `Unexpected answer to ~HS from ${this.where} (no status strings in ${text.length} bytes)` });
          }
        });
        socket.on('error', (e) => {
          const err = socketError(e, this.where, 'sending');
          done({ state: 'unreachable', detail: err.message, ...(err.text ? { detailText: err.text } : {}) });
        });
        socket.on('end', () => done({ state: 'unknown', detail: `Printer ${this.where} closed the connection without answering ~HS` }));
        socket.write(STATUS_QUERY);
      });
    });
  }

  /** Destroys open connections; later calls fail with `printer_error`. */
  close(): Promise<void> {
    this.closed = true;
    for (const s of this.sockets) s.destroy();
    return Promise.resolve();
  }
}
