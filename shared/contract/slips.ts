/**
 * Packing slips (issue 11 "Packing slips"): the station's slip settings and
 * the slip jobs as the screens see them. A slip lists what is in the box:
 * shop, order number (also as a Code 128 to scan back), date, recipient, the
 * lines (SKU, title, quantity), notes, and the tracking number once shipped.
 */
import { z } from 'zod';

/** Per-station slip settings. `printerUri` null: no slip printer. */
export const SlipSettings = z.object({
  /** Device URI of the slip printer: `socket://host:9100`, `usb://…`, `printer:<queue>`, `file:///folder`; null for none. */
  printerUri: z
    .string()
    .trim()
    .max(500, { error: 'Slip printer URI is too long (max 500 characters)' })
    .transform((u) => (u === '' ? null : u))
    .nullable(),
  /** `escpos`: a receipt printer (Epson TM-T20/T88, Star…); `a4`: an A4 PDF page (a folder or an OS print queue). */
  format: z.enum(['escpos', 'a4'], { error: 'Slip format is escpos (receipt printer) or a4' }),
  /** Receipt paper width in mm (ESC/POS only): 80 mm = 48 characters a line, 58 mm = 32. */
  paperWidthMm: z.union([z.literal(80), z.literal(58)], { error: 'Paper width is 80 or 58 mm' }),
  /** `with_label`: printed with every label of an order; `on_demand`: Alt+K; `never`. */
  when: z.enum(['with_label', 'on_demand', 'never'], { error: 'When to print is with_label, on_demand or never' }),
  /** Shop name at the top of the slip, for orders of the station's own shop (`main`); other shops print their own name. */
  shopName: z.string().trim().max(60, { error: 'Shop name is at most 60 characters' }),
});
export type SlipSettings = z.output<typeof SlipSettings>;

/** A slip job on screen (see electron/core/store/slip-jobs-repo.ts). */
export interface SlipJobView {
  id: number;
  orderId: number;
  orderNumber: string;
  trackingNumber: string | null;
  printerUri: string;
  format: 'escpos' | 'pdf';
  state: 'queued' | 'printing' | 'printed' | 'failed';
  attempts: number;
  /** Why it waits (queued) or failed. */
  lastError: string | null;
  requestedBy: 'auto' | 'reprint';
  createdAt: string;
  printedAt: string | null;
}
