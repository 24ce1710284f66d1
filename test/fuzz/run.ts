/**
 * `npm run fuzz`: the long fuzz run over every command (see harness.ts).
 * Prints progress lines, the findings, and one JSON line
 * `{"bench":"fuzz","commands":…,"inputs":…,"internalErrors":0,"over1s":0,"maxMs":…,
 * "slowest":{"command":…,"ms":…,"shape":…}}` (shape: the slowest input's types,
 * keys and lengths, not its text).
 * Options: `--per-command N` (default 400), `--seed N` (default: time),
 * `--only a.b,c.d` (only these commands), `--by-command` (each command's
 * slowest call, slowest first, before the JSON line).
 * Exits 1 when a call answered an internal error or took over 1 s.
 */
import { commands, type CommandName } from '../../shared/contract/commands';
import { runFuzz } from './harness';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

const seed = option('--seed', Date.now() % 1_000_000);
const perCommand = option('--per-command', 400);
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',').filter((n): n is CommandName => Object.hasOwn(commands, n)) : undefined;
const report = await runFuzz({ seed, perCommand, only, log: (l) => console.log(l) });
if (process.argv.includes('--by-command')) {
  for (const [name, ms] of Object.entries(report.maxMsByCommand).sort((a, b) => b[1] - a[1])) console.log(`slowest of ${name}: ${ms} ms`);
}
for (const f of report.findings) console.log(`finding: ${f.command} ${f.ms} ms ${f.answer}\n  input: ${f.input}`);
console.log(`fuzz: seed ${seed}, ${report.commands} commands, ${report.inputs} inputs, ${report.internalErrors} internal errors, ${report.over1s} over 1 s, slowest ${Math.round(report.maxMs)} ms`);
console.log(JSON.stringify({ bench: 'fuzz', seed, commands: report.commands, inputs: report.inputs, internalErrors: report.internalErrors, over1s: report.over1s, maxMs: Math.round(report.maxMs), slowest: report.slowest }));
process.exit(report.internalErrors || report.over1s ? 1 : 0);
