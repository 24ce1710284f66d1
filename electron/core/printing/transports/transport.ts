/**
 * The one small transport interface every device is reached through
 * (DESIGN.md "Devices": open, write bytes, read a status reply, close,
 * `attached` / `detached` events): raw TCP (socket.ts), USB (usb.ts), an OS
 * print queue (os-spooler.ts), a folder (file.ts). Transports know nothing of
 * ZPL: the one label printer on top of them (../label-printer.ts) writes the
 * job's bytes and its `~HQES~HS` status request through them.
 *
 * Not every transport has a way back from the device: a print queue and a
 * folder cannot carry the printer's answer. They say so by having no
 * {@link Transport.read} and say what they know themselves with
 * {@link Transport.ownStatus} instead (the spooler's queue state, a writable folder).
 */
import type { PrintOptions, PrintResult, PrinterStatus } from '../types';

/** Events of a transport whose device can come and go (USB hot-plug). */
export type TransportEvent = 'attached' | 'detached';

/** What one job's write did: the bytes taken and, for a folder, the files written (see {@link PrintResult}). */
export type TransportWrite = Omit<PrintResult, 'durationMs'>;

/**
 * The device ended a status exchange in a way only the transport can word (a printer that hung up
 * without answering, an answer that never holds the status strings, a broken connection): `status`
 * is what the label printer reports, as it is.
 */
export class StatusEnded extends Error {
  constructor(readonly status: PrinterStatus) {
    super(status.detail);
    this.name = 'StatusEnded';
  }
}

/** A byte pipe to one device. Calls are not concurrent: the label printer serialises them. */
export interface Transport {
  /** The device URI, trimmed. */
  readonly uri: string;
  /** Short human name the status messages use, e.g. "USB printer Zebra ZD421 (D2J193601234)", "10.0.0.5:9100". */
  readonly name: string;
  /**
   * When the label printer releases the device: `each` after every job and status query (a raw TCP
   * port takes one connection at a time; queues and folders hold nothing), `idle` once it has not
   * been used for a while (USB: the claim is kept between jobs, then given back to other programs).
   */
  readonly release: 'each' | 'idle';
  /**
   * Reaches the device: connects, or finds and claims it (no-op when already open, or when there is
   * nothing to open).
   * @throws PrinterError (`printer_unreachable`, `printer_timeout`, `printer_permission`, `printer_error`), delivered `none`
   * @throws the signal's reason when `signal` aborts first
   */
  open(signal?: AbortSignal): Promise<void>;
  /**
   * Writes all of `bytes` (each step bounded by the transport's timeout); resolves once the device
   * (or the spooler, or the file system) took the last byte. `job` names the job and what the bytes are.
   * @throws PrinterError with `delivered` `none` (nothing went out) or `partial`
   */
  write(bytes: Uint8Array, job?: PrintOptions): Promise<TransportWrite>;
  /**
   * Reads the device's answer until `complete(bytesSoFar)` is true or `timeoutMs` passes.
   * Resolves with the bytes read (possibly incomplete or empty on timeout). Absent when the
   * transport has no way back from the device: then {@link ownStatus} is there.
   * @throws StatusEnded when the transport words the end itself
   * @throws PrinterError when the device is gone or the read channel fails
   */
  read?(complete: (bytes: Uint8Array) => boolean, timeoutMs: number): Promise<Uint8Array>;
  /**
   * The printer's condition as the transport knows it without asking the device (an OS queue: the
   * spooler's state; a folder: whether it can be written). Present exactly when {@link read} is absent. Never throws.
   */
  ownStatus?(): Promise<PrinterStatus>;
  /** Releases the device (hangs up, re-attaches a kernel driver it detached); safe to call twice. */
  close(): Promise<void>;
  /** `attached` / `detached` when the device comes or goes (USB); returns the unsubscribe. Absent: no hot-plug. */
  on?(event: TransportEvent, listener: () => void): () => void;
  /** Stops watching for hot-plug and releases the device for good. */
  dispose(): Promise<void>;
}
