/**
 * USB HID scales (HID Point of Sale Usage Tables 1.02, usage page 0x8D,
 * "Scale Data Report"): Dymo, Mettler Toledo, Stamps.com and any other device
 * on that usage page, through `node-hid` (the `usb` package cannot open HID
 * devices on Windows). The library is passed in, so tests use a fake with
 * node-hid's own interface.
 */
import type { ScaleStatus } from '../../../shared/domain/scale-weight';
import { toKg, type ScaleReading, type ScaleUnit } from './reading';

/** The subset of node-hid's `Device` (from `devices()`) the station uses. */
export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  path?: string | undefined;
  manufacturer?: string | undefined;
  product?: string | undefined;
  usagePage?: number | undefined;
  usage?: number | undefined;
}

/** The subset of node-hid's `HID` (an open device) the station uses. */
export interface HidHandle {
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  removeAllListeners(event?: string): unknown;
  close(): void;
}

/** The subset of the `node-hid` module the station uses. */
export interface HidLibrary {
  devices(): HidDeviceInfo[];
  HID: new (path: string) => HidHandle;
}

/** HID POS usage page of scales. */
const HID_POS_USAGE_PAGE = 0x8d;

/**
 * Known scales by `vendorId:productId` (hex, lower case). Another device on
 * usage page 0x8D is used too; a scale that does not announce the usage page
 * (some platforms hide it) is added here. See README "Scales".
 */
const KNOWN_HID_SCALES: Readonly<Record<string, string>> = {
  '0922:8003': 'Dymo M10',
  '0922:8004': 'Dymo M25',
  '0eb8:f000': 'Mettler Toledo PS60',
  '0eb8:f001': 'Mettler Toledo',
  '1446:6a73': 'Stamps.com scale',
};

function idOf(d: HidDeviceInfo): string {
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return `${hex(d.vendorId)}:${hex(d.productId)}`;
}

/** The scale's display name, or null when `d` is not a scale. */
export function hidScaleName(d: HidDeviceInfo): string | null {
  const known = KNOWN_HID_SCALES[idOf(d)];
  if (known) return known;
  if (d.usagePage === HID_POS_USAGE_PAGE) {
    return [d.manufacturer, d.product].filter(Boolean).join(' ') || `HID scale ${idOf(d)}`;
  }
  return null;
}

/** The first scale among `devices`, with a path to open it. */
export function findHidScale(devices: HidDeviceInfo[]): { info: HidDeviceInfo; name: string; path: string } | null {
  for (const d of devices) {
    const name = hidScaleName(d);
    if (name && d.path) return { info: d, name, path: d.path };
  }
  return null;
}

// HID POS "Weight Unit" selectors (usage 0x50..0x5C order).
const HID_UNITS: Record<number, ScaleUnit> = { 1: 'mg', 2: 'g', 3: 'kg', 4: 'ct', 8: 't', 10: 'ozt', 11: 'oz', 12: 'lb' };
// HID POS "Scale Status" selectors 1..8 (usage 0x70..0x78).
const HID_STATUS: Record<number, ScaleStatus> = {
  1: 'fault',
  2: 'zero',
  3: 'motion',
  4: 'stable',
  5: 'under_zero',
  6: 'over_capacity',
  7: 'fault', // requires calibration
  8: 'fault', // requires re-zeroing
};

/**
 * Parses one Scale Data Report: [report id 3,] status, unit, signed
 * exponent (int8), weight (uint16 little-endian). Platforms differ on whether
 * the report id is in the buffer: a 6-byte report starting with 3 has it.
 * Returns null for a report that is not a weight report.
 * Under zero: the weight field is unsigned, the status says the sign.
 */
export function parseHidReport(data: Uint8Array): ScaleReading | null {
  let o = 0;
  if (data.length >= 6 && data[0] === 3) o = 1;
  else if (data.length !== 5) return null;
  const status = HID_STATUS[data[o]!];
  if (!status) return null;
  const unit = HID_UNITS[data[o + 1]!];
  const exp = (data[o + 2]! << 24) >> 24;
  const raw = data[o + 3]! | (data[o + 4]! << 8);
  if (status === 'fault' || status === 'over_capacity') return { status, kg: null, decimals: 0 };
  if (!unit) {
    // Zero reports of some scales carry unit 0; they say "nothing on the scale" all the same.
    if (status === 'zero') return { status, kg: 0, decimals: 0 };
    return { status: 'fault', kg: null, decimals: 0 };
  }
  const { kg, decimals } = toKg(status === 'under_zero' ? -raw : raw, exp, unit);
  return { status, kg: status === 'zero' ? 0 : kg, decimals };
}
