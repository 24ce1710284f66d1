/** Commands of label printing: printers, profiles, print jobs, reprint and preview (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { PrinterProfileSchema, type PrinterProfileView } from '../printer-profile';
import type { DiscoveredPrinterView, LabelPreviewView, PrintJobView, PrinterView } from '../views';
import { command, Empty, INPUT_LIMITS, TrackingNumberInput } from './define';

/** Commands of label printing: printers, profiles, print jobs, reprint and preview. */
export const printingCommands = {
  /** Print the stored label again (explicit packer request). */
  'labels.reprint': command<PrintJobView>()(TrackingNumberInput),
  /** What the printer in use will print for a shipment's stored label, as PNG (its profile's dpi and size). */
  'labels.preview': command<LabelPreviewView>()(TrackingNumberInput),

  /** The label printer in use and its status. */
  'printers.get': command<PrinterView>()(Empty),
  /** Choose the label printer by device URI (`socket://host:9100`, `file:///dir`). */
  'printers.set': command<PrinterView>()(
    z.object({ uri: z.string().trim().min(1, { error: 'Printer URI is required' }).max(INPUT_LIMITS.printerUri, { error: `Printer URI is too long (max ${INPUT_LIMITS.printerUri} characters)` }) }),
  ),
  /** Printers the packer can choose: attached USB label printers, OS print queues, network printers used before. */
  'printers.discover': command<DiscoveredPrinterView[]>()(Empty),
  /** A printer's saved profile (default: the printer in use); `profile` null when none is saved. */
  'printers.profile.get': command<PrinterProfileView>()(z.object({ uri: z.string().trim().min(1).max(INPUT_LIMITS.printerUri).optional() }).strict()),
  /** Save a printer's profile (dpi, label mm, darkness, speed, media, top offset in dots); errors name the field. */
  'printers.profile.set': command<PrinterProfileView>()(
    z.object({ uri: z.string().trim().min(1).max(INPUT_LIMITS.printerUri).optional(), profile: PrinterProfileSchema }).strict(),
  ),
  /** Print jobs still queued or printing, oldest first, with why they wait (`lastError`). */
  'printJobs.pending': command<PrintJobView[]>()(Empty),
  /** Cancel a waiting or held print job (it will not print by itself). */
  'printJobs.cancel': command<PrintJobView>()(z.object({ id: z.number().int().positive() })),
  /** Print a held label (longer than the labels loaded, issue 36) shrunk anyway; the printed job says so. */
  'printJobs.printShrunk': command<PrintJobView>()(z.object({ id: z.number({ error: 'id must be a print job number' }).int().positive() }).strict()),
} as const;
