/**
 * `npm run chaos`: the long chaos run (test/chaos/harness.ts). Prints one
 * JSON line `{"bench":"chaos","pressed","duplicates","missingLabels",
 * "doubleLabels","wrongOutcomes"}` and a human line with the rest.
 * Options: `--presses N` (60), `--seed S` (1), `--kills K` (10), `--no-holds`,
 * `--rate-limits` (sandbox and client limits on), `--verbose`.
 */
import { runChaos } from './harness';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v)) throw new Error(`${name} needs a number`);
  return v;
}

const holds = !process.argv.includes('--no-holds');
const verbose = process.argv.includes('--verbose');
const report = await runChaos({
  presses: arg('--presses', 60),
  batch: 3,
  seed: arg('--seed', 1),
  holdShare: holds ? 0.15 : 0,
  holdMs: [1_500, 3_000],
  serverErrorShare: 0.1,
  dropShare: 0.15,
  printerFaultShare: 0.15,
  kills: arg('--kills', 10),
  timeoutMs: 1_000,
  settleMs: 5_000,
  pollMs: 300,
  rateLimits: process.argv.includes('--rate-limits'),
  log: verbose ? (l) => process.stderr.write(`${l}\n`) : undefined,
});
const { pressed, duplicates, missingLabels, doubleLabels, wrongOutcomes } = report;
console.log(JSON.stringify({ bench: 'chaos', pressed, duplicates, missingLabels, doubleLabels, wrongOutcomes }));
console.log(
  `chaos (${holds ? 'holds on' : 'no holds'}, seed ${arg('--seed', 1)}): ${pressed} presses -> ${report.shipments} shipments on the platform, ${duplicates} paid duplicates, ${report.lost} lost; ` +
    `${report.kills} kill -9 (${Object.entries(report.killsByStep).map(([k, n]) => `${k} ${n}`).join(', ')}); labels: ${missingLabels} missing (${report.missingLabelsAfterPrinterFault} after a printer fault or a kill in the print path), ${doubleLabels} printed twice; ` +
    `${wrongOutcomes} wrong outcomes; ${report.confirmedResends} re-posts confirmed by the packer; ${(report.durationMs / 1000).toFixed(1)} s`,
);
for (const p of report.presses.filter((x) => x.wrong)) console.log(`  wrong: ${p.reference}: ${p.wrong}`);
