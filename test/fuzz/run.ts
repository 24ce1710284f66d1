/**
 * `npm run fuzz`: the long fuzz run over every command (see harness.ts).
 * Prints progress lines, the findings, and one JSON line
 * `{"bench":"fuzz","commands":…,"inputs":…,"internalErrors":0,"over1s":0}`.
 * Options: `--per-command N` (default 400), `--seed N` (default: time).
 * Exits 1 when a call answered an internal error or took over 1 s.
 */
import { runFuzz } from './harness';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

const seed = option('--seed', Date.now() % 1_000_000);
const perCommand = option('--per-command', 400);
const report = await runFuzz({ seed, perCommand, log: (l) => console.log(l) });
for (const f of report.findings) console.log(`finding: ${f.command} ${f.ms} ms ${f.answer}\n  input: ${f.input}`);
console.log(`fuzz: seed ${seed}, ${report.commands} commands, ${report.inputs} inputs, ${report.internalErrors} internal errors, ${report.over1s} over 1 s, slowest ${Math.round(report.maxMs)} ms`);
console.log(JSON.stringify({ bench: 'fuzz', seed, commands: report.commands, inputs: report.inputs, internalErrors: report.internalErrors, over1s: report.over1s, maxMs: Math.round(report.maxMs) }));
process.exit(report.internalErrors || report.over1s ? 1 : 0);
