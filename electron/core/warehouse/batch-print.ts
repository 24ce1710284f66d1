/**
 * A batch of labels ahead the supervisor sent to this bench's printer (issue 43 item 5): the bench hears of it on
 * NOTIFY `warehouse_batches` (payload: its id) and looks at each heartbeat, prints each label's ZPL in the batch's
 * order on its label printer, then says which were printed (`batch_printed`). A printer that fails stops the
 * batch with its error: the labels printed stay printed, the rest go back to waiting for another batch.
 */
import { coreText } from '../../../shared/contract/core-text';
import type { LabelBatch, LabelsAheadStore } from '../common/labels-ahead';
import { coalesced } from './coalesced';

/** What {@link createBatchPrinter} needs: the warehouse's labels ahead (null while away), the raw printer, the log. */
export interface BatchPrinterDeps {
  labelsAhead: () => LabelsAheadStore | null;
  printRaw: (zpl: Uint8Array, jobName: string) => Promise<void>;
  log: (line: string) => void;
}

/** Prints one batch; returns the ids printed and the error that stopped it, if any. */
async function printBatch(deps: BatchPrinterDeps, batch: LabelBatch): Promise<{ printed: number[]; error: string | null }> {
  const printed: number[] = [];
  for (const label of batch.labels) {
    try {
      if (!label.labelZpl) throw new Error(`label ${label.trackingNumber ?? label.id} has no ZPL (a PDF label is printed when its order is shipped)`);
      await deps.printRaw(Buffer.from(label.labelZpl, 'base64'), label.trackingNumber ?? `ahead-${label.id}`);
      printed.push(label.id);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return { printed, error: coreText('aheadBatchFailed', { batch: batch.id, printed: printed.length, total: batch.labels.length, reason }).message };
    }
  }
  return { printed, error: null };
}

/** The bench's batch printer: call the returned function on NOTIFY and at each heartbeat (one run at a time). Never throws. */
export function createBatchPrinter(deps: BatchPrinterDeps): () => Promise<void> {
  return coalesced(async () => {
    const store = deps.labelsAhead();
    if (!store) return;
    let batches: LabelBatch[];
    try {
      batches = await store.waitingBatches();
    } catch {
      return;
    }
    for (const batch of batches) {
      const { printed, error } = await printBatch(deps, batch);
      try {
        await store.batchPrinted(batch.id, printed, error);
      } catch (e) {
        deps.log(`labels ahead: batch ${batch.id} printed (${printed.length} labels) but the warehouse was not told: ${(e as Error).message}`);
        return;
      }
      deps.log(error ?? `labels ahead: batch ${batch.id} printed, ${printed.length} labels`);
      if (error) return;
    }
  });
}
