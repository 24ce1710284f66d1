/** The contract's view of a print job row (shared/contract/views.ts PrintJobView). */
import type { PrintJobView } from '../../../../shared/contract/views';
import type { PrintJobRecord } from '../../store';

/** Print job view of a row (drops the label id and update time). */
export function printJobView(j: PrintJobRecord): PrintJobView {
  return {
    id: j.id,
    trackingNumber: j.trackingNumber,
    printerUri: j.printerUri,
    state: j.state,
    attempts: j.attempts,
    lastError: j.lastError,
    ...(j.lastErrorText ? { lastErrorText: j.lastErrorText } : {}),
    bytesWritten: j.bytesWritten,
    requestedBy: j.requestedBy,
    createdAt: j.createdAt,
    printedAt: j.printedAt,
  };
}
