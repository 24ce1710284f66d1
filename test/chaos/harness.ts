/**
 * The chaos run of issues 7 and 16: presses of Ship against a platform that
 * holds posts past the station's timeout, answers 5xx, drops answers after
 * committing, a label printer that is off, stalls or is out of paper, and
 * kill -9 of the station process at each step of the outbox and the print
 * path. Used by the CI test (test/integration/chaos) and `npm run chaos`.
 *
 * What is measured, per press (one order each, reference = order number):
 * - on the platform: how many shipments carry its reference (what was
 *   charged): more than one is a duplicate, none is a lost press;
 * - at the printer: how many labels carry its tracking number: none is a
 *   missing label, more than one a double label;
 * - on the screen: the press's own answer. Wrong when a press is answered
 *   with another row's error (its own row never failed that way), told
 *   "created" with a shipment that is not its own, told "needs attention"
 *   while nothing refused it, or told "queued" for a row that needs the packer.
 * The packer's part is played too: a row that needs the confirmation to post
 * again (`outcome_unknown`) is confirmed only when the platform shows no
 * shipment for its reference (what a packer checks in the panel).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { ShipResult } from '../../shared/contract/commands';
import { outcomeOfCode } from '../../shared/contract/outbox-outcome';
import type { OutboxListView, OutboxRowView } from '../../shared/contract/views';
import { mulberry32 } from '../../shared/domain/random';
import type { StationOrder } from '../../shared/domain/order';
import { generateShopifyCsv } from '../fixtures/shopify/generate-shopify-csv';
import { createSandbox } from '../../electron/sandbox/index';
import type { ChildConfig } from './station-child';
import { startChaosPrinter, type PrinterMode } from './label-printer';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Knobs of a run. Times in ms. */
export interface ChaosOptions {
  presses: number;
  /** Presses sent at once (one worker batch). */
  batch: number;
  seed: number;
  /** Share of POST /shipments the platform holds past the timeout. */
  holdShare: number;
  /** Hold length range [min, max]. */
  holdMs: [number, number];
  serverErrorShare: number;
  /** Share of batches whose first committed POST loses its answer. */
  dropShare: number;
  /** Share of batches with a printer fault (off, stall, paper out; back to ready after the batch). */
  printerFaultShare: number;
  /** kill -9 of the station, spread over the run, cycling through the steps. */
  kills: number;
  timeoutMs: number;
  settleMs: number;
  pollMs: number;
  /** Sandbox and client rate limits on. */
  rateLimits: boolean;
  log?: (line: string) => void;
}

/** Where a kill lands. */
type KillStep = 'post-in-flight' | 'after-platform-commit' | 'after-local-commit' | 'label-at-printer' | 'random-moment';
const KILL_STEPS: KillStep[] = ['post-in-flight', 'after-platform-commit', 'after-local-commit', 'label-at-printer', 'random-moment'];

/** One press and what became of it. */
interface PressRecord {
  reference: string;
  answer: { ok: true; trackingNumber: string; reference: string } | { ok: false; code: string; message: string } | { ok: 'killed' };
  /** Own row right after the answer (state and last error code). A press killed with the station is pressed again after the restart. */
  rowAfter: { state: string; code: string | null } | null;
  platformHadItAtAnswer: boolean;
  printerFault: PrinterMode | null;
  killStep: KillStep | null;
  /** Pressed again after the station was killed under the first press. */
  repressed: boolean;
  shipments: number;
  labels: number;
  wrong: string | null;
}

/** Figures of a run. */
export interface ChaosReport {
  pressed: number;
  shipments: number;
  duplicates: number;
  lost: number;
  missingLabels: number;
  /** Missing labels of presses whose batch had a printer fault or a kill in the print path. */
  missingLabelsAfterPrinterFault: number;
  doubleLabels: number;
  wrongOutcomes: number;
  kills: number;
  killsByStep: Record<string, number>;
  confirmedResends: number;
  durationMs: number;
  presses: PressRecord[];
}

interface Child {
  proc: ChildProcess;
  call<T>(name: string, input?: unknown): Promise<T>;
  kill(): void;
  /** Makes the child kill itself right after its next outbox commit. */
  armAfterCommit(): void;
  exited: Promise<void>;
  alive: boolean;
}

class ChildDied extends Error {}

function startChild(cfg: ChildConfig, log: (l: string) => void): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test', 'chaos', 'station-child.ts')], {
    cwd: ROOT,
    env: { ...process.env, CHAOS_STATION: JSON.stringify(cfg) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let nextId = 1;
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
    if (process.env.CHAOS_VERBOSE) log(d.toString('utf8').trimEnd());
  });
  const child: Child = {
    proc,
    alive: true,
    call<T>(name: string, input: unknown = {}) {
      if (!child.alive) return Promise.reject(new ChildDied('station not running'));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        proc.stdin?.write(`${JSON.stringify({ id, name, input })}\n`);
      });
    },
    kill() {
      if (child.alive) proc.kill('SIGKILL');
    },
    armAfterCommit() {
      proc.stdin?.write(`${JSON.stringify({ arm: 'after-commit' })}\n`);
    },
    exited: new Promise((resolve) => proc.once('exit', () => resolve())),
  };
  void child.exited.then(() => {
    child.alive = false;
    for (const p of pending.values()) p.reject(new ChildDied('station killed'));
    pending.clear();
  });
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: proc.stdout! });
    rl.on('line', (line) => {
      let msg: { ready?: boolean; id?: number; ok?: boolean; value?: unknown; error?: unknown };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (msg.ready) return resolve(child);
      const p = msg.id !== undefined ? pending.get(msg.id) : undefined;
      if (!p || msg.id === undefined) return;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(msg.error);
    });
    void child.exited.then(() => reject(new Error(`station child exited before ready:\n${stderr}`)));
  });
}

/** Runs the chaos scenario; resolves with the figures. */
export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  const random = mulberry32(opts.seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const sb = await createSandbox({ port: 0, rateLimits: opts.rateLimits });
  const printer = await startChaosPrinter();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-chaos-'));
  const demo = sb.clients[0]!;
  const admin = `${new URL(sb.baseUrl).origin}/__sandbox`;
  const faults = async (body: unknown) => {
    const res = await fetch(`${admin}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`faults refused: ${await res.text()}`);
  };
  const base: ChildConfig = {
    dataDir,
    baseUrl: sb.baseUrl,
    authUrl: sb.authUrl,
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
    printerUri: printer.uri,
    timeoutMs: opts.timeoutMs,
    settleMs: opts.settleMs,
    pollMs: opts.pollMs,
    printerTimeoutMs: 800,
    rateLimits: opts.rateLimits,
  };
  const platformCount = (reference: string) => sb.state.shipments.filter((s) => s.reference === reference).length;

  let child = await startChild(base, log);
  const killsByStep: Record<string, number> = {};
  let kills = 0;
  const restart = async () => {
    await child.exited;
    child = await startChild(base, log);
  };

  const records: PressRecord[] = [];
  let confirmedResends = 0;
  try {
    await child.call('orders.importCsv', { fileName: 'chaos.csv', content: generateShopifyCsv(opts.presses, { seed: opts.seed }) });
    const batches = Math.ceil(opts.presses / opts.batch);
    const killAt = new Map<number, KillStep>();
    for (let k = 0; k < Math.min(opts.kills, batches); k++) {
      killAt.set(Math.floor(((k + 0.5) * batches) / Math.min(opts.kills, batches)), KILL_STEPS[k % KILL_STEPS.length]!);
    }
    await faults({ seed: opts.seed, serverErrorShare: opts.serverErrorShare > 0 ? opts.serverErrorShare : null });

    for (let b = 0; b < batches; b++) {
      const refs: string[] = [];
      for (let i = b * opts.batch; i < Math.min(opts.presses, (b + 1) * opts.batch); i++) refs.push(`#${1001 + i}`);
      const step = killAt.get(b) ?? null;
      const holdMs = Math.round(opts.holdMs[0] + random() * (opts.holdMs[1] - opts.holdMs[0]));
      await faults({
        hold: opts.holdShare > 0 || step === 'post-in-flight' ? { ms: holdMs, share: opts.holdShare, ...(step === 'post-in-flight' ? { next: 1 } : {}) } : null,
        dropAfterCommit: random() < opts.dropShare ? { next: 1 } : null,
      });
      const fault: PrinterMode | null = random() < opts.printerFaultShare ? pick<PrinterMode>(['off', 'stall', 'paper_out']) : null;
      if (fault) await printer.setMode(fault);

      // Orders with nothing to ship (the generator's gift cards) are not pressed.
      const resolved = await Promise.all(refs.map((r) => child.call<{ kind: string; order?: StationOrder }>('scan.resolve', { code: r })));
      const orders = resolved.filter((x): x is { kind: string; order: StationOrder } => x.kind === 'order' && x.order !== undefined && x.order.status === 'open');
      refs.splice(0, refs.length, ...orders.map((x) => x.order.orderNumber));
      // Arm the kill of this batch.
      const stopWatch: Array<() => void> = [];
      if (step) {
        kills++;
        killsByStep[step] = (killsByStep[step] ?? 0) + 1;
        const victim = child;
        if (step === 'after-platform-commit') stopWatch.push(sb.state.events.on('shipment.created', () => victim.kill()));
        else if (step === 'label-at-printer') {
          printer.onLabel = () => victim.kill();
          stopWatch.push(() => (printer.onLabel = null));
        } else if (step === 'post-in-flight') {
          const t = setTimeout(() => victim.kill(), Math.max(50, Math.min(holdMs, opts.timeoutMs) / 2));
          stopWatch.push(() => clearTimeout(t));
        } else if (step === 'random-moment') {
          const t = setTimeout(() => victim.kill(), Math.round(50 + random() * 600));
          stopWatch.push(() => clearTimeout(t));
        } else if (step === 'after-local-commit') {
          victim.armAfterCommit();
        }
      }
      const press = async (runner: Child, reference: string, o: StationOrder, rec: PressRecord): Promise<PressRecord> => {
          const r = o.recipient;
          const request = {
            recipient: { name: r.name, address: { street: r.street, city: r.city, postalCode: r.postalCode, countryCode: r.countryCode, ...(r.province ? { province: r.province } : {}) } },
            packages: [{ weight: { value: 1.2, units: 'KG' }, dimensions: { length: 30, width: 20, height: 10, units: 'CM' } }],
          };
          try {
            const res = await runner.call<ShipResult>('shipping.shipOrder', { orderId: o.id, request });
            rec.answer = { ok: true, trackingNumber: res.shipment.trackingNumber ?? '', reference: res.shipment.reference ?? '' };
          } catch (e) {
            if (e instanceof ChildDied) return rec;
            const err = e as { code: string; message: string };
            rec.answer = { ok: false, code: err.code, message: err.message };
            rec.platformHadItAtAnswer = platformCount(reference) > 0;
            const list = await runner.call<OutboxListView>('outbox.list', { doneLimit: 200 }).catch(() => null);
            const row = [...(list?.pending ?? []), ...(list?.done ?? [])].find((x) => x.reference === reference);
            if (row) rec.rowAfter = { state: row.state, code: row.lastError?.code ?? null };
          }
          return rec;
      };
      const runner = child;
      const answers = await Promise.all(
        refs.map((reference, i) =>
          press(runner, reference, orders[i]!.order, { reference, answer: { ok: 'killed' }, rowAfter: null, platformHadItAtAnswer: false, printerFault: fault, killStep: step, repressed: false, shipments: 0, labels: 0, wrong: null }),
        ),
      );
      if (step === 'after-local-commit' || step === 'label-at-printer' || step === 'after-platform-commit') {
        // Give the armed kill time to land on this batch's work.
        await Promise.race([child.exited, new Promise((r) => setTimeout(r, 1_000))]);
      }
      stopWatch.forEach((f) => f());
      if (fault) await printer.setMode('ready');
      if (!child.alive || step) {
        child.kill();
        await restart();
      }
      // A press whose screen died is pressed again by the packer after the restart.
      for (let i = 0; i < answers.length; i++) {
        const a = answers[i]!;
        if (a.answer.ok !== 'killed') continue;
        answers[i] = await press(child, a.reference, orders[i]!.order, { ...a, answer: { ok: 'killed' }, repressed: true });
      }
      records.push(...answers);
      log(`${((Date.now() - started) / 1000).toFixed(1)}s batch ${b + 1}/${batches}: ${answers.map((a) => `${a.reference}=${a.answer.ok === true ? 'created' : a.answer.ok === 'killed' ? 'killed' : a.answer.code}`).join(' ')}${step ? ` [kill: ${step}]` : ''}${fault ? ` [printer: ${fault}]` : ''}`);
    }

    // Calm: no faults; the station finishes its queue; the packer confirms what only they can.
    await faults({ hold: null, serverErrorShare: null, dropAfterCommit: null, carrierError: null });
    await printer.setMode('ready');
    const deadline = Date.now() + opts.settleMs * 3 + 60_000;
    for (;;) {
      const list = await child.call<OutboxListView>('outbox.list', { doneLimit: 0 });
      const open = list.pending.filter((r: OutboxRowView) => r.state !== 'needs_attention' || r.canConfirmResend);
      for (const r of list.pending.filter((x) => x.canConfirmResend)) {
        if (r.reference && platformCount(r.reference) === 0) {
          await child.call('outbox.confirmResend', { id: r.id });
          confirmedResends++;
        } else await child.call('outbox.retry', { id: r.id });
      }
      if (open.length === 0) break;
      log(`${((Date.now() - started) / 1000).toFixed(1)}s calm: ${JSON.stringify(list.pending.map((r) => [r.reference, r.state, r.lastError?.code]))}`);
      if (Date.now() > deadline) throw new Error(`the queue did not drain: ${JSON.stringify(list.pending.map((r) => [r.reference, r.state, r.lastError?.code]))}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // Labels still printing at the end.
    await new Promise((r) => setTimeout(r, 1_500));
  } finally {
    child.kill();
    await child.exited;
  }

  // Accounting.
  const byRef = new Map<string, string[]>();
  for (const s of sb.state.shipments) {
    if (!s.reference) continue;
    byRef.set(s.reference, [...(byRef.get(s.reference) ?? []), s.trackingNumber]);
  }
  let duplicates = 0;
  let lost = 0;
  let missing = 0;
  let missingFault = 0;
  let double = 0;
  let wrong = 0;
  for (const rec of records) {
    const ldvs = byRef.get(rec.reference) ?? [];
    rec.shipments = ldvs.length;
    if (ldvs.length > 1) duplicates += ldvs.length - 1;
    if (ldvs.length === 0) lost++;
    rec.labels = printer.labels.filter((z) => ldvs.some((t) => z.includes(t))).length;
    if (ldvs.length > 0 && rec.labels === 0) {
      missing++;
      if (rec.printerFault || rec.killStep === 'label-at-printer' || rec.killStep === 'random-moment') missingFault++;
    }
    if (rec.labels > 1) double++;
    const a = rec.answer;
    if (a.ok === true) {
      if (a.reference !== rec.reference || !ldvs.includes(a.trackingNumber)) rec.wrong = `created ${a.trackingNumber} (${a.reference}), not its own`;
    } else if (a.ok === false) {
      const said = outcomeOfCode(a.code);
      const row = rec.rowAfter;
      if (said === 'needs_attention') {
        // Pressed again after a kill: "already shipped" is the truth when the restarted station finished it first.
        if (rec.repressed && a.code === 'invalid_state' && ldvs.length === 1) rec.wrong = null;
        else if (a.code !== 'outcome_unknown') rec.wrong = `needs attention (${a.code}) though nothing refused it`;
        else if (rec.platformHadItAtAnswer) rec.wrong = 'asked the packer although the platform had the shipment';
      } else if (row && row.state === 'needs_attention') {
        rec.wrong = `said queued (${a.code}) for a row that needs attention (${row.code})`;
      } else if (row && row.state === 'queued' && a.code !== 'queued' && row.code !== a.code) {
        rec.wrong = `answered ${a.code}, its own row failed with ${row.code ?? 'nothing'}`;
      }
    }
    if (rec.wrong) wrong++;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  await printer.close();
  await sb.close();
  return {
    pressed: records.length,
    shipments: sb.state.shipments.length,
    duplicates,
    lost,
    missingLabels: missing,
    missingLabelsAfterPrinterFault: missingFault,
    doubleLabels: double,
    wrongOutcomes: wrong,
    kills,
    killsByStep,
    confirmedResends,
    durationMs: Date.now() - started,
    presses: records,
  };
}
