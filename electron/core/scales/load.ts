/**
 * Loads `node-hid` and `serialport` (N-API prebuilt binaries shipped in the
 * npm packages) once, on the first need. A station where they cannot load
 * keeps working; the header says why the scale is unavailable.
 */
import type { HidLibrary } from './hid';
import type { SerialLibrary } from './serial';

let hid: Promise<{ lib?: HidLibrary; error?: string }> | undefined;
let serial: Promise<{ lib?: SerialLibrary; error?: string }> | undefined;

const why = (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) });

/** The `node-hid` module, or why it could not be loaded. */
export function loadHidLibrary(): Promise<{ lib?: HidLibrary; error?: string }> {
  hid ??= import('node-hid').then((m) => {
    // Compile-time check that the real package has the interface the service and the fakes use.
    const lib: HidLibrary = { devices: () => m.devices(), HID: m.HID };
    return { lib };
  }, why);
  return hid;
}

/** The `serialport` module, or why it could not be loaded. */
export function loadSerialLibrary(): Promise<{ lib?: SerialLibrary; error?: string }> {
  serial ??= import('serialport').then((m) => {
    const lib: SerialLibrary = { SerialPort: m.SerialPort };
    return { lib };
  }, why);
  return serial;
}
