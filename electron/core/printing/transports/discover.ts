/**
 * Printer discovery (`printers.discover`): attached USB label printers and
 * the operating system's print queues. Network printers typed before come
 * from the station's settings (electron/core/printing/jobs/service.ts).
 */
import type { DiscoveredPrinterView } from '../../../../shared/contract/views';
import { listUsbPrinters, type UsbLibrary } from './usb-device';

/** Sources of {@link discoverPrinters}; each is optional. */
export interface DiscoverSources {
  /** The `usb` package's `usb` export, for attached USB printers. */
  usb?: UsbLibrary;
  /** Lists OS print queues (`listQueues` of ./queue). */
  queues?: () => Promise<Array<{ queue: string; uri: string; description?: string }>>;
}

/**
 * Lists USB printers (make, model, serial and the `usb://` URI; a device this
 * user may not open is listed by ids with the fix in its name) and print queues.
 * A source that fails is skipped (the others are still listed).
 */
export async function discoverPrinters(src: DiscoverSources): Promise<DiscoveredPrinterView[]> {
  const out: DiscoveredPrinterView[] = [];
  if (src.usb) {
    const found = await listUsbPrinters(src.usb).catch(() => []);
    for (const p of found) {
      const name = `${p.make} ${p.model}`.trim();
      out.push({ uri: p.uri, name: `${name} (USB${p.serial ? `, ${p.serial}` : ''})${p.error ? ` — ${p.error}` : ''}`, ...(p.error ? {} : { nameParts: { kind: 'usb' as const, what: `${name}${p.serial ? ` (${p.serial})` : ''}` } }), kind: 'usb', current: false });
    }
  }
  if (src.queues) {
    const queues = await src.queues().catch(() => []);
    for (const q of queues) {
      const what = `${q.queue}${q.description ? ` — ${q.description}` : ''}`;
      out.push({ uri: q.uri, name: `${what} (print queue)`, nameParts: { kind: 'queue', what }, kind: 'queue', current: false });
    }
  }
  return out;
}
