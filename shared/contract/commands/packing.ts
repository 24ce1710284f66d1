/** Commands of packing: scan to verify, items, box presets (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { BoxSettings } from '../boxes';
import { ItemInput, VerifyMismatchInput, VerifySettings, VerifySkipInput, type ItemView } from '../items';
import { command, Empty } from './define';

/** Commands of packing: scan to verify, items, box presets. */
export const packingCommands = {
  /** Scan-to-verify settings of this station (on/off, weight tolerance % and kg). */
  'verify.settings.get': command<VerifySettings>()(Empty),
  /** Saves the scan-to-verify settings; a bad tolerance is refused naming its field. */
  'verify.settings.set': command<VerifySettings>()(VerifySettings),
  /** Logs a skipped verification: the reason and the lines not scanned. */
  'verify.skip': command<{ id: number }>()(VerifySkipInput),
  /** Records a scan refused while verifying (a wrong item, one too many) for End of day's per-packer figures. */
  'verify.mismatch': command<{ recorded: boolean }>()(VerifyMismatchInput),
  /** Items whose SKU or barcode contains `q` (all when empty), by SKU. */
  'items.list': command<ItemView[]>()(z.object({ q: z.string().trim().max(100).optional() }).strict()),
  /** The items of these SKUs (the lines of an order being verified); unknown SKUs are absent. */
  'items.get': command<ItemView[]>()(z.object({ skus: z.array(z.string().trim().min(1).max(100)).max(200) }).strict()),
  /** Creates or replaces an item (its barcodes and unit weight); a barcode of another SKU is refused on `barcodes`. */
  'items.save': command<ItemView>()(ItemInput),
  /** Removes an item. */
  'items.delete': command<{ deleted: boolean }>()(z.object({ sku: z.string().trim().min(1).max(100) }).strict()),
  /** The station's box presets and default box (cm, kg). */
  'boxes.settings.get': command<BoxSettings>()(Empty),
  /** Saves the whole list of boxes; a refused value names its field (`presets.1.lengthCm`), nothing saved is lost. */
  'boxes.settings.set': command<BoxSettings>()(BoxSettings),
} as const;
