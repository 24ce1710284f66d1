/**
 * USB printers (`usb://Make/Model?serial=…`, `usb://vid:pid?serial=…`) over
 * the `usb` package (v2, libusb; passed in as a parameter so tests inject a
 * fake device with the same interface). USB Printer Class 1.1:
 *
 * - the printer-class interface (bInterfaceClass 7) is claimed, with its bulk
 *   OUT endpoint (jobs) and bulk IN endpoint (status answers; bidirectional
 *   printers, protocol 2);
 * - on Linux the `usblp` kernel driver is detached before claiming and
 *   re-attached on release, so /dev/usb/lp0 and CUPS work again afterwards;
 * - jobs go out in {@link USB_CHUNK_BYTES} chunks, each with the timeout;
 * - make and model are matched against the IEEE 1284 device ID (class request
 *   GET_DEVICE_ID, the MFG:/MDL: fields CUPS puts into its usb:// URIs), then
 *   against the USB manufacturer/product strings; `serial=` against the USB
 *   serial number string;
 * - `attach` / `detach` of the library drive the `attached` / `detached` events.
 */
import { PrinterError, printerFailure } from '../errors';
import type { PrintOptions } from '../types';
import type { Transport, TransportEvent, TransportWrite } from './transport';
import { LIBUSB, hex4, usbErrorCode, printerInterfaceNumber, isUsbPrinter, stringDescriptor, describeUsbPrinter, usbMatches, where, permissionHint, type UsbOutEndpointLike, type UsbInEndpointLike, type UsbInterfaceLike, type UsbDeviceLike, type UsbLibrary, type UsbPrinterInfo, type UsbDev } from './usb-device';

/** Bytes per bulk OUT transfer. */
export const USB_CHUNK_BYTES = 16 * 1024;
/** Bytes asked per bulk IN transfer (a multiple of 64-byte full-speed packets; short packets end a transfer). */
const USB_READ_BYTES = 512;

/** Options of {@link UsbTransport}. */
export interface UsbTransportOptions {
  /** Per-transfer timeout, ms. */
  timeoutMs: number;
  /** Platform whose kernel driver is detached (default `process.platform`; only `linux` detaches). */
  platform?: NodeJS.Platform;
}

/** A USB printer-class device as a {@link Transport}. */
export class UsbTransport implements Transport {
  readonly uri: string;
  readonly name: string;
  readonly release = 'idle' as const;
  private device: UsbDeviceLike | undefined;
  private iface: UsbInterfaceLike | undefined;
  private out: UsbOutEndpointLike | undefined;
  private in: UsbInEndpointLike | undefined;
  private detached = false;
  /** Identity of the matched device, for hot-plug: bus/address of the one we saw. */
  private seen: { bus: number; address: number } | undefined;
  private readonly listeners = new Map<TransportEvent, Set<() => void>>();
  private readonly onAttach = (d: UsbDeviceLike): void => void this.attachCheck(d);
  private readonly onDetach = (d: UsbDeviceLike): void => this.detachCheck(d);
  private watching = false;

  constructor(
    private readonly lib: UsbLibrary,
    private readonly dev: UsbDev,
    private readonly opts: UsbTransportOptions,
  ) {
    this.uri = dev.uri;
    this.name = dev.make ? `USB printer ${dev.make} ${dev.model ?? ''}`.trim() : `USB printer ${hex4(dev.vendorId ?? 0)}:${hex4(dev.productId ?? 0)}`;
    if (dev.serial) this.name += ` (${dev.serial})`;
  }

  private finding: Promise<unknown> = Promise.resolve();

  // One search or plug-in check at a time: each opens and closes candidate devices, and two at once
  // would close each other's.
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const p = this.finding.then(work);
    this.finding = p.catch(() => undefined);
    return p;
  }

  private find(): Promise<UsbDeviceLike | undefined> {
    return this.serialised(() => this.findNow());
  }

  /** Detach events seen, counted, and the count at the last detach of each bus/address (hot-plug ordering). */
  private detachCount = 0;
  private readonly lastDetachAt = new Map<string, number>();

  private async findNow(): Promise<UsbDeviceLike | undefined> {
    let denied: { d: UsbDeviceLike; e: unknown } | undefined;
    for (const d of this.lib.getDeviceList()) {
      const { idVendor, idProduct } = d.deviceDescriptor;
      if (this.dev.vendorId !== undefined && (idVendor !== this.dev.vendorId || idProduct !== this.dev.productId)) continue;
      if (printerInterfaceNumber(d, this.dev.interface) === undefined) continue;
      if (this.dev.vendorId !== undefined && this.dev.serial === undefined) return d;
      let info: UsbPrinterInfo;
      try {
        d.open();
      } catch (e) {
        denied ??= { d, e };
        continue;
      }
      try {
        info = await describeUsbPrinter(d, false);
        const strings = {
          manufacturer: await stringDescriptor(d, d.deviceDescriptor.iManufacturer),
          product: await stringDescriptor(d, d.deviceDescriptor.iProduct),
        };
        if (usbMatches(this.dev, info, strings)) return d;
      } finally {
        try {
          d.close();
        } catch {
          // gone
        }
      }
    }
    if (denied) throw new PrinterError('printer_permission', permissionHint(denied.d, denied.e), { cause: denied.e, delivered: 'none' });
    return undefined;
  }

  /**
   * Finds the device, detaches `usblp` (Linux), claims the printer interface.
   * @throws PrinterError `printer_unreachable` (not attached), `printer_permission` (udev rule missing; the
   *   message names the device and the fix), `printer_error` (busy: another program holds it; no bulk OUT)
   */
  async open(): Promise<void> {
    if (this.iface) return;
    const d = await this.find();
    if (!d) throw printerFailure('printer_unreachable', 'usbNotConnected', { name: this.name, uri: this.uri }, { delivered: 'none' });
    try {
      d.open();
    } catch (e) {
      if (usbErrorCode(e) === LIBUSB.ERROR_ACCESS) throw new PrinterError('printer_permission', permissionHint(d, e), { cause: e, delivered: 'none' });
      if (usbErrorCode(e) === LIBUSB.ERROR_NO_DEVICE) throw printerFailure('printer_unreachable', 'usbUnplugged', { name: this.name }, { cause: e, delivered: 'none' });
      throw printerFailure('printer_error', 'usbCannotOpen', { name: this.name, where: where(d), reason: e instanceof Error ? e.message : String(e) }, { cause: e, delivered: 'none' });
    }
    const n = printerInterfaceNumber(d, this.dev.interface) ?? 0;
    const iface = d.interface(n);
    try {
      if ((this.opts.platform ?? process.platform) === 'linux' && iface.isKernelDriverActive()) {
        iface.detachKernelDriver();
        this.detached = true;
      }
      iface.claim();
    } catch (e) {
      this.reattach(iface);
      try {
        d.close();
      } catch {
        // gone
      }
      const code = usbErrorCode(e);
      if (code === LIBUSB.ERROR_ACCESS) throw new PrinterError('printer_permission', permissionHint(d, e), { cause: e, delivered: 'none' });
      const o = { cause: e, delivered: 'none' as const };
      if (code === LIBUSB.ERROR_BUSY) throw printerFailure('printer_error', 'usbBusy', { name: this.name, where: where(d) }, o);
      throw printerFailure('printer_error', 'usbCannotClaim', { name: this.name, where: where(d), reason: e instanceof Error ? e.message : String(e) }, o);
    }
    const bulk = iface.endpoints.filter((ep) => ep.transferType === LIBUSB.TRANSFER_TYPE_BULK);
    const out = bulk.find((ep) => ep.direction === 'out') as UsbOutEndpointLike | undefined;
    if (!out) {
      await this.releaseOn(d, iface);
      throw printerFailure('printer_error', 'usbNoBulkOut', { name: this.name }, { delivered: 'none' });
    }
    this.device = d;
    this.iface = iface;
    this.out = out;
    this.in = bulk.find((ep) => ep.direction === 'in') as UsbInEndpointLike | undefined;
    this.seen = { bus: d.busNumber, address: d.deviceAddress };
  }

  private transferError(e: unknown, written: number, total: number): PrinterError {
    const code = usbErrorCode(e);
    const delivered = written > 0 ? ('partial' as const) : ('none' as const);
    const of = { name: this.name, sent: written, total };
    const o = { cause: e, delivered };
    if (code === LIBUSB.TRANSFER_NO_DEVICE || code === LIBUSB.ERROR_NO_DEVICE) return printerFailure('printer_unreachable', 'usbUnpluggedDuringJob', of, o);
    if (code === LIBUSB.TRANSFER_TIMED_OUT || code === LIBUSB.ERROR_TIMEOUT) return printerFailure('printer_timeout', 'usbNoData', { ...of, ms: this.opts.timeoutMs }, o);
    if (code === LIBUSB.TRANSFER_STALL || code === LIBUSB.ERROR_PIPE) return printerFailure('printer_error', 'usbStalled', of, o);
    return printerFailure('printer_error', 'usbFailedDuringJob', { ...of, reason: e instanceof Error ? e.message : String(e) }, o);
  }

  /**
   * Writes `bytes` in {@link USB_CHUNK_BYTES} chunks, each bounded by the timeout.
   * A stall clears the endpoint halt before failing.
   * @throws PrinterError (`delivered` counts the bytes the device acknowledged)
   */
  async write(bytes: Uint8Array, job: PrintOptions = {}): Promise<TransportWrite> {
    const signal = job.signal;
    const out = this.out;
    if (!out) throw printerFailure('printer_error', 'usbNotOpen', { name: this.name }, { delivered: 'none' });
    out.timeout = this.opts.timeoutMs;
    let written = 0;
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    while (written < buf.length) {
      signal?.throwIfAborted();
      const chunk = buf.subarray(written, Math.min(buf.length, written + USB_CHUNK_BYTES));
      const sent = await new Promise<number>((resolve, reject) => {
        try {
          out.transfer(chunk, (e, actual) => {
            if (e) {
              written += typeof actual === 'number' ? actual : 0;
              return reject(e);
            }
            resolve(actual);
          });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      }).catch(async (e: unknown) => {
        const code = usbErrorCode(e);
        if (code === LIBUSB.TRANSFER_STALL || code === LIBUSB.ERROR_PIPE) await new Promise<void>((r) => out.clearHalt(() => r()));
        throw this.transferError(e, written, buf.length);
      });
      written += sent;
    }
    return { bytesWritten: written };
  }

  /**
   * Reads bulk IN transfers until `complete` or the timeout. A printer
   * without an IN endpoint (unidirectional) answers nothing: empty bytes.
   */
  async read(complete: (bytes: Uint8Array) => boolean, timeoutMs: number): Promise<Uint8Array> {
    const input = this.in;
    if (!input) return new Uint8Array();
    const deadline = Date.now() + timeoutMs;
    const parts: Buffer[] = [];
    let all: Buffer = Buffer.alloc(0);
    while (!complete(all)) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      input.timeout = left;
      const data = await new Promise<Buffer | null>((resolve, reject) => {
        try {
          input.transfer(USB_READ_BYTES, (e, d) => {
            if (!e) return resolve(d ?? Buffer.alloc(0));
            const code = usbErrorCode(e);
            if (code === LIBUSB.TRANSFER_TIMED_OUT || code === LIBUSB.ERROR_TIMEOUT) return resolve(null);
            reject(this.transferError(e, 0, 0));
          });
        } catch (e) {
          reject(this.transferError(e, 0, 0));
        }
      });
      if (data === null) break;
      parts.push(data);
      all = Buffer.concat(parts);
    }
    return all;
  }

  private reattach(iface: UsbInterfaceLike): void {
    if (!this.detached) return;
    this.detached = false;
    try {
      iface.attachKernelDriver();
    } catch {
      // unplugged, or the driver is gone: nothing to give back
    }
  }

  private async releaseOn(d: UsbDeviceLike, iface: UsbInterfaceLike): Promise<void> {
    await new Promise<void>((resolve) => {
      try {
        iface.release(true, () => resolve());
      } catch {
        resolve();
      }
    });
    this.reattach(iface);
    try {
      d.close();
    } catch {
      // gone
    }
  }

  /** Releases the interface, re-attaches `usblp` when it was detached, closes the device. */
  async close(): Promise<void> {
    const d = this.device;
    const iface = this.iface;
    this.device = this.iface = this.out = this.in = undefined;
    if (d && iface) await this.releaseOn(d, iface);
  }

  private emit(e: TransportEvent): void {
    for (const l of [...(this.listeners.get(e) ?? [])]) l();
  }

  /**
   * A device was plugged in: when it is this printer, say `attached`. Telling two printers of the same
   * model apart means opening the device to read its serial: done one at a time with searches, and a
   * device unplugged while it is being checked (its detach arrived meanwhile, or it is gone when opened)
   * is not reported attached — the header would show a printer that is not there.
   */
  private async attachCheck(d: UsbDeviceLike): Promise<void> {
    const { idVendor, idProduct } = d.deviceDescriptor;
    if (this.dev.vendorId !== undefined && (idVendor !== this.dev.vendorId || idProduct !== this.dev.productId)) return;
    if (!isUsbPrinter(d)) return;
    const key = `${d.busNumber}:${d.deviceAddress}`;
    const checkedFrom = this.detachCount;
    if (this.dev.make !== undefined || this.dev.serial !== undefined) {
      const verdict = await this.serialised(async (): Promise<'ours' | 'other' | 'gone'> => {
        try {
          return usbMatches(this.dev, await describeUsbPrinter(d)) ? 'ours' : 'other';
        } catch (e) {
          // Cannot open it to check for permissions: say attached; the next job or status names the
          // problem. Any other failure (no device, I/O): it did not stay plugged in.
          return usbErrorCode(e) === LIBUSB.ERROR_ACCESS ? 'ours' : 'gone';
        }
      });
      if (verdict !== 'ours') return;
    }
    if ((this.lastDetachAt.get(key) ?? -1) > checkedFrom) return; // unplugged while being checked
    this.seen = { bus: d.busNumber, address: d.deviceAddress };
    this.emit('attached');
  }

  private detachCheck(d: UsbDeviceLike): void {
    this.lastDetachAt.set(`${d.busNumber}:${d.deviceAddress}`, ++this.detachCount);
    if (!this.seen || d.busNumber !== this.seen.bus || d.deviceAddress !== this.seen.address) return;
    this.device = this.iface = this.out = this.in = undefined;
    this.detached = false;
    this.emit('detached');
  }

  /** Hot-plug events; the first subscription starts watching the bus. */
  on(event: TransportEvent, listener: () => void): () => void {
    if (!this.watching) {
      this.watching = true;
      this.lib.on('attach', this.onAttach);
      this.lib.on('detach', this.onDetach);
      // Learn which device is ours now, so its detach is recognised.
      void this.find()
        .then((d) => {
          if (d) this.seen = { bus: d.busNumber, address: d.deviceAddress };
        })
        .catch(() => undefined);
    }
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return () => set.delete(listener);
  }

  /** Stops watching the bus and releases the device. */
  async dispose(): Promise<void> {
    if (this.watching) {
      this.lib.off('attach', this.onAttach);
      this.lib.off('detach', this.onDetach);
      this.watching = false;
    }
    this.listeners.clear();
    await this.close();
  }
}
