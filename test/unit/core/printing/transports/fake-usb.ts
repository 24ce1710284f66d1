/**
 * A fake USB bus with label printers, shaped like the `usb` package (v2):
 * `getDeviceList`, `on/off('attach'|'detach')`, devices with
 * `open/close/interface/getStringDescriptor/controlTransfer`, a printer-class
 * interface with `claim/release/isKernelDriverActive/detach/attachKernelDriver`
 * and bulk OUT / IN endpoints whose `transfer` calls back like libusb's.
 * Failures are scripted per device: stall, timeout, unplug mid-job, access
 * denied, busy; status answers (`~HQES` / `~HS`) come back in 64-byte packets.
 */
import { EventEmitter } from 'node:events';
import type { UsbDeviceLike, UsbEndpointLike, UsbErrorLike, UsbInEndpointLike, UsbInterfaceLike, UsbLibrary, UsbOutEndpointLike } from '../../../../../electron/core/printing';
import { hqesAnswer, hsAnswer, type HsFlags } from '../zpl/hs-answer';

const STATUS = { TIMED_OUT: 2, STALL: 4, NO_DEVICE: 5 } as const;
const ERR = { ACCESS: -3, NO_DEVICE: -4, BUSY: -6 } as const;

function usbError(errno: number, message: string): UsbErrorLike {
  return Object.assign(new Error(message), { errno });
}

/** What a fake printer does; change fields between calls. */
export interface FakeUsbScript {
  /** Printer flags for `~HS`; `hqes` error bits for `~HQES` (1 media out, 4 head open). */
  hs: HsFlags;
  hqes: number;
  /** Answers status at all (false: the IN endpoint times out). */
  answers: boolean;
  /** Fail OUT transfers: after `afterBytes` accepted bytes, with this failure. */
  fail?: { kind: 'stall' | 'timeout' | 'unplug'; afterBytes: number };
  /** `open()` fails with LIBUSB_ERROR_ACCESS / claim fails with BUSY. */
  deny?: 'access' | 'busy';
  /** Answer only the `~HS` part (a printer that ignores `~HQES`). */
  ignoresHqes?: boolean;
}

/** One fake printer on the bus. */
export class FakeUsbPrinter implements UsbDeviceLike {
  busNumber = 1;
  deviceAddress: number;
  deviceDescriptor;
  configDescriptor = { interfaces: [[{ bInterfaceNumber: 0, bAlternateSetting: 0, bInterfaceClass: 7 }]] };
  script: FakeUsbScript = { hs: {}, hqes: 0, answers: true };
  /** Called with each accepted OUT transfer (the bench times jobs with it). */
  onTransfer?: (bytes: Buffer) => void;
  /** Bytes of every OUT transfer, in order (jobs and status queries). */
  readonly received: Buffer[] = [];
  /** Size of each OUT transfer (to check chunking). */
  readonly transferSizes: number[] = [];
  /** Calls in order: open, detachKernelDriver, claim, release, attachKernelDriver, close, clearHalt. */
  readonly calls: string[] = [];
  kernelDriver = true;
  opened = false;
  claimed = false;
  plugged = true;
  private pendingAnswer: Buffer = Buffer.alloc(0);
  private readonly iface: UsbInterfaceLike;

  constructor(
    readonly strings: { manufacturer: string; product: string; serial: string },
    ids: { vendorId: number; productId: number },
    address: number,
    readonly deviceId = `MFG:${strings.manufacturer};CMD:ZPL;MDL:${strings.product};CLS:PRINTER;`,
  ) {
    this.deviceAddress = address;
    this.deviceDescriptor = { idVendor: ids.vendorId, idProduct: ids.productId, iManufacturer: 1, iProduct: 2, iSerialNumber: 3 };
    const out: UsbOutEndpointLike = {
      direction: 'out',
      transferType: 2,
      timeout: 0,
      descriptor: { bEndpointAddress: 0x01, wMaxPacketSize: 512 },
      transfer: (buffer, cb) => {
        setImmediate(() => this.out(buffer, out.timeout, cb ?? (() => undefined)));
        return out;
      },
      clearHalt: (cb) => {
        this.calls.push('clearHalt');
        setImmediate(() => cb(undefined));
      },
    };
    const inp: UsbInEndpointLike = {
      direction: 'in',
      transferType: 2,
      timeout: 0,
      descriptor: { bEndpointAddress: 0x81, wMaxPacketSize: 64 },
      transfer: (length, cb) => {
        this.in(length, inp.timeout, cb);
        return inp;
      },
    };
    this.iface = {
      interfaceNumber: 0,
      descriptor: { bInterfaceClass: 7, bAlternateSetting: 0 },
      endpoints: [out, inp] as UsbEndpointLike[],
      claim: () => {
        this.calls.push('claim');
        if (this.script.deny === 'busy') throw usbError(ERR.BUSY, 'LIBUSB_ERROR_BUSY');
        if (this.kernelDriver) throw usbError(ERR.BUSY, 'LIBUSB_ERROR_BUSY (usblp holds the interface)');
        this.claimed = true;
      },
      release: (_close: boolean, cb?: (e?: UsbErrorLike) => void) => {
        this.calls.push('release');
        this.claimed = false;
        setImmediate(() => cb?.());
      },
      isKernelDriverActive: () => this.kernelDriver,
      detachKernelDriver: () => {
        this.calls.push('detachKernelDriver');
        this.kernelDriver = false;
      },
      attachKernelDriver: () => {
        this.calls.push('attachKernelDriver');
        this.kernelDriver = true;
      },
    };
  }

  open(): void {
    this.calls.push('open');
    if (!this.plugged) throw usbError(ERR.NO_DEVICE, 'LIBUSB_ERROR_NO_DEVICE');
    if (this.script.deny === 'access') throw usbError(ERR.ACCESS, 'LIBUSB_ERROR_ACCESS');
    this.opened = true;
  }
  close(): void {
    this.calls.push('close');
    this.opened = false;
  }
  interface(): UsbInterfaceLike {
    return this.iface;
  }
  getStringDescriptor(index: number, cb: (e?: UsbErrorLike, v?: string) => void): void {
    const v = index === 1 ? this.strings.manufacturer : index === 2 ? this.strings.product : index === 3 ? this.strings.serial : undefined;
    setImmediate(() => (this.opened ? cb(undefined, v) : cb(usbError(-1, 'device not open'))));
  }
  controlTransfer(bm: number, req: number, _v: number, _i: number, _len: number | Buffer, cb?: (e: UsbErrorLike | undefined, d: Buffer | number | undefined) => void): this {
    const id = Buffer.from(this.deviceId, 'latin1');
    const buf = Buffer.alloc(id.length + 2);
    buf.writeUInt16BE(buf.length, 0);
    id.copy(buf, 2);
    setImmediate(() => cb?.(bm === 0xa1 && req === 0 ? undefined : usbError(-9, 'STALL'), buf));
    return this;
  }

  /** All job bytes received (status queries removed). */
  jobBytes(): string {
    return Buffer.concat(this.received).toString('latin1').replace(/~HQES|~HS/g, '');
  }

  private accepted = 0;

  private out(buffer: Buffer, timeout: number, cb: (e: UsbErrorLike | undefined, actual: number) => void): void {
    if (!this.plugged) return cb(usbError(STATUS.NO_DEVICE, 'LIBUSB_TRANSFER_NO_DEVICE'), 0);
    if (!this.claimed) return cb(usbError(-1, 'interface not claimed'), 0);
    const f = this.script.fail;
    const text = buffer.toString('latin1');
    const isStatus = /^(~HQES)?~HS$/.test(text);
    if (f && !isStatus && this.accepted + buffer.length > f.afterBytes) {
      const part = Math.max(0, f.afterBytes - this.accepted);
      this.accepted += part;
      if (part) this.received.push(buffer.subarray(0, part));
      if (f.kind === 'stall') return cb(usbError(STATUS.STALL, 'LIBUSB_TRANSFER_STALL'), part);
      if (f.kind === 'unplug') {
        bus.unplug(this);
        return cb(usbError(STATUS.NO_DEVICE, 'LIBUSB_TRANSFER_NO_DEVICE'), part);
      }
      return void setTimeout(() => cb(usbError(STATUS.TIMED_OUT, 'LIBUSB_TRANSFER_TIMED_OUT'), part), Math.min(timeout, 50));
    }
    this.received.push(Buffer.from(buffer));
    this.transferSizes.push(buffer.length);
    this.onTransfer?.(buffer);
    if (!isStatus) this.accepted += buffer.length;
    if (text.includes('~HS') && this.script.answers) {
      const s = this.script;
      const answer = (text.includes('~HQES') && !s.ignoresHqes ? hqesAnswer(s.hqes) : '') + hsAnswer(s.hs);
      this.pendingAnswer = Buffer.concat([this.pendingAnswer, Buffer.from(answer, 'latin1')]);
    }
    cb(undefined, buffer.length);
  }

  private in(length: number, timeout: number, cb: (e: UsbErrorLike | undefined, data?: Buffer) => void): void {
    if (!this.plugged) return void setImmediate(() => cb(usbError(STATUS.NO_DEVICE, 'LIBUSB_TRANSFER_NO_DEVICE')));
    if (this.pendingAnswer.length === 0) {
      return void setTimeout(() => cb(usbError(STATUS.TIMED_OUT, 'LIBUSB_TRANSFER_TIMED_OUT')), Math.min(timeout || 1000, 1000));
    }
    // Full-speed printers answer in 64-byte packets; one transfer returns at most one packet here.
    const n = Math.min(64, length, this.pendingAnswer.length);
    const data = this.pendingAnswer.subarray(0, n);
    this.pendingAnswer = this.pendingAnswer.subarray(n);
    setImmediate(() => cb(undefined, Buffer.from(data)));
  }
}

/** The fake bus: `usb` export lookalike. */
export class FakeUsbBus extends EventEmitter implements UsbLibrary {
  readonly devices: FakeUsbPrinter[] = [];
  getDeviceList(): FakeUsbPrinter[] {
    return this.devices.filter((d) => d.plugged);
  }
  plug(d: FakeUsbPrinter): void {
    d.plugged = true;
    d.kernelDriver = true;
    if (!this.devices.includes(d)) this.devices.push(d);
    this.emit('attach', d);
  }
  unplug(d: FakeUsbPrinter): void {
    d.plugged = false;
    d.opened = d.claimed = false;
    this.emit('detach', d);
  }
}

let bus: FakeUsbBus;

/** A new bus with the given printers plugged in (Zebra ZD421 by default). */
export function fakeBus(...printers: FakeUsbPrinter[]): FakeUsbBus {
  bus = new FakeUsbBus();
  for (const p of printers) bus.plug(p);
  return bus;
}

/** A Zebra ZD421 with the given serial at the given address. */
export function zd421(serial: string, address = 5): FakeUsbPrinter {
  return new FakeUsbPrinter({ manufacturer: 'Zebra Technologies', product: 'ZTC ZD421-203dpi ZPL', serial }, { vendorId: 0x0a5f, productId: 0x0166 }, address);
}
