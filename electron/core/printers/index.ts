/**
 * Label printers named by CUPS-style device URIs (DESIGN.md "Printing"):
 * `socket://host:9100` raw TCP with `~HS` status, `file:///folder` (writes the
 * .zpl and PNG previews; the training default), `usb://vid:pid` (parsed only).
 */
import { PrinterError } from './errors';
import { FilePrinter } from './file';
import { SocketPrinter } from './socket';
import type { LabelPrinter, OpenPrinterOptions } from './types';
import { parseDeviceUri } from './uri';

export type { LabelPrinter, OpenPrinterOptions,     } from './types';
export { PrinterError,  } from './errors';
export { parseDeviceUri, describePrinter,   } from './uri';
export { adaptZpl, adaptZplBytes, detectZplDpi } from './adapt';
export { parseHostStatus, hostStatusFrames, hostStatusToPrinterStatus,   } from './hoststatus';
export {   stopZplPreviewWorker } from './preview';
;
;

/** Default connect / write-stall / status-answer timeout, ms. */
const DEFAULT_PRINTER_TIMEOUT_MS = 5000;

/**
 * Opens the printer named by `uri`. Nothing is connected yet: each job and
 * each status query connects on its own (so a printer switched off and on
 * again just works on the next job).
 *
 * @param opts.timeoutMs connect, write-stall and status-answer timeout in ms (default 5000)
 * @param opts.dpi printer resolution (default 203); the file printer renders previews at it
 * @throws PrinterError `invalid_printer_uri` (message names the problem),
 *   `printer_unsupported` for usb:// (USB printing comes with a later issue)
 * @throws RangeError when `timeoutMs` is not a positive number or `dpi` not 203/300
 */
export function openPrinter(uri: string, opts: OpenPrinterOptions = {}): LabelPrinter {
  const dev = parseDeviceUri(uri);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PRINTER_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('openPrinter: timeoutMs must be a positive number of milliseconds');
  const dpi = opts.dpi ?? 203;
  if (dpi !== 203 && dpi !== 300) throw new RangeError('openPrinter: dpi must be 203 or 300');
  switch (dev.scheme) {
    case 'socket':
      return new SocketPrinter(dev, timeoutMs);
    case 'file':
      return new FilePrinter(dev, dpi);
    case 'usb':
      throw new PrinterError(
        'printer_unsupported',
        `USB printers are not supported yet (${dev.uri}); USB printing comes with a later issue. Use socket://host:9100 or file:///folder meanwhile.`,
      );
  }
}
