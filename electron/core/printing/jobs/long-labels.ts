/**
 * What the print queue does with a label longer than the stock loaded in the
 * printer it would print on (issue 36 item 2), once zpl/long-label.ts has
 * said how it would print there:
 *
 * - a shipping rule named a printer for this label's long labels
 *   (`longLabelPrinter`) and that is another printer: the job goes there,
 *   pinned, and is decided again with that printer's profile;
 * - text and lines past the stock's end: it prints at 100 % and the printed
 *   job's note says how much was left off;
 * - shrunk so every barcode keeps at least 90 % of its module: it prints,
 *   the note says to what size;
 * - more than that: the job is held with the sentence naming the label's size
 *   and the stock it needs, until the printer's profile or the printer changes
 *   (service.ts releases it) or the packer says to print it shrunk anyway
 *   (`shrinkAllowed`; the printed job says so).
 */
import { coreText } from '../../../../shared/contract/core-text';
import type { StationText } from '../../../../shared/contract/views';
import type { PrintJobRecord } from '../../store';
import type { LongLabelPlan } from '../zpl/long-label';

/** A job note with its core text (store/print-jobs-repo.ts keeps both). */
type Note = { message: string; text: StationText };

/** The runner's next step for a claimed job: print (with a note for the printed job), hold it, or send it to another printer. */
export type LongLabelStep = { kind: 'print'; note?: Note } | { kind: 'hold'; note: Note } | { kind: 'redirect'; printerUri: string; note: Note };

/**
 * The step for `job` on the printer at `printerUri`, given how its label would print there.
 * @param plan zpl/long-label.ts's plan for the label on that printer's stock; null when it fits (or is a PDF)
 */
export function longLabelStep(job: Pick<PrintJobRecord, 'shrinkAllowed' | 'longLabelPrinterUri'>, plan: LongLabelPlan | null, printerUri: string): LongLabelStep {
  if (!plan || plan.kind === 'fits') return { kind: 'print' };
  const to = job.longLabelPrinterUri;
  if (to !== null && to !== printerUri) return { kind: 'redirect', printerUri: to, note: coreText('jobLongLabelSent', { from: printerUri, to }) };
  if (plan.kind === 'cut') return { kind: 'print', note: coreText('jobPrintedCut', { mm: plan.leftOffMm }) };
  const percent = Math.round(plan.shrink * 100);
  if (plan.kind === 'shrunk') return { kind: 'print', note: coreText('jobPrintedShrunkToFit', { percent }) };
  if (job.shrinkAllowed) return { kind: 'print', note: coreText('jobPrintedShrunk', { percent, width: plan.inches.width, height: plan.inches.height }) };
  return { kind: 'hold', note: coreText('jobHeldTooLong', { ...plan.inches }) };
}
