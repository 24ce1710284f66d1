/**
 * Raw TCP printing (`socket://host:9100`) as a {@link Transport}: the bytes
 * of a job are written on a fresh connection per job, as CUPS' socket backend
 * does, and the status request and its answer go over a connection of their
 * own (the label printer closes each after use: `release: 'each'`).
 */
import net from 'node:net';
import { PrinterError, printerFailure } from '../errors';
import type { PrintOptions, PrinterStatus } from '../types';
import { StatusEnded, type Transport, type TransportWrite } from './transport';
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

/** A printer reached over raw TCP, as a {@link Transport}. */
export class SocketTransport implements Transport {
  readonly uri: string;
  /** `host:port` (`[v6]:port`), as the messages name the printer. */
  readonly name: string;
  readonly release = 'each' as const;
  private readonly sockets = new Set<net.Socket>();
  /** The connection of the job or status query under way. */
  private socket: net.Socket | undefined;
  private disposed = false;

  constructor(
    private readonly dev: Extract<DeviceUri, { scheme: 'socket' }>,
    private readonly timeoutMs: number,
  ) {
    this.uri = dev.uri;
    this.name = `${dev.host.includes(':') ? `[${dev.host}]` : dev.host}:${dev.port}`;
  }

  /**
   * Connects (a new connection; one of a job or status query before is hung up first).
   * @throws PrinterError `printer_unreachable` (refused, no route, unknown host), `printer_timeout`
   *   (no connection within the timeout), `printer_error`; delivered `none`
   * @throws the signal's reason when `signal` aborts first
   */
  async open(signal?: AbortSignal): Promise<void> {
    if (this.socket) await this.close();
    this.socket = await this.connect(signal);
  }

  private connect(signal?: AbortSignal): Promise<net.Socket> {
    const where = this.name;
    return new Promise((resolve, reject) => {
      if (this.disposed) return reject(printerFailure('printer_error', 'printerClosed', { where }, { delivered: 'none' }));
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
      const onError = (e: Error): void => fail(socketError(e, where, 'connecting'));
      const onAbort = (): void => fail(signal?.reason);
      const timer = setTimeout(() => fail(printerFailure('printer_timeout', 'socketNoConnection', { where, ms: this.timeoutMs }, { delivered: 'none' })), this.timeoutMs);
      socket.once('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        cleanup();
        resolve(socket);
      });
    });
  }

  /**
   * Writes `bytes` on the open connection and resolves once the last byte has been flushed to the
   * socket (write callback).
   * @throws PrinterError `printer_timeout` (the printer took no data for the timeout), `printer_error`
   *   (connection dropped mid-job), `printer_unreachable`; delivered `partial` (`none` when not open)
   * @throws the signal's reason when `job.signal` aborts first
   */
  write(bytes: Uint8Array, job: PrintOptions = {}): Promise<TransportWrite> {
    const socket = this.socket;
    const where = this.name;
    if (!socket) return Promise.reject(printerFailure('printer_error', 'printerClosed', { where }, { delivered: 'none' }));
    const signal = job.signal;
    return new Promise<TransportWrite>((resolve, reject) => {
      let settled = false;
      const finish = (err?: unknown): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        socket.removeListener('error', onError);
        socket.removeListener('close', onClose);
        socket.setTimeout(0);
        if (err === undefined) return resolve({ bytesWritten: bytes.byteLength });
        socket.destroy();
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      const onAbort = (): void => finish(signal?.reason);
      const onError = (e: Error): void => finish(socketError(e, where, 'sending'));
      const onClose = (): void => finish(printerFailure('printer_error', 'socketClosedEarly', { where }, { delivered: 'partial' }));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.setTimeout(this.timeoutMs, () =>
        finish(printerFailure('printer_timeout', 'socketNoData', { where, ms: this.timeoutMs, sent: socket.bytesWritten, total: bytes.byteLength }, { delivered: 'partial' })),
      );
      socket.on('error', onError);
      socket.on('close', onClose);
      socket.write(bytes, (err) => finish(err ? socketError(err, where, 'sending') : undefined));
    });
  }

  /**
   * Reads the printer's answer on the open connection until `complete` or `timeoutMs`.
   * @throws StatusEnded `unknown` when the printer answered nothing within the timeout (it accepted
   *   the connection: not a ZPL printer, or busy), hung up without answering, or sent more than
   *   {@link MAX_STATUS_BYTES} without the status strings; `unreachable` when the connection broke
   */
  read(complete: (bytes: Uint8Array) => boolean, timeoutMs: number): Promise<Uint8Array> {
    const socket = this.socket;
    const where = this.name;
    if (!socket) return Promise.reject(printerFailure('printer_error', 'printerClosed', { where }, { delivered: 'none' }));
    return new Promise<Uint8Array>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const settle = (): void => {
        settled = true;
        clearTimeout(timer);
        socket.removeListener('data', onData);
        socket.removeListener('error', onError);
        socket.removeListener('end', onEnd);
      };
      const all = (): Buffer => Buffer.concat(chunks);
      const done = (): void => {
        if (settled) return;
        settle();
        resolve(all());
      };
      const end = (status: PrinterStatus): void => {
        if (settled) return;
        settle();
        reject(new StatusEnded(status));
      };
      const timer = setTimeout(() => {
        if (size > 0) return done();
        end({ state: 'unknown', detail: `Printer ${where} accepted the connection but did not answer ~HS within ${timeoutMs} ms (not a ZPL printer, or busy)` });
      }, timeoutMs);
      const onData = (chunk: Buffer): void => {
        chunks.push(chunk);
        size += chunk.length;
        if (complete(all())) done();
        else if (size > MAX_STATUS_BYTES) end({ state: 'unknown', detail: `Unexpected answer to ~HS from ${where} (no status strings in ${size} bytes)` });
      };
      const onError = (e: Error): void => {
        const err = socketError(e, where, 'sending');
        end({ state: 'unreachable', detail: err.message, ...(err.text ? { detailText: err.text } : {}) });
      };
      const onEnd = (): void => end({ state: 'unknown', detail: `Printer ${where} closed the connection without answering ~HS` });
      socket.on('data', onData);
      socket.on('error', onError);
      socket.on('end', onEnd);
    });
  }

  /** Hangs up the connection under way: ends our side gracefully, drains what the printer sends, destroys it if the printer never closes its side. */
  close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket || socket.destroyed) return Promise.resolve();
    socket.setTimeout(0);
    socket.removeAllListeners('data');
    socket.on('error', () => undefined);
    socket.resume();
    socket.end();
    const t = setTimeout(() => socket.destroy(), this.timeoutMs);
    t.unref();
    socket.once('close', () => clearTimeout(t));
    return Promise.resolve();
  }

  /** Destroys every open connection; later opens fail with `printer_error`. */
  dispose(): Promise<void> {
    this.disposed = true;
    this.socket = undefined;
    for (const s of this.sockets) s.destroy();
    return Promise.resolve();
  }
}
