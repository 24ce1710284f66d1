/**
 * Loads the `usb` package (v2, libusb with prebuilt N-API binaries shipped in
 * the npm package) once, on the first USB need. A station without libusb
 * (an unusual platform, a broken install) keeps printing to network printers,
 * queues and folders; usb:// then answers `printer_unsupported` naming the cause.
 */
import type { UsbLibrary } from './usb-device';

let loaded: Promise<{ usb?: UsbLibrary; error?: string }> | undefined;

/** The `usb` export of the `usb` package, or why it could not be loaded. */
export function loadUsbLibrary(): Promise<{ usb?: UsbLibrary; error?: string }> {
  loaded ??= import('usb').then(
    (m) => {
      // Compile-time check that the real package has the interface the transport and the fakes use.
      const lib: UsbLibrary = m.usb;
      return { usb: lib };
    },
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
  return loaded;
}
