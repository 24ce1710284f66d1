/**
 * The print job a label's print request joins or creates (DESIGN.md "Print
 * jobs are rows too": nothing prints twice without the packer).
 */
import type { PrintJobRecord, PrintRequester, Store } from '../../store';

/**
 * Where an `auto` print goes, given by the core: `printerUri` the printer a shipping rule named (the job is
 * pinned to it), `longLabelPrinterUri` the one it names for labels longer than the stock (issue 36).
 */
export interface PrintTarget {
  printerUri?: string | undefined;
  longLabelPrinterUri?: string | undefined;
}

/**
 * In one transaction: an `auto` request returns the label's `auto` job (created with the shipment, or now:
 * never a second automatic print); a reprint joins the label's job still queued, printing or held, else goes
 * where the label went (the rule's printer when its first print was pinned to one, with its long-label
 * printer), else to the printer in use.
 * @param inUse device URI of the label printer in use
 * @throws StoreError / SQLite errors of the print-jobs repository (unknown label)
 */
export function jobForLabel(store: Store, labelId: number, requestedBy: PrintRequester, inUse: string, target?: PrintTarget): PrintJobRecord {
  return store.tx(() => {
    if (requestedBy === 'auto') {
      const longLabelPrinterUri = target?.longLabelPrinterUri ?? null;
      return target?.printerUri
        ? store.printJobs.ensureAuto(labelId, target.printerUri, { pinned: true, longLabelPrinterUri }).job
        : store.printJobs.ensureAuto(labelId, inUse, { longLabelPrinterUri }).job;
    }
    const open = store.printJobs.openForLabel(labelId);
    if (open) return open;
    const auto = store.printJobs.autoForLabel(labelId);
    const longLabelPrinterUri = auto?.longLabelPrinterUri ?? null;
    if (auto?.pinned) return store.printJobs.enqueue({ labelId, printerUri: auto.printerUri, requestedBy, pinned: true, longLabelPrinterUri });
    return store.printJobs.enqueue({ labelId, printerUri: inUse, requestedBy, longLabelPrinterUri });
  });
}
