/**
 * `real-labels` bench line (issue 23): the whole matrix — every ZPL label of
 * the corpus at every target (203/300/600 dpi × 4×6 in, 100×150 mm, no
 * profile) — checked as in test/integration/core/printing/real-labels.test.ts,
 * which runs a subset in CI. Prints one JSON line and each failing barcode.
 */
import { stopZplPreviewWorker } from '../../electron/core/printing/zpl/preview';
import { PRINT_TARGETS } from '../support/label-barcodes';
import { checkLabel, originalBarcodes, realZplLabels } from '../support/real-labels';

/**
 * Runs the matrix and prints `{"bench":"real-labels","labels":…,"profiles":…,"barcodesOk":…,"barcodesTotal":…,"barcodesAtOriginalSize":…,"heldTooLong":…,"keptOriginalSize":…,"ms":…}`,
 * then each failing barcode, each barcode accepted at the carrier's size on a label shrunk to fit (with why),
 * each readable barcode not at 88–112 % of the carrier's size (issue 36's measure, `barcodesAtOriginalSize`), and each
 * label × target held as too long for its stock (`heldTooLong`; its barcodes are not counted: it does not print).
 */
export async function benchRealLabels(): Promise<void> {
  const t0 = performance.now();
  const labels = realZplLabels();
  let ok = 0;
  let total = 0;
  let atOriginal = 0;
  const smaller: string[] = [];
  const held: string[] = [];
  const problems: string[] = [];
  const kept: string[] = [];
  for (const { file, zpl } of labels) {
    for (const t of PRINT_TARGETS) {
      const c = await checkLabel(file, zpl, t).catch((e: unknown) => {
        // A render the engine refuses counts every barcode of the label as failed, and the run goes on.
        problems.push(`${file} @ ${t.name}: not rendered (${e instanceof Error ? e.message : String(e)})`);
        return null;
      });
      if (!c) {
        const n = (await originalBarcodes(file, zpl).catch(() => [])).length;
        total += n;
        continue;
      }
      // A label held as too long for the stock does not print: counted apart, its barcodes not checked.
      if (c.held !== null) {
        held.push(`${file} @ ${t.name}: ${c.held}`);
        continue;
      }
      for (const b of c.barcodes) {
        total++;
        if (b.atOriginalSize) atOriginal++;
        else if (b.problem === null) smaller.push(`${file} @ ${t.name}: ${b.text.slice(0, 24)} readable but not at 88–112 % of the carrier's size (${c.note})`);
        if (b.problem !== null) problems.push(`${file} @ ${t.name}: ${b.problem} (${c.note})`);
        else {
          ok++;
          if (b.note) kept.push(`${file} @ ${t.name}: ${b.text.slice(0, 24)} ${b.note}`);
        }
      }
    }
  }
  await stopZplPreviewWorker();
  console.log(JSON.stringify({ bench: 'real-labels', labels: labels.length, profiles: PRINT_TARGETS.length, barcodesOk: ok, barcodesTotal: total, barcodesAtOriginalSize: atOriginal, heldTooLong: held.length, keptOriginalSize: kept.length, ms: Math.round(performance.now() - t0) }));
  for (const p of problems) console.log(`  ${p}`);
  for (const k of kept) console.log(`  accepted: ${k}`);
  for (const s of smaller) console.log(`  smaller: ${s}`);
  for (const h of held) console.log(`  held: ${h}`);
}
