/**
 * Property-based fuzz of every station command (issue 21, "No input reaches a
 * 500, no press waits in silence"): a training station (embedded sandbox,
 * labels to a temp folder) receives generated inputs for each command of the
 * contract through `invokeCommand`, the door both transports use. Counted:
 * internal errors (an `internal_error` answer or anything that is not a
 * StationError: what the headless host answers as 500) and calls over 1 s.
 * Used by the CI test (fixed seed, bounded count) and `npm run fuzz`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { commands, type CommandName } from '../../shared/contract/commands';
import { StationError } from '../../shared/contract/errors';
import { invokeCommand } from '../../electron/core/common/invoke';
import { startStation, type StartedStation } from '../../electron/shell/start';
import { inputArbitrary } from './arbitraries';

/** One call that broke a rule: the command, its input (JSON), what it answered and how long it took. */
interface FuzzFinding {
  command: string;
  input: string;
  answer: string;
  ms: number;
}

/** The slowest call of a run: which command, how long, and the shape of its input (see {@link inputShape}). */
interface SlowestCall {
  command: string;
  ms: number;
  shape: string;
}

/** Totals of a fuzz run. */
export interface FuzzReport {
  commands: number;
  inputs: number;
  internalErrors: number;
  over1s: number;
  maxMs: number;
  /** The slowest call (undefined when no call ran). */
  slowest?: SlowestCall;
  /** Each command's slowest call in ms, to find which one is slow without a profiler. */
  maxMsByCommand: Record<string, number>;
  /** The first findings (internal errors and slow calls), at most 20. */
  findings: FuzzFinding[];
}

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  /** fast-check seed (fixed in CI). */
  seed: number;
  /** Inputs per command. */
  perCommand: number;
  /** Only these commands (default: all of the contract). */
  only?: readonly CommandName[];
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

const SLOW_MS = 1000;

/**
 * A short description of a value's shape, for naming a slow input without
 * printing it: types, keys, array lengths and string lengths, e.g.
 * `{orderIds:array(4)<string(12)>,force:boolean}`. Nested deeper than
 * `depth` levels is `…`; the result is cut at 200 characters.
 */
export function inputShape(value: unknown, depth = 3): string {
  const shape = (v: unknown, d: number): string => {
    if (v === null) return 'null';
    if (Array.isArray(v)) {
      if (d <= 0) return `array(${v.length})`;
      const items = [...new Set(v.map((x) => shape(x, d - 1)))];
      return `array(${v.length})${items.length ? `<${items.slice(0, 3).join('|')}${items.length > 3 ? '|…' : ''}>` : ''}`;
    }
    if (typeof v === 'string') return `string(${v.length})`;
    if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) < 1e6 ? 'number' : `number(${v})`;
    if (typeof v !== 'object') return typeof v;
    if (d <= 0) return '{…}';
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}:${shape(x, d - 1)}`).join(',')}}`;
  };
  const text = shape(value, depth);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** A small Shopify export so that order ids, numbers and shops exist for the generated inputs to hit. */
function seedCsv(): string {
  const head = 'Name,Email,Financial Status,Fulfillment Status,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku,Shipping Name,Shipping Street,Shipping City,Shipping Zip,Shipping Province,Shipping Country,Shipping Phone,Total';
  const rows = [
    '#1001,a@example.com,paid,,2026-11-20 10:00:00 +0100,1,Vaso,20.00,VASO-1,Giulia Bianchi,Via Torino 15,Milano,20123,MI,IT,+39 333 1234567,20.00',
    '#1002,b@example.com,pending,,2026-11-20 11:00:00 +0100,2,Tazza,8.00,TAZ-2,Marco Rossi,Via Roma 1,Livigno,23041,SO,IT,+39 333 7654321,16.00',
    '#2236,c@example.com,paid,,2026-11-20 12:00:00 +0100,1,Shirt,15.00,SH-1,Ona Kazlauskienė,Gedimino pr. 1,Vilnius,01103,,LT,+370 600 00000,15.00',
  ];
  return [head, ...rows].join('\n');
}

/**
 * Runs the fuzz: each command gets `perCommand` generated inputs, in a fixed
 * order, against one training station in a temp data folder (removed after).
 * @returns the totals and the first findings; never throws for a finding.
 */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-fuzz-'));
  const labels = path.join(dataDir, 'labels');
  const log = opts.log ?? (() => undefined);
  const report: FuzzReport = { commands: 0, inputs: 0, internalErrors: 0, over1s: 0, maxMs: 0, maxMsByCommand: {}, findings: [] };
  let station: StartedStation | undefined;
  const silent = () => undefined;
  try {
    station = await startStation({ dataDir, platform: { mode: 'sandbox' }, printerUri: `file://${labels}`, ignoredArgs: [] }, { log: silent });
    const handlers = station.handlers;
    await invokeCommand(handlers, 'orders.importCsv', { fileName: 'seed.csv', content: seedCsv(), shop: 'main' }, { log: silent });
    await invokeCommand(handlers, 'orders.importCsv', { fileName: 'seed.csv', content: seedCsv(), shop: 'constructor' }, { log: (l) => log(l) });
    const names = (opts.only ?? (Object.keys(commands) as CommandName[])).filter((n) => !n.endsWith('.changed'));
    for (const [i, name] of names.entries()) {
      const samples = fc.sample(inputArbitrary(commands[name].input), { seed: opts.seed + i, numRuns: opts.perCommand });
      report.commands++;
      for (const input of samples) {
        report.inputs++;
        const started = performance.now();
        let answer = 'ok';
        let internal = false;
        try {
          await invokeCommand(handlers, name, input, { log: silent });
        } catch (e) {
          if (e instanceof StationError) {
            answer = `${e.code}: ${e.message}`;
            internal = e.code === 'internal_error';
          } else {
            answer = `not a StationError: ${String(e)}`;
            internal = true;
          }
        }
        const ms = performance.now() - started;
        if (ms > report.maxMs) report.slowest = { command: name, ms: Math.round(ms), shape: inputShape(input) };
        report.maxMs = Math.max(report.maxMs, ms);
        report.maxMsByCommand[name] = Math.max(report.maxMsByCommand[name] ?? 0, Math.round(ms));
        if (internal) report.internalErrors++;
        if (ms > SLOW_MS) report.over1s++;
        if ((internal || ms > SLOW_MS) && report.findings.length < 20) {
          report.findings.push({ command: name, input: JSON.stringify(input)?.slice(0, 400) ?? 'undefined', answer: answer.slice(0, 300), ms: Math.round(ms) });
        }
      }
      log(`${name}: ${samples.length} inputs`);
    }
  } finally {
    await station?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}
