/**
 * Label printers named by CUPS-style device URIs (DESIGN.md "Devices"):
 * `socket://host:9100` raw TCP with `~HQES~HS` status, `usb://Make/Model?serial=…`
 * (the `usb` package, passed in), `printer:<queue>` raw through the OS spooler,
 * `file:///folder` (writes the .zpl and PNG previews; the training default).
 */
import { PrinterError } from './errors';
import { FolderTransport } from './transports/file';
import { SocketTransport } from './transports/socket';
import type { Transport } from './transports/transport';
import type { LabelPrinter } from './types';
import { QueueTransport, type CommandRunner } from './transports/os-spooler';
import { UsbTransport } from './transports/usb';
import type { UsbLibrary } from './transports/usb-device';
import { TransportPrinter } from './label-printer';
import { parseDeviceUri, type DeviceUri } from './transports/uri';

export type { LabelPrinter, PrinterStatus } from './types';
export { PrinterError } from './errors';
export { parseDeviceUri, describePrinter, printerNameParts } from './transports/uri';
export { adaptZpl, adaptZplBytes, detectZplDpi } from './zpl/adapt';
export { applyProfile, applyProfileBytes } from './zpl/profile';
export { mmToDots } from './zpl/units';
export { parseHostStatus, hostStatusFrames, hostStatusToPrinterStatus, parseExtendedStatus, statusFromFrames } from './zpl/hoststatus';
export { renderZplPreview, stopZplPreviewWorker } from './zpl/preview';
export { listQueues } from './transports/os-spooler';
export { USB_CHUNK_BYTES } from './transports/usb';
export {
  usbUri,
  type UsbLibrary,
  type UsbDeviceLike,
  type UsbInterfaceLike,
  type UsbEndpointLike,
  type UsbInEndpointLike,
  type UsbOutEndpointLike,
  type UsbErrorLike,
} from './transports/usb-device';

/**
 * Options of {@link openPrinter}. Here, beside it, not in ./types.ts: they name transports' types, and
 * the transports import ./types.ts (types below transports, no circle).
 */
export interface OpenPrinterOptions {
  /** Connect, write-stall and status-answer timeout in ms (default 5000). */
  timeoutMs?: number;
  /** Printer resolution in dpi (default 203); the file printer renders previews at it. */
  dpi?: 203 | 300;
  /** The `usb` package's `usb` export (v2), for usb:// printers; tests pass a fake with the same interface. */
  usb?: UsbLibrary;
  /** Why the usb library could not be loaded (named in the `printer_unsupported` message). */
  usbLoadError?: string;
  /** Runs the spooler commands of `printer:<queue>` printers (default: spawn `lp` / PowerShell). */
  run?: CommandRunner;
  /** USB: how long the device stays claimed after the last job or status query, ms (default 2000). */
  idleReleaseMs?: number;
}

/** Default connect / write-stall / status-answer timeout, ms. */
const DEFAULT_PRINTER_TIMEOUT_MS = 5000;

/**
 * Opens the printer named by `uri`. Nothing is connected yet: each job and
 * each status query connects on its own (so a printer switched off and on
 * again just works on the next job).
 *
 * @param opts.timeoutMs connect, write-stall and status-answer timeout in ms (default 5000)
 * @param opts.dpi printer resolution (default 203); the file printer renders previews at it
 * @param opts.usb the `usb` package's `usb` export (v2) for usb:// printers
 * @throws PrinterError `invalid_printer_uri` (message names the problem),
 *   `printer_unsupported` for usb:// when no USB library was given (or it failed to load)
 * @throws RangeError when `timeoutMs` is not a positive number or `dpi` not 203/300
 */
export function openPrinter(uri: string, opts: OpenPrinterOptions = {}): LabelPrinter {
  const dev = parseDeviceUri(uri);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PRINTER_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('openPrinter: timeoutMs must be a positive number of milliseconds');
  const dpi = opts.dpi ?? 203;
  if (dpi !== 203 && dpi !== 300) throw new RangeError('openPrinter: dpi must be 203 or 300');
  return new TransportPrinter(openTransport(dev, timeoutMs, dpi, opts), timeoutMs, opts.idleReleaseMs);
}

/**
 * The transport of a parsed device URI, one per scheme of shared/print/device-uri-schemes.ts.
 * @throws PrinterError `printer_unsupported` for usb:// when no USB library was given (or it failed to load)
 */
function openTransport(dev: DeviceUri, timeoutMs: number, dpi: 203 | 300, opts: OpenPrinterOptions): Transport {
  switch (dev.scheme) {
    case 'socket':
      return new SocketTransport(dev, timeoutMs);
    case 'file':
      return new FolderTransport(dev, dpi);
    case 'usb':
      if (!opts.usb) {
        throw new PrinterError(
          'printer_unsupported',
          `USB printing is not available on this station (${dev.uri}): the usb library did not load${opts.usbLoadError ? ` (${opts.usbLoadError})` : ''}. Use the printer's print queue (printer:<queue>) or socket://host:9100.`,
        );
      }
      return new UsbTransport(opts.usb, dev, { timeoutMs });
    case 'printer':
      return new QueueTransport(dev, { timeoutMs, ...(opts.run ? { run: opts.run } : {}) });
  }
}
