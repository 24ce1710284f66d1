/**
 * The one small transport interface every device is reached through
 * (DESIGN.md "Devices": open, write bytes, read a status reply, close,
 * `attached` / `detached` events). Transports know nothing of ZPL: the label
 * printer ({@link ./zpl-printer}) and, later, the ESC/POS packing-slip printer
 * put their own bytes through them.
 */

/** Events of a transport whose device can come and go (USB hot-plug). */
export type TransportEvent = 'attached' | 'detached';

/** A byte pipe to one device. Calls are not concurrent: the caller serialises them. */
export interface Transport {
  /** The device URI, trimmed. */
  readonly uri: string;
  /** Short human name, e.g. "USB printer Zebra ZD421 (D2J193601234)". */
  readonly name: string;
  /**
   * Finds and claims the device (no-op when already open).
   * @throws PrinterError (`printer_unreachable` not attached, `printer_permission`, `printer_error` busy), delivered `none`
   */
  open(): Promise<void>;
  /**
   * Writes all of `bytes` (in chunks, each bounded by the transport's timeout).
   * Resolves with the byte count.
   * @throws PrinterError with `delivered` `none` (nothing went out) or `partial`
   */
  write(bytes: Uint8Array, signal?: AbortSignal): Promise<number>;
  /**
   * Reads until `complete(bytesSoFar)` is true or `timeoutMs` passes.
   * Resolves with the bytes read (possibly incomplete or empty on timeout).
   * @throws PrinterError when the device is gone or the read channel fails
   */
  read(complete: (bytes: Uint8Array) => boolean, timeoutMs: number): Promise<Uint8Array>;
  /** Releases the device (re-attaching a kernel driver it detached); safe to call twice. */
  close(): Promise<void>;
  /** `attached` / `detached` when the device comes or goes; returns the unsubscribe. */
  on(event: TransportEvent, listener: () => void): () => void;
  /** Stops watching for hot-plug and releases the device for good. */
  dispose(): Promise<void>;
}
