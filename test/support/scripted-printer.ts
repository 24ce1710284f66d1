/**
 * A label printer for the print job runner's tests (electron/core/printing/jobs/service.ts): its status and
 * each job's outcome are set by the test; what it printed is kept as text.
 */
import { PrinterError, type LabelPrinter, type PrinterStatus } from '../../electron/core/printing';

/** A printer whose status and job outcome the test sets. */
export class ScriptedPrinter implements LabelPrinter {
  status_: PrinterStatus = { state: 'ready', detail: 'Ready', buffer: { formats: 0, labelsRemaining: 0 } };
  /** Next print outcomes (shifted per job); empty = accept. */
  outcomes: Array<'ok' | 'refused' | 'reset'> = [];
  /** Answers to give after a job, before returning to `status_` (buffer draining). */
  afterJob: PrinterStatus[] = [];
  readonly printed: string[] = [];
  statusCalls = 0;
  private listeners = new Map<string, Set<() => void>>();
  constructor(readonly uri = 'socket://10.0.0.9:9100') {}
  print(zpl: Uint8Array): Promise<{ bytesWritten: number; durationMs: number }> {
    const o = this.outcomes.shift() ?? 'ok';
    if (o === 'refused') return Promise.reject(new PrinterError('printer_unreachable', 'refused', { delivered: 'none' }));
    if (o === 'reset') return Promise.reject(new PrinterError('printer_error', 'dropped mid-job', { delivered: 'partial' }));
    this.printed.push(Buffer.from(zpl).toString('utf8'));
    return Promise.resolve({ bytesWritten: zpl.byteLength, durationMs: 1 });
  }
  status(): Promise<PrinterStatus> {
    this.statusCalls++;
    return Promise.resolve(this.afterJob.shift() ?? this.status_);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  on(e: 'attached' | 'detached', l: () => void): () => void {
    const set = this.listeners.get(e) ?? new Set();
    set.add(l);
    this.listeners.set(e, set);
    return () => set.delete(l);
  }
  fire(e: 'attached' | 'detached'): void {
    for (const l of this.listeners.get(e) ?? []) l();
  }
}
