/**
 * USB printer devices (USB Printer Class 1.1) as the `usb` package (v2,
 * libusb) shows them: the shapes of its devices, interfaces and endpoints
 * (tests inject a fake with the same interface), finding the printer-class
 * interface, reading the IEEE 1284 device ID and string descriptors, the
 * `usb://Make/Model?serial=…` URI CUPS writes, matching a device URI to an
 * attached device, listing attached printers, and the fix for a device this
 * user may not open. The transport over them is usb.ts.
 */
import type { DeviceUri } from './uri';

/** USB class code of printers (USB Printer Class 1.1). */
const USB_CLASS_PRINTER = 7;

/** libusb error / transfer status codes (libusb.h) the transport tells apart. */
export const LIBUSB = {
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

export const hex4 = (n: number): string => n.toString(16).padStart(4, '0');
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The libusb error number of a failure of the `usb` package (e.g. -4 no device), or undefined. */
export function usbErrorCode(e: unknown): number | undefined {
  const n = (e as { errno?: unknown } | null)?.errno;
  return typeof n === 'number' ? n : undefined;
}

/** The number of the device's printer-class interface (USB class 7), `wanted` when given and present; undefined when it has none. */
export function printerInterfaceNumber(d: UsbDeviceLike, wanted?: number): number | undefined {
  const ifaces = d.configDescriptor?.interfaces ?? [];
  for (const alts of ifaces) {
    for (const alt of alts) {
      if (alt.bInterfaceClass === USB_CLASS_PRINTER && (wanted === undefined || alt.bInterfaceNumber === wanted)) return alt.bInterfaceNumber;
    }
  }
  return undefined;
}

/** True when the device has a printer-class interface. */
export function isUsbPrinter(d: UsbDeviceLike): boolean {
  return printerInterfaceNumber(d) !== undefined;
}

/** A USB string descriptor of the device (manufacturer, product, serial) by its index; undefined when it cannot be read. */
export function stringDescriptor(d: UsbDeviceLike, index: number): Promise<string | undefined> {
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
export async function describeUsbPrinter(d: UsbDeviceLike, openIt = true): Promise<UsbPrinterInfo> {
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

/** A parsed `usb://` device URI. */
export type UsbDev = Extract<DeviceUri, { scheme: 'usb' }>;

/** True when the printer described by `info` is the one `dev` names. */
export function usbMatches(dev: UsbDev, info: UsbPrinterInfo, strings: { manufacturer?: string; product?: string } = {}): boolean {
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

/** A USB device for messages: bus, device address and vendor:product id (`bus 1 device 4, 0a5f:0164`). */
export function where(d: UsbDeviceLike): string {
  return `bus ${d.busNumber} device ${d.deviceAddress}, ${hex4(d.deviceDescriptor.idVendor)}:${hex4(d.deviceDescriptor.idProduct)}`;
}

/** The fix for a device this user may not open, per platform. */
export function permissionHint(d: UsbDeviceLike, e: unknown): string {
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
