/**
 * The label printer in use and the print job runner (DESIGN.md "Print jobs
 * are rows too", "Devices"). Every print is a `print_jobs` row, printed by one
 * runner in id order:
 *
 * - Before a job, the runner asks the printer for its status when the last
 *   answer is older than {@link STATUS_MAX_AGE_MS}. While the printer reports
 *   a fault (off/unreachable, out of paper, head open, paused, ribbon out...)
 *   every queued job waits with that reason in `lastError`; the runner asks
 *   again every `retryMs` (and at once on USB re-attach or a printer switch)
 *   and prints them by itself, in order, once the printer is ready.
 * - A job whose bytes never reached the printer (no connection, device gone
 *   before the first byte) goes back to `queued`; one that broke mid-way is
 *   `failed` (part of the label may have printed): only the packer reprints it.
 * - After the bytes are out, a printer that answers `~HS` is asked until its
 *   buffer is empty (no formats waiting, no labels remaining) before the job
 *   is `printed`; while it holds the label (paper ran out mid-job) the job
 *   stays `printing` with a note. A printer that never answers status is
 *   `unknown`: its jobs are `printed` when the bytes are accepted, as before.
 * - Nothing prints twice without the packer: a second `auto` print of a label
 *   returns the first job, and a reprint while the label is still waiting
 *   joins the waiting job instead of adding one.
 *
 * - A label longer than the stock loaded (issue 36): a rule's printer for long
 *   labels takes it, else it prints cut or shrunk with a note on the job, or
 *   is held for the packer (./long-labels.ts). Held jobs are tried again when
 *   the printer's profile or the printer in use changes, and print shrunk
 *   when the packer says so (`printShrunk`).
 * - A job pinned to a printer (a shipping rule named the label printer,
 *   issue 24) prints on that printer with its profile, whatever the printer
 *   in use; the runner opens it when a job needs it. While it is not ready its
 *   jobs wait with the reason and the other jobs go on. Its label counts as
 *   printed once the bytes are accepted (its buffer is not watched), and its
 *   state is not the header's.
 *
 * Labels are printed from the bytes stored when the shipment was created, so
 * printing never needs the network.
 */
import type { PrinterView, StationText } from '../../../../shared/contract/views';
import { StationError } from '../../../../shared/contract/errors';
import { coreText, coreTextNesting } from '../../../../shared/contract/core-text';
import { issuesToDetails } from '../../../../shared/platform/common';
import { PrinterProfileSchema, type PrinterProfile } from '../../../../shared/contract/printer-profile';
import { PrinterError, type LabelPrinter, type PrinterStatus } from '..';
import { adaptLabel, type AdaptedLabel } from './label-bytes';
import { jobForLabel } from './job-for-label';
import { longLabelStep } from './long-labels';
import { listPrinters, previewLabel } from './printer-lists';
import { createPageRestSender, type PageCrop } from '../pdf/page-rest';
import type { PrintJobRecord } from '../../store';
import { errorSummary } from '../../common/errors';
import { printJobView } from './job-views';
import { LabelPrinterSetting, PrinterHistorySetting, PrinterProfilesSetting, PRINTER_HISTORY_MAX, STATUS_MAX_AGE_MS, SILENT_RECHECK_MS, PrinterServiceOptions, printerView, printerNameOf, HOLD, waitReason, Terminal, boundedStatus, printOutcome, jobNote } from './service-api';
import type { PrintOutcome, PrinterService } from '../../common/services';

/**
 * Builds the printer service and its job runner on an opened printer.
 * @throws PrinterError when `opts.uri` cannot be opened.
 */
export function createPrinterService(opts: PrinterServiceOptions): PrinterService {
  const { store, events } = opts;
  const dpi = opts.dpi ?? 203;
  const retryMs = opts.retryMs ?? 3000;
  const confirmPollMs = opts.confirmPollMs ?? 250;
  const confirmMaxMs = opts.confirmMaxMs ?? 60_000;
  const waitMs = opts.waitMs ?? 15_000;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const statusTimeoutMs = opts.statusTimeoutMs ?? 8000;
  const probeMs = opts.probeMs ?? 5000;

  let printer = opts.open(opts.uri);
  // The rest of an A4 PDF page (a sender's or waybill copy) goes to the A4 printer when one is set (page-rest.ts).
  const pageRest = createPageRestSender({ a4Printer: opts.a4Printer ?? (() => null), open: opts.open, nameOf: printerNameOf, log });
  let last: PrinterView = printerView(printer.uri, 'unknown', 'Not checked yet', { key: 'notChecked' });
  let lastAt = -Infinity;
  let lastBuffer: PrinterStatus['buffer'];
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  /** Printers other than the one in use, opened for the jobs pinned to them, by device URI. */
  const others = new Map<string, LabelPrinter>();

  // Runner state: one pump at a time; `again` asks the running pump for one more round.
  let pumping: Promise<void> | null = null;
  let again = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const waiters = new Map<number, Array<(t: Terminal) => void>>();

  function publish(v: PrinterView): void {
    const changed = v.state !== last.state || v.detail !== last.detail || v.uri !== last.uri;
    last = v;
    if (changed) opts.onStatus?.(v);
  }

  function watch(p: LabelPrinter): void {
    unsubscribe?.();
    const offA = p.on?.('attached', () => {
      lastAt = -Infinity;
      void view().then(() => kick());
    });
    const offD = p.on?.('detached', () => {
      publish(printerView(p.uri, 'unreachable', 'Printer unplugged', { key: 'unplugged' }));
      lastAt = now();
    });
    unsubscribe = () => {
      offA?.();
      offD?.();
    };
  }
  watch(printer);

  async function ask(p: LabelPrinter): Promise<PrinterView> {
    const s = await boundedStatus(p, statusTimeoutMs);
    if (p !== printer) return last;
    lastAt = now();
    lastBuffer = s.buffer;
    const v: PrinterView = printerView(p.uri, s.state, s.detail, s.detailText);
    publish(v);
    return v;
  }

  async function view(timeoutMs?: number): Promise<PrinterView> {
    const current = printer;
    const status = ask(current);
    let timer: NodeJS.Timeout | undefined;
    const answer =
      timeoutMs === undefined
        ? await status
        : await Promise.race([
            status,
            new Promise<null>((resolve) => {
              timer = setTimeout(() => resolve(null), timeoutMs);
              timer.unref();
            }),
          ]).finally(() => clearTimeout(timer));
    if (answer && !HOLD.has(answer.state) && store.printJobs.nextQueued()) kick();
    return answer ?? last;
  }

  /** Status to decide a job on: the cached one when fresh enough (or when the printer is known not to answer). */
  async function statusBeforeJob(p: LabelPrinter): Promise<PrinterView> {
    const age = now() - lastAt;
    if (last.uri === p.uri && last.state === 'ready' && age < STATUS_MAX_AGE_MS) return last;
    if (last.uri === p.uri && last.state === 'unknown' && age < SILENT_RECHECK_MS && lastAt > -Infinity) return last;
    return ask(p);
  }

  function settle(id: number, t: Terminal): void {
    const ws = waiters.get(id);
    if (!ws) return;
    waiters.delete(id);
    for (const w of ws) w(t);
  }

  function emit(job: PrintJobRecord, t?: Terminal): void {
    events.emit('printJobs.changed', printJobView(job));
    if (t) settle(job.id, t);
  }

  function scheduleRetry(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      lastAt = -Infinity; // ask the printer again
      kick();
    }, retryMs);
    retryTimer.unref?.();
  }

  /** The jobs of the printer in use wait (unpinned ones, and those pinned to it); `pinnedTo`: only the jobs pinned to that other printer. */
  function park(v: PrinterView, pinnedTo?: string): void {
    const reason = waitReason(v);
    const changed = pinnedTo !== undefined ? store.printJobs.setWaiting(reason, pinnedTo) : [...store.printJobs.setWaiting(reason), ...store.printJobs.setWaiting(reason, v.uri)];
    for (const j of changed) emit(j);
    // Jobs already carrying the same reason are waiting too: wake their callers.
    for (const j of store.printJobs.list({ state: 'queued', limit: 1000 })) {
      const its = j.pinned ? j.printerUri === (pinnedTo ?? v.uri) : pinnedTo === undefined;
      if (its) settle(j.id, 'waiting');
    }
    scheduleRetry();
  }

  /** The printer a pinned job goes to, opened once; undefined (the job failed, naming the URI) when it cannot be opened. */
  function otherPrinter(job: PrintJobRecord): LabelPrinter | undefined {
    const open = others.get(job.printerUri);
    if (open) return open;
    try {
      const p = opts.open(job.printerUri);
      others.set(job.printerUri, p);
      return p;
    } catch (e) {
      const err = errorSummary(e);
      try {
        const claimed = store.printJobs.claimFor(job.id, job.printerUri);
        emit(store.printJobs.markFailed(claimed.id, coreText('jobRulePrinterUnusable', { uri: job.printerUri, reason: err.message }), { retry: false }), 'failed');
      } catch {
        // cancelled meanwhile
      }
      return undefined;
    }
  }

  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref?.());

  /**
   * After the bytes are out: asks the printer until its buffer is empty.
   * Returns the job as it ends (printed or failed).
   */
  async function confirm(p: LabelPrinter, job: PrintJobRecord, bytes: number, printedNote?: { message: string; text: StationText }): Promise<PrintJobRecord> {
    const printed = (): PrintJobRecord => store.printJobs.markPrinted(job.id, bytes, printedNote);
    if (last.state === 'unknown' || lastBuffer === undefined) return printed();
    const t0 = now();
    let note = '';
    let offSince: number | null = null;
    for (;;) {
      // Stopping: the job stays `printing`; the next start fails it as interrupted (never reprinted on its own).
      if (closed) return job;
      if (p !== printer) return printed();
      const v = await ask(p);
      if (v.state === 'unknown' || lastBuffer === undefined) return printed();
      if (v.state === 'unreachable') {
        offSince ??= now();
        // A printer switched off with the label in its buffer loses it: the packer decides.
        if (now() - offSince > retryMs * 3) {
          return store.printJobs.markFailed(job.id, coreText('jobWentOff', { detail: v.detail }), {
            retry: false,
            bytesWritten: bytes,
          });
        }
      } else {
        offSince = null;
        if (lastBuffer.formats === 0 && lastBuffer.labelsRemaining === 0) return printed();
        if (!HOLD.has(v.state) && now() - t0 > confirmMaxMs) return printed();
      }
      if (HOLD.has(v.state)) {
        const n = waitReason(v, true);
        if (n.message !== note) {
          note = n.message;
          emit(store.printJobs.notePrinting(job.id, n), 'waiting');
        }
        await sleep(retryMs);
      } else {
        await sleep(confirmPollMs);
      }
    }
  }

  /** Prints one claimed job; true when the runner may go on with the next one. */
  async function run(p: LabelPrinter, claimed: PrintJobRecord): Promise<boolean> {
    let job = claimed;
    emit(job);
    const label = store.labels.get(job.labelId);
    if (!label) {
      emit(store.printJobs.markFailed(job.id, coreText('jobLabelGone'), { retry: false }), 'failed');
      return true;
    }
    let zpl: Uint8Array;
    let crops: PageCrop[];
    let longLabel: AdaptedLabel['longLabel'];
    try {
      ({ bytes: zpl, crops, longLabel } = await adaptedFor(label.format, label.bytes, p.uri));
    } catch (e) {
      emit(store.printJobs.markFailed(job.id, coreText('jobCannotConvert', { reason: e instanceof Error ? e.message : String(e) }), { retry: false }), 'failed');
      return true;
    }
    // Longer than the stock (issue 36): the rule's printer for long labels, held for the packer, or printed with a note.
    const step = longLabelStep(job, longLabel, p.uri);
    if (step.kind === 'redirect') {
      emit(store.printJobs.redirect(job.id, step.printerUri, step.note));
      return true;
    }
    if (step.kind === 'hold') {
      emit(store.printJobs.hold(job.id, step.note), 'held');
      return true;
    }
    let result;
    try {
      const profile = profileOf(p.uri);
      result = await p.print(zpl, { jobName: job.trackingNumber, ...(profile ? { media: { dpi: profile.dpi, widthMm: profile.widthMm, heightMm: profile.heightMm } } : {}) });
    } catch (e) {
      const err = errorSummary(e);
      if (e instanceof PrinterError && e.delivered === 'none') {
        // Nothing reached the printer: the job waits and goes out by itself later.
        lastAt = -Infinity;
        job = store.printJobs.markFailed(job.id, jobNote('jobWaiting', err), { retry: true });
        if (!closed && p === printer) publish(printerView(p.uri, err.code === 'printer_error' ? 'error' : 'unreachable', err.message, err.text));
        emit(job, 'waiting');
        scheduleRetry();
        return false;
      }
      emit(store.printJobs.markFailed(job.id, jobNote(e instanceof PrinterError && e.delivered === 'partial' ? 'jobFailedPartial' : 'jobFailed', err), { retry: false }), 'failed');
      return true;
    }
    // The label's bytes are out: the rest of its A4 page(s), if any, to the A4 printer (in the background).
    pageRest.send(job.trackingNumber, label.bytes, crops);
    job = await confirm(p, job, result.bytesWritten, step.note);
    emit(job, job.state === 'printed' ? 'printed' : job.state === 'failed' ? 'failed' : 'waiting');
    return true;
  }

  /** Prints a job pinned to another printer than the one in use; false when that printer is not ready (its jobs wait). */
  async function runPinned(job: PrintJobRecord): Promise<boolean> {
    const p = otherPrinter(job);
    if (!p) return true;
    const s = await boundedStatus(p, statusTimeoutMs);
    if (HOLD.has(s.state)) {
      park(printerView(p.uri, s.state, s.detail, s.detailText), p.uri);
      return false;
    }
    let claimed: PrintJobRecord;
    try {
      claimed = store.printJobs.claimFor(job.id, p.uri);
    } catch {
      return true; // cancelled meanwhile
    }
    return run(p, claimed);
  }

  async function pumpOnce(): Promise<void> {
    // This round: pinned printers found not ready, and whether the printer in use is.
    const skipPinned: string[] = [];
    let held = false;
    for (;;) {
      again = false;
      if (closed) return;
      const next = store.printJobs.nextQueued({ skipPinned: held ? [...skipPinned, printer.uri] : skipPinned, pinnedOnly: held });
      if (!next) return;
      if (next.pinned && next.printerUri !== printer.uri) {
        if (!(await runPinned(next))) skipPinned.push(next.printerUri);
        continue;
      }
      const p = printer;
      const v = await statusBeforeJob(p);
      if (p !== printer) continue;
      if (HOLD.has(v.state)) {
        park(v);
        held = true;
        continue;
      }
      let claimed: PrintJobRecord;
      try {
        claimed = store.printJobs.claimFor(next.id, p.uri);
      } catch {
        continue; // cancelled meanwhile
      }
      if (!(await run(p, claimed))) held = true;
    }
  }

  function kick(): void {
    if (closed) return;
    if (pumping) {
      again = true;
      return;
    }
    if (retryTimer) {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    }
    pumping = pumpOnce()
      .catch((e: unknown) => log(`print job runner: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        pumping = null;
        if (again) kick();
      });
  }

  const outcomeOf = (job: PrintJobRecord | undefined): PrintOutcome => printOutcome(job, last.state);

  /** Held jobs back in the queue (their printer's profile or the printer in use changed), then the runner. */
  function retryHeld(which: { printerUri?: string; unpinned?: boolean }): void {
    for (const j of store.printJobs.releaseHeld(which)) emit(j);
    kick();
  }

  async function await_(id: number): Promise<PrintOutcome> {
    const done = new Promise<Terminal | 'timeout'>((resolve) => {
      const list = waiters.get(id) ?? [];
      list.push(resolve);
      waiters.set(id, list);
      setTimeout(() => resolve('timeout'), waitMs).unref?.();
    });
    kick();
    await done;
    return outcomeOf(store.printJobs.get(id));
  }

  function profileOf(uri: string): PrinterProfile | null {
    return store.settings.get(PrinterProfilesSetting)[uri] ?? null;
  }

  /** The bytes sent for a stored label to the printer at `uri`, with how they were adapted and the PDF crops (./label-bytes.ts). */
  function adaptedFor(format: string, bytes: Uint8Array, uri: string): Promise<AdaptedLabel> {
    return adaptLabel(format, bytes, profileOf(uri), dpi);
  }

  return {
    get uri() {
      return printer.uri;
    },
    getProfile(uri = printer.uri) {
      return { uri, profile: profileOf(uri) };
    },
    setProfile(input, uri = printer.uri) {
      const parsed = PrinterProfileSchema.safeParse(input);
      if (!parsed.success) {
        const details = issuesToDetails(parsed.error.issues);
        throw new StationError('invalid_input', `Printer profile not saved: ${Object.values(details).flat().join('; ')}`, details);
      }
      store.settings.set(PrinterProfilesSetting, { ...store.settings.get(PrinterProfilesSetting), [uri]: parsed.data });
      // Labels held as too long for this printer's stock are tried again on the new profile (issue 36).
      retryHeld({ printerUri: uri, unpinned: uri === printer.uri });
      return { uri, profile: parsed.data };
    },
    view,
    // After the runner's round in progress, so a batch's label does not cut into a label job on the same printer.
    printRaw: async (zpl, jobName) => void (await pumping?.catch(() => undefined), await printer.print(zpl, { jobName })),
    cached: () => last,
    async setUri(uri) {
      const next = opts.open(uri);
      // Probe before saving (issue 7.7): a device that does not answer in time, or a folder that cannot be
      // written, is refused and nothing changes. A network printer that is merely off is accepted: its jobs wait.
      const probe = await boundedStatus(next, probeMs);
      if (probe.code) {
        await next.close().catch(() => undefined);
        const said = coreTextNesting('printerNotSaved', { uri: next.uri }, { detail: { message: probe.detail, ...(probe.detailText ? { text: probe.detailText } : {}) } });
        throw new PrinterError(probe.code, said.message, { text: said.text });
      }
      const old = printer;
      printer = next;
      watch(next);
      lastAt = -Infinity;
      lastBuffer = undefined;
      publish(printerView(next.uri, 'unknown', 'Not checked yet', { key: 'notChecked' }));
      store.settings.set(LabelPrinterSetting, next.uri);
      const history = [next.uri, ...store.settings.get(PrinterHistorySetting).filter((u) => u !== next.uri)].slice(0, PRINTER_HISTORY_MAX);
      store.settings.set(PrinterHistorySetting, history);
      await old.close().catch(() => undefined);
      const v = await view();
      // Held labels that follow the printer in use are tried again on this one's stock (issue 36).
      retryHeld({ unpinned: true });
      kick();
      return v;
    },
    preview: (trackingNumber) =>
      previewLabel({ store, uri: printer.uri, profile: profileOf(printer.uri), dpi, adapted: (format, bytes) => adaptedFor(format, bytes, printer.uri), pageRest: (crops) => pageRest.view(crops) }, trackingNumber),
    async printLabel(trackingNumber, requestedBy, target) {
      // ZPL when the carrier gave one; else its PDF, rasterised for the printer when the job runs.
      const label = store.labels.getLatest(trackingNumber, 'ZPL') ?? store.labels.getLatest(trackingNumber, 'PDF');
      if (!label) throw new StationError('not_found_locally', `No label is stored for ${trackingNumber}`);
      let job: PrintJobRecord;
      try {
        // The shipment's `auto` job is created with the shipment (shipping/shipment-executor.ts): never a second automatic print.
        job = jobForLabel(store, label.id, requestedBy, printer.uri, target);
      } catch (e) {
        return { job: null, error: errorSummary(e) };
      }
      if (job.state === 'printed' || job.state === 'failed' || job.state === 'held') return outcomeOf(job);
      if (job.attempts === 0 && job.lastError === null) emit(job);
      return await_(job.id);
    },
    discover: () => listPrinters({ store, inUse: printer.uri, discover: opts.discover, log }),
    async printShrunk(id) {
      const job = store.printJobs.get(id);
      if (!job) throw new StationError('not_found_locally', `Print job ${id} is not known at this station`);
      if (job.state !== 'held') throw new StationError('invalid_state', `Print job ${id} is ${job.state}; only a held label can be printed shrunk`, { id: [`The job is ${job.state}, not held`] });
      emit(store.printJobs.allowShrunk(id));
      return await_(id);
    },
    pending: () =>
      store.printJobs
        .list({ state: ['queued', 'printing', 'held'], limit: 1000 })
        .reverse()
        .map(printJobView),
    cancel(id) {
      const job = store.printJobs.get(id);
      if (!job) throw new StationError('not_found_locally', `Print job ${id} is not known at this station`);
      if (job.state !== 'queued' && job.state !== 'held') throw new StationError('invalid_state', `Print job ${id} is ${job.state}; only a waiting or held job can be cancelled`);
      const done = store.printJobs.cancelQueued(id, 'cancelled by the packer');
      emit(done, 'failed');
      return printJobView(done);
    },
    kick,
    async idle() {
      while (pumping) await pumping;
      await pageRest.idle();
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      unsubscribe?.();
      for (const id of [...waiters.keys()]) settle(id, 'waiting');
      await pumping;
      for (const p of others.values()) await p.close().catch(() => undefined);
      others.clear();
      await pageRest.idle();
      await printer.close();
    },
  };
}
