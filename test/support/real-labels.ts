/**
 * The real-label proof of issue 23, shared by the integration test and the
 * bench: every corpus label (test/fixtures/labels/real/) is sent through the
 * station's adaptation for a target (fitZplToStock, then the profile when
 * there is one, as printing.ts does), the bytes are rendered and decoded
 * (label-barcodes.ts), and every barcode of the original, as decoded on the
 * original rendered at the dpi it was made for, is checked on the printed
 * label: same value, inside the stock, size within ±12 %, narrow bar not
 * narrower than the original by more than one dot. PDF417 symbols are
 * measured on a model of what the printer draws from `^B7`/`^BY`, on the
 * original and on what was sent alike (pdf417-model.ts says why).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fitZplToStock } from '../../electron/core/printing/zpl/label-fit';
import { applyProfile } from '../../electron/core/printing/zpl/profile';
import { checkBarcode, dpmmOf, measureMaxiCodes, measureZpl, type MeasuredBarcode, type PrintTarget } from './label-barcodes';
import { measurePdf417s } from './pdf417-model';

/** Folder of the corpus (one file a label, sources in SOURCES.md). */
const REAL_LABELS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/labels/real');

/** Every label file of the corpus (ZPL and PDF), by name. */
export function realLabelFiles(): string[] {
  return fs
    .readdirSync(REAL_LABELS_DIR)
    .filter((f) => /\.(zpl|pdf)$/.test(f))
    .sort();
}

/** The text of the corpus's SOURCES.md (one table row a file: `| file | source … |`). */
export function realLabelSources(): string {
  return fs.readFileSync(path.join(REAL_LABELS_DIR, 'SOURCES.md'), 'utf8');
}

/** The ZPL labels of the corpus, by file name. */
export function realZplLabels(): Array<{ file: string; zpl: string }> {
  return fs
    .readdirSync(REAL_LABELS_DIR)
    .filter((f) => f.endsWith('.zpl'))
    .sort()
    .map((file) => ({ file, zpl: fs.readFileSync(path.join(REAL_LABELS_DIR, file), 'latin1') }));
}

const originals = new Map<string, MeasuredBarcode[]>();

/** PDF417s are measured on the printer's model (pdf417-model.ts), not on the renderer's 2-dot drawing. */
const notRendererPdf417 = (b: MeasuredBarcode): boolean => b.format !== 'PDF417';

/** The barcodes of a label as the carrier made it: rendered at 203 dpi on a 4 × 8 in canvas (nothing cut). */
export async function originalBarcodes(file: string, zpl: string): Promise<MeasuredBarcode[]> {
  const known = originals.get(file);
  if (known) return known;
  const found = [
    ...(await measureZpl(zpl, 101.6, 203.2, 8)).flatMap((l) => l.barcodes).filter(notRendererPdf417),
    ...(await measureMaxiCodes(zpl, 101.6, 203.2, 8)),
    ...(await measurePdf417s(zpl, 101.6, 203.2, 8)),
  ];
  originals.set(file, found);
  return found;
}

/** One label at one target: what the station noted and each barcode's problem (null = right). */
export interface LabelCheck {
  file: string;
  target: string;
  note: string;
  shrink: number;
  /** The sentence the job is held with when the label is too long for the stock (issue 36); null when it prints. */
  held: string | null;
  /** Each barcode of the original: its problem (null = right) and, when right at a size other than the plain one, why. */
  barcodes: Array<{ text: string; problem: string | null; note: string | null; atOriginalSize: boolean }>;
}

/** What the station sends for a label at a target (fitZplToStock, then the profile when there is one, as printing.ts does), and how it was fitted. */
export async function sentFor(zpl: string, t: PrintTarget): Promise<{ sent: string; fit: Awaited<ReturnType<typeof fitZplToStock>> }> {
  const fit = await fitZplToStock(zpl, { dpi: t.dpi, stockMm: t.stockMm });
  const profile = { dpi: t.dpi, widthMm: t.stockMm.width, heightMm: t.stockMm.height, darkness: 20, speedIps: 4, media: 'direct_thermal' as const, topOffsetDots: 0 };
  return { sent: t.profile ? applyProfile(fit.zpl, profile, { sourceDpi: t.dpi }) : fit.zpl, fit };
}

/** Adapts, renders, decodes and checks one corpus label at one target. */
export async function checkLabel(file: string, zpl: string, t: PrintTarget): Promise<LabelCheck> {
  const orig = await originalBarcodes(file, zpl);
  const { sent, fit } = await sentFor(zpl, t);
  const printed = [
    ...(await measureZpl(sent, t.stockMm.width, t.stockMm.height, dpmmOf(t.dpi))).flatMap((l) => l.barcodes).filter(notRendererPdf417),
    ...(await measureMaxiCodes(sent, t.stockMm.width, t.stockMm.height, dpmmOf(t.dpi))),
    ...(await measurePdf417s(sent, t.stockMm.width, t.stockMm.height, dpmmOf(t.dpi))),
  ];
  const opts = { stockMm: t.stockMm, dotMm: 1 / dpmmOf(t.dpi), shrink: fit.adaptation.shrink };
  return {
    file,
    target: t.name,
    note: fit.adaptation.note,
    shrink: fit.adaptation.shrink,
    held: fit.adaptation.heldTooLong ?? null,
    barcodes: orig.map((o) => ({ text: o.text, ...checkBarcode(o, printed, opts) })),
  };
}
