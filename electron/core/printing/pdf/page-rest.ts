/**
 * The rest of a PDF label's page (issue 23 item 4): where a carrier's page
 * holds more than the label (an A4 page with the label and the sender's copy,
 * a DHL Express waybill beside its label, a customs form), the label printer
 * prints only the label found on it (pdf-region.ts); the whole page, as the
 * carrier made it, goes to the station's A4 printer when one is set (the
 * packing-slip printer in A4 format, Settings, Packing slips), with every print of
 * the label (the `auto` job and each reprint the packer asks for).
 *
 * - The pages sent are the carrier's own PDF pages (pdf-lib copies them; the
 *   PDF unchanged when every page is such a page): vector, at the A4 printer's
 *   resolution, nothing cropped or shrunk by the station.
 * - Devices: a folder (`file:///dir`) gets `<trackingNumber>-a4.pdf` (`-2`,
 *   `-3`... when it exists, never overwritten); any other device URI the
 *   station's transport as a `pdf` document (an OS print queue renders it).
 * - Sent after the label, in the background, one at a time: the label runner
 *   never waits for the A4 printer. A page the A4 printer did not take is
 *   logged; the packer's reprint (Alt+R) sends it again. There is no job row of its own.
 */
import { PDFDocument } from 'pdf-lib';
import type { PageRestView } from '../../../../shared/contract/views';
import { PrinterError } from '../errors';
import { deviceFolderProblem, makeFolder, writeNewFile } from '../transports/folder';
import type { PageCropFacts } from './pdf-region';
import type { LabelPrinter } from '../types';
import { parseDeviceUri } from '../transports/uri';

/** A page of a PDF label that is not label-sized, as pdfToZpl found it (1-based `page`). */
export type PageCrop = PageCropFacts & { page: number };

/** The pages (1-based, ascending) that hold more than the label: the ones the A4 printer gets. */
function restPages(crops: readonly PageCrop[]): number[] {
  return [...new Set(crops.filter((c) => c.otherParts > 0).map((c) => c.page))].sort((a, b) => a - b);
}

/**
 * A PDF of the given pages of `pdf` (1-based), copied as they are; `pdf` itself when they are all its pages.
 * @throws Error naming the page when a page number is not in the PDF, or pdf-lib's error when the PDF cannot be read
 */
async function pdfPages(pdf: Uint8Array, pages: readonly number[]): Promise<Uint8Array> {
  const src = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  const count = src.getPageCount();
  const bad = pages.find((p) => !Number.isInteger(p) || p < 1 || p > count);
  if (bad !== undefined) throw new Error(`Page ${bad} is not in the PDF label (it has ${count} page${count === 1 ? '' : 's'})`);
  if (pages.length === count && pages.every((p, i) => p === i + 1)) return pdf;
  const out = await PDFDocument.create({ updateMetadata: false });
  for (const page of await out.copyPages(src, pages.map((p) => p - 1))) out.addPage(page);
  return out.save();
}

/**
 * Writes a PDF into a folder as `<base>.pdf` (`<base>-2.pdf`... when taken), the folder made when missing.
 * @returns the file written
 * @throws PrinterError `invalid_printer_uri` (the folder leads to a system folder), `printer_error` (delivered `none`) when nothing could be written
 */
async function writeToFolder(dir: string, base: string, pdf: Uint8Array): Promise<string> {
  const checked = deviceFolderProblem(dir);
  if ('problem' in checked) throw new PrinterError('invalid_printer_uri', `Invalid printer URI for the A4 printer: ${checked.problem}`);
  try {
    await makeFolder(dir);
    return await writeNewFile(dir, base, 'pdf', pdf);
  } catch (e) {
    throw new PrinterError('printer_error', `The A4 page was not written to ${dir}: ${e instanceof Error ? e.message : String(e)}`, { cause: e, delivered: 'none' });
  }
}

/** Options of {@link createPageRestSender}. */
export interface PageRestOptions {
  /** The A4 printer's device URI, asked at each print (the packer may change it), or null when none is set. */
  a4Printer: () => string | null;
  /** Opens a device URI that is not a folder (electron/core/printing `openPrinter`). */
  open: (uri: string) => LabelPrinter;
  /** The A4 printer's name for the screens (service-api.ts `printerNameOf`). */
  nameOf: (uri: string) => NonNullable<PageRestView['a4Printer']>;
  log: (line: string) => void;
}

/** Sends the rest of PDF labels' pages to the A4 printer (see module doc). */
export interface PageRestSender {
  /**
   * Queues the `pages` (1-based) of the PDF label of `trackingNumber` for the A4 printer set now; nothing
   * when no A4 printer is set or no page holds more than the label. Never throws: failures are logged.
   */
  send(trackingNumber: string, pdf: Uint8Array, crops: readonly PageCrop[]): void;
  /** What the preview says of the pages' rest: its parts and the A4 printer; null when no page holds more than the label. */
  view(crops: readonly PageCrop[]): PageRestView | null;
  /** Resolves when every queued page was sent or failed (tests, stop). */
  idle(): Promise<void>;
}

/** Builds the sender (see module doc). */
export function createPageRestSender(opts: PageRestOptions): PageRestSender {
  let chain: Promise<void> = Promise.resolve();

  async function deliver(uri: string, trackingNumber: string, pdf: Uint8Array, pages: number[]): Promise<void> {
    const doc = await pdfPages(pdf, pages);
    const dev = parseDeviceUri(uri);
    const base = `${trackingNumber.replace(/[^A-Za-z0-9_-]/g, '') || 'label'}-a4`;
    if (dev.scheme === 'file') {
      const file = await writeToFolder(dev.dir, base, doc);
      opts.log(`A4 page(s) ${pages.join(', ')} of ${trackingNumber}'s label written to ${file}`);
      return;
    }
    const printer = opts.open(uri);
    try {
      await printer.print(doc, { jobName: base, document: 'pdf' });
      opts.log(`A4 page(s) ${pages.join(', ')} of ${trackingNumber}'s label sent to ${uri}`);
    } finally {
      await printer.close().catch(() => undefined);
    }
  }

  return {
    send(trackingNumber, pdf, crops) {
      const pages = restPages(crops);
      const uri = opts.a4Printer();
      if (!pages.length || uri === null) return;
      chain = chain
        .then(() => deliver(uri, trackingNumber, pdf, pages))
        .catch((e: unknown) => opts.log(`A4 printer ${uri}: page(s) ${pages.join(', ')} of ${trackingNumber}'s label not printed (reprint the label to send them again): ${e instanceof Error ? e.message : String(e)}`));
    },
    view(crops) {
      const pages = restPages(crops);
      if (!pages.length) return null;
      const uri = opts.a4Printer();
      return {
        parts: crops.flatMap((c) => c.otherPartsMm.map((mm) => ({ page: c.page, width: mm.width, height: mm.height }))),
        pages,
        a4Printer: uri === null ? null : opts.nameOf(uri),
      };
    },
    async idle() {
      let seen: Promise<void>;
      do {
        seen = chain;
        await seen;
      } while (seen !== chain);
    },
  };
}
