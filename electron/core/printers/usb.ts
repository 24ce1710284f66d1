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
import { PrinterError } from './errors';
import type { Transport, TransportEvent } from './transport';
import type { DeviceUri } from './uri';

/** Bytes per bulk OUT transfer. */
export const USB_CHUNK_BYTES = 16 * 1024;
/** USB class code of printers (USB Printer Class 1.1). */
const USB_CLASS_PRINTER = 7;
/** Bytes asked per bulk IN transfer (a multiple of 64-byte full-speed packets; short packets end a transfer). */
const USB_READ_BYTES = 512;

/** libusb error / transfer status codes (libusb.h) the transport tells apart. */
const LIBUSB = {
  ERROR_ACCESS: -3,
  ERROR_NO_DEVICE: -4,
  ERROR_NOT_FOUND: -5,
  ERROR_BUSY: -6,
  ERROR_TIMEOUT: -7,
  ERROR_PIPE: -9,
  TRANSFER_TIMED_OUT: 2,
  TRANSFER_STALL: 4,
  TRANSFER_NO_DEVICE: 5,
  TRANSFER_TYPE_BULK: 2,
} as const;

/** An error as the `usb` package reports it (`LibUSBException`). */
export interface UsbErrorLike extends Error {
  errno: number;
}

/** Endpoint of the `usb` package (v2 `Endpoint`), the part used here. */
export interface UsbEndpointLike {
  direction: 'in' | 'out';
  transferType: number;
  timeout: number;
  descriptor: { bEndpointAddress: number; wMaxPacketSize: number };
}
/** Bulk OUT endpoint (`OutEndpoint`). */
export interface UsbOutEndpointLike extends UsbEndpointLike {
  transfer(buffer: Buffer, callback?: (error: UsbErrorLike | undefined, actual: number) => void): unknown;
  clearHalt(callback: (error: UsbErrorLike | undefined) => void): void;
}
/** Bulk IN endpoint (`InEndpoint`). */
export interface UsbInEndpointLike extends UsbEndpointLike {
  transfer(length: number, callback: (error: UsbErrorLike | undefined, data?: Buffer) => void): unknown;
}
/** Interface of the `usb` package (v2 `Interface`), the part used here. */
export interface UsbInterfaceLike {
  interfaceNumber: number;
  descriptor: { bInterfaceClass: number; bAlternateSetting: number };
  endpoints: UsbEndpointLike[];
  claim(): void;
  release(closeEndpoints: boolean, callback?: (error?: UsbErrorLike) => void): void;
  isKernelDriverActive(): boolean;
  detachKernelDriver(): void;
  attachKernelDriver(): void;
}
/** Device of the `usb` package (v2 `Device`), the part used here. */
export interface UsbDeviceLike {
  busNumber: number;
  deviceAddress: number;
  deviceDescriptor: { idVendor: number; idProduct: number; iManufacturer: number; iProduct: number; iSerialNumber: number };
  configDescriptor?: { interfaces: Array<Array<{ bInterfaceNumber: number; bAlternateSetting: number; bInterfaceClass: number }>> } | undefined;
  open(): void;
  close(): void;
  interface(n: number): UsbInterfaceLike;
  getStringDescriptor(index: number, callback: (error?: UsbErrorLike, value?: string) => void): void;
  controlTransfer(
    bmRequestType: number,
    bRequest: number,
    wValue: number,
    wIndex: number,
    length: number | Buffer,
    callback?: (error: UsbErrorLike | undefined, data: Buffer | number | undefined) => void,
  ): unknown;
}
/** The `usb` package's `usb` export (v2), the part used here: `import { usb } from 'usb'`. */
export interface UsbLibrary {
  getDeviceList(): UsbDeviceLike[];
  on(event: 'attach' | 'detach', listener: (device: UsbDeviceLike) => void): void;
  off(event: 'attach' | 'detach', listener: (device: UsbDeviceLike) => void): void;
}

/** What a printer-class device says about itself. */
export interface UsbPrinterInfo {
  vendorId: number;
  productId: number;
  /** IEEE 1284 MFG, else the USB manufacturer string. */
  make: string;
  /** IEEE 1284 MDL, else the USB product string. */
  model: string;
  serial: string | undefined;
  /** The raw IEEE 1284 device ID, when the printer answered GET_DEVICE_ID. */
  deviceId: string | undefined;
  /** `usb://Make/Model?serial=…` as CUPS writes it. */
  uri: string;
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

function usbErrorCode(e: unknown): number | undefined {
  const n = (e as { errno?: unknown } | null)?.errno;
  return typeof n === 'number' ? n : undefined;
}

function printerInterfaceNumber(d: UsbDeviceLike, wanted?: number): number | undefined {
  const ifaces = d.configDescriptor?.interfaces ?? [];
  for (const alts of ifaces) {
    for (const alt of alts) {
      if (alt.bInterfaceClass === USB_CLASS_PRINTER && (wanted === undefined || alt.bInterfaceNumber === wanted)) return alt.bInterfaceNumber;
    }
  }
  return undefined;
}

/** True when the device has a printer-class interface. */
function isUsbPrinter(d: UsbDeviceLike): boolean {
  return printerInterfaceNumber(d) !== undefined;
}

function stringDescriptor(d: UsbDeviceLike, index: number): Promise<string | undefined> {
  if (!index) return Promise.resolve(undefined);
  return new Promise((resolve) => d.getStringDescriptor(index, (e, v) => resolve(e ? undefined : v?.trim() || undefined)));
}

/** IEEE 1284 device ID (USB Printer Class 1.1, GET_DEVICE_ID: bmRequestType 0xA1, bRequest 0); first two bytes are its big-endian length. */
function deviceId(d: UsbDeviceLike, iface: number, alt: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      d.controlTransfer(0xa1, 0, 0, (iface << 8) | alt, 1024, (e, data) => {
        if (e || !Buffer.isBuffer(data) || data.length < 2) return resolve(undefined);
        const len = Math.min(data.readUInt16BE(0), data.length);
        resolve(data.subarray(2, len).toString('latin1').trim() || undefined);
      });
    } catch {
      resolve(undefined);
    }
  });
}

/** `MFG:Zebra Technologies;MDL:ZTC ZD421-203dpi ZPL;…` -> fields (keys upper-case, long forms folded to MFG/MDL). */
function parseDeviceId(id: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of id.split(';')) {
    const i = part.indexOf(':');
    if (i <= 0) continue;
    let key = part.slice(0, i).trim().toUpperCase();
    if (key === 'MANUFACTURER') key = 'MFG';
    if (key === 'MODEL') key = 'MDL';
    out[key] ??= part.slice(i + 1).trim();
  }
  return out;
}

/** `usb://Make/Model?serial=…` with CUPS' percent-encoding (spaces as %20). */
export function usbUri(make: string, model: string, serial?: string): string {
  const enc = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `usb://${enc(make)}/${enc(model)}${serial ? `?serial=${enc(serial)}` : ''}`;
}

/**
 * Reads what a printer-class device says about itself (opens it briefly;
 * the strings and the device ID need an open device).
 * @throws the library's error (e.g. LIBUSB_ERROR_ACCESS) when it cannot be opened
 */
async function describeUsbPrinter(d: UsbDeviceLike, openIt = true): Promise<UsbPrinterInfo> {
  const iface = printerInterfaceNumber(d) ?? 0;
  if (openIt) d.open();
  try {
    const dd = d.deviceDescriptor;
    const [manufacturer, product, serial, id] = [
      await stringDescriptor(d, dd.iManufacturer),
      await stringDescriptor(d, dd.iProduct),
      await stringDescriptor(d, dd.iSerialNumber),
      await deviceId(d, iface, 0),
    ];
    const f = id ? parseDeviceId(id) : {};
    const make = f.MFG || manufacturer || hex4(dd.idVendor);
    const model = f.MDL || product || hex4(dd.idProduct);
    return { vendorId: dd.idVendor, productId: dd.idProduct, make, model, serial, deviceId: id, uri: usbUri(make, model, serial) };
  } finally {
    if (openIt) {
      try {
        d.close();
      } catch {
        // already closed
      }
    }
  }
}

type UsbDev = Extract<DeviceUri, { scheme: 'usb' }>;

/** True when the printer described by `info` is the one `dev` names. */
function usbMatches(dev: UsbDev, info: UsbPrinterInfo, strings: { manufacturer?: string; product?: string } = {}): boolean {
  if (dev.vendorId !== undefined && (info.vendorId !== dev.vendorId || info.productId !== dev.productId)) return false;
  if (dev.serial !== undefined && norm(info.serial ?? '') !== norm(dev.serial)) return false;
  if (dev.make !== undefined) {
    const makes = [info.make, strings.manufacturer].filter((x): x is string => !!x).map(norm);
    const models = [info.model, strings.product].filter((x): x is string => !!x).map(norm);
    const mk = norm(dev.make);
    // "Zebra" names "Zebra Technologies" too: CUPS and vendors shorten the maker differently.
    if (!makes.some((m) => m === mk || m.startsWith(`${mk} `) || mk.startsWith(`${m} `))) return false;
    if (!models.includes(norm(dev.model ?? ''))) return false;
  }
  return true;
}

/** Lists attached USB printers (printer-class interface). Devices that cannot be opened are listed by ids. */
export async function listUsbPrinters(lib: UsbLibrary): Promise<Array<UsbPrinterInfo & { error?: string }>> {
  const out: Array<UsbPrinterInfo & { error?: string }> = [];
  for (const d of lib.getDeviceList()) {
    if (!isUsbPrinter(d)) continue;
    try {
      out.push(await describeUsbPrinter(d));
    } catch (e) {
      const { idVendor, idProduct } = d.deviceDescriptor;
      out.push({
        vendorId: idVendor,
        productId: idProduct,
        make: hex4(idVendor),
        model: hex4(idProduct),
        serial: undefined,
        deviceId: undefined,
        uri: `usb://${hex4(idVendor)}:${hex4(idProduct)}`,
        error: permissionHint(d, e),
      });
    }
  }
  return out;
}

function where(d: UsbDeviceLike): string {
  return `bus ${d.busNumber} device ${d.deviceAddress}, ${hex4(d.deviceDescriptor.idVendor)}:${hex4(d.deviceDescriptor.idProduct)}`;
}

/** The fix for a device this user may not open, per platform. */
function permissionHint(d: UsbDeviceLike, e: unknown): string {
  if (usbErrorCode(e) !== LIBUSB.ERROR_ACCESS) return `cannot open USB device (${where(d)}): ${e instanceof Error ? e.message : String(e)}`;
  if (process.platform === 'linux') {
    return (
      `No permission to open the USB printer (${where(d)}). Install the udev rule shipped with the station: ` +
      `sudo cp build/udev/60-shipping-station-printers.rules /etc/udev/rules.d/ && sudo udevadm control --reload-rules && sudo udevadm trigger, ` +
      `then unplug and replug the printer (README "Printers").`
    );
  }
  if (process.platform === 'win32') {
    return `The USB printer (${where(d)}) is owned by its Windows driver: print through its print queue instead (printer:<queue name>, see "Find printers").`;
  }
  return `No permission to open the USB printer (${where(d)}): ${e instanceof Error ? e.message : String(e)}`;
}

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
    if (!d) throw new PrinterError('printer_unreachable', `${this.name} is not connected (${this.uri}); plug it in and switch it on`, { delivered: 'none' });
    try {
      d.open();
    } catch (e) {
      if (usbErrorCode(e) === LIBUSB.ERROR_ACCESS) throw new PrinterError('printer_permission', permissionHint(d, e), { cause: e, delivered: 'none' });
      if (usbErrorCode(e) === LIBUSB.ERROR_NO_DEVICE) throw new PrinterError('printer_unreachable', `${this.name} was unplugged`, { cause: e, delivered: 'none' });
      throw new PrinterError('printer_error', `Cannot open ${this.name} (${where(d)}): ${e instanceof Error ? e.message : String(e)}`, { cause: e, delivered: 'none' });
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
      const busy = code === LIBUSB.ERROR_BUSY ? ': another program is using it (close the vendor tool or stop its CUPS queue)' : `: ${e instanceof Error ? e.message : String(e)}`;
      throw new PrinterError('printer_error', `Cannot claim ${this.name} (${where(d)})${busy}`, { cause: e, delivered: 'none' });
    }
    const bulk = iface.endpoints.filter((ep) => ep.transferType === LIBUSB.TRANSFER_TYPE_BULK);
    const out = bulk.find((ep) => ep.direction === 'out') as UsbOutEndpointLike | undefined;
    if (!out) {
      await this.releaseOn(d, iface);
      throw new PrinterError('printer_error', `${this.name} has no bulk OUT endpoint on its printer interface`, { delivered: 'none' });
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
    const of = `${written} of ${total} bytes sent`;
    if (code === LIBUSB.TRANSFER_NO_DEVICE || code === LIBUSB.ERROR_NO_DEVICE) {
      return new PrinterError('printer_unreachable', `${this.name} was unplugged during the job (${of})`, { cause: e, delivered });
    }
    if (code === LIBUSB.TRANSFER_TIMED_OUT || code === LIBUSB.ERROR_TIMEOUT) {
      return new PrinterError('printer_timeout', `${this.name} took no data for ${this.opts.timeoutMs} ms (${of})`, { cause: e, delivered });
    }
    if (code === LIBUSB.TRANSFER_STALL || code === LIBUSB.ERROR_PIPE) {
      return new PrinterError('printer_error', `${this.name} stalled the transfer (${of}); check the printer's display`, { cause: e, delivered });
    }
    return new PrinterError('printer_error', `${this.name} failed during the job (${of}): ${e instanceof Error ? e.message : String(e)}`, { cause: e, delivered });
  }

  /**
   * Writes `bytes` in {@link USB_CHUNK_BYTES} chunks, each bounded by the timeout.
   * A stall clears the endpoint halt before failing.
   * @throws PrinterError (`delivered` counts the bytes the device acknowledged)
   */
  async write(bytes: Uint8Array, signal?: AbortSignal): Promise<number> {
    const out = this.out;
    if (!out) throw new PrinterError('printer_error', `${this.name} is not open`, { delivered: 'none' });
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
    return written;
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
