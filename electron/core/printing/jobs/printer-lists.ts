/**
 * Two read-only answers of the printer service (./service.ts): the preview of
 * what the printer in use will print for a stored label, and the printers to
 * choose from.
 */
import type { DiscoveredPrinterView, LabelPreviewView, PageRestView } from '../../../../shared/contract/views';
import { StationError } from '../../../../shared/contract/errors';
import type { PrinterProfile } from '../../../../shared/contract/printer-profile';
import { renderZplPreview } from '..';
import type { Store } from '../../store';
import type { AdaptedLabel } from './label-bytes';
import type { PageCrop } from '../pdf/page-rest';
import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM, PrinterHistorySetting, kindOf, printerNameOf } from './service-api';

/**
 * The label of `trackingNumber` as the printer at `uri` will print it: the very bytes a job would send, rendered
 * back to PNG (at most 4 labels) at the profile's dpi and label size (else `dpi` and 4 × 6 in).
 * @throws StationError `not_found_locally` (no label stored), `printer_error` (the ZPL engine refused it)
 */
export async function previewLabel(
  deps: { store: Store; uri: string; profile: PrinterProfile | null; dpi: 203 | 300; adapted: (format: string, bytes: Uint8Array) => Promise<AdaptedLabel>; pageRest: (crops: readonly PageCrop[]) => PageRestView | null },
  trackingNumber: string,
): Promise<LabelPreviewView> {
  const { store, uri, profile } = deps;
  const label = store.labels.getLatest(trackingNumber, 'ZPL') ?? store.labels.getLatest(trackingNumber, 'PDF');
  if (!label) throw new StationError('not_found_locally', `No label is stored for ${trackingNumber}`);
  const size = profile ? { widthMm: profile.widthMm, heightMm: profile.heightMm } : { widthMm: LABEL_WIDTH_MM, heightMm: LABEL_HEIGHT_MM };
  const at = profile?.dpi ?? deps.dpi;
  const { bytes, adaptation, adaptationNotes, inkMm, crops } = await deps.adapted(label.format, label.bytes);
  try {
    const { pngs, labelCount } = await renderZplPreview(new TextDecoder('utf-8').decode(bytes), { dpi: at, maxLabels: 4, labelMm: size });
    return { trackingNumber, printerUri: uri, dpi: at, ...size, labelCount, pngs: pngs.map((p) => p.toString('base64')), adaptation, adaptationNotes, inkMm, pageRest: deps.pageRest(crops) };
  } catch (e) {
    throw new StationError('printer_error', `The label of ${trackingNumber} could not be previewed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Printers to choose from, without duplicates: the one in use (first), what `discover` finds (USB, OS queues;
 * a failed search is logged and finds nothing), then the printers chosen before.
 */
export async function listPrinters(deps: { store: Store; inUse: string; discover?: (() => Promise<DiscoveredPrinterView[]>) | undefined; log: (line: string) => void }): Promise<DiscoveredPrinterView[]> {
  const found = deps.discover ? await deps.discover().catch((e: unknown) => (deps.log(`printer discovery: ${String(e)}`), [])) : [];
  const out: DiscoveredPrinterView[] = [];
  const seen = new Set<string>();
  const add = (d: DiscoveredPrinterView): void => {
    if (seen.has(d.uri)) return;
    seen.add(d.uri);
    out.push({ ...d, current: d.uri === deps.inUse });
  };
  add({ ...printerNameOf(deps.inUse), kind: kindOf(deps.inUse), current: true });
  found.forEach(add);
  for (const uri of deps.store.settings.get(PrinterHistorySetting)) add({ ...printerNameOf(uri), kind: kindOf(uri), current: false });
  return out;
}
