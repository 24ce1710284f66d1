/**
 * Zebra host status (`~HS`, ZPL II Programming Guide): the printer answers
 * with three strings, each `<STX>...<ETX><CR><LF>`:
 *
 * 1. `aaa,b,c,dddd,eee,f,g,h,iii,j,k,l`: communication settings, paper out,
 *    pause, label length (dots), formats in receive buffer, buffer full,
 *    communications diagnostic mode, partial format, unused, corrupt RAM,
 *    under temperature, over temperature;
 * 2. `mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www`: function settings, unused, head up,
 *    ribbon out, thermal transfer mode, print mode, print width mode, label
 *    waiting, labels remaining in batch, format while printing, graphics stored;
 * 3. `xxxx,y`: password, static RAM installed.
 */
import type { PrinterStatus } from '../types';

/** The `~HS` command bytes. */
const HOST_STATUS_COMMAND = '~HS';

const STX = '\x02';
const ETX = '\x03';

/** Decoded `~HS` flags. Counts are integers; flags are true when the printer reports `1`. */
export interface HostStatus {
  paperOut: boolean;
  paused: boolean;
  labelLengthDots: number;
  formatsInBuffer: number;
  bufferFull: boolean;
  diagnosticMode: boolean;
  partialFormat: boolean;
  corruptRam: boolean;
  underTemperature: boolean;
  overTemperature: boolean;
  headUp: boolean;
  ribbonOut: boolean;
  thermalTransfer: boolean;
  /** Print mode letter/digit: 0 rewind, 1 peel-off, 2 tear-off, 3 cutter, 4 applicator, 5 delayed cut, 6 linerless peel, 7 linerless rewind, 8 partial cutter, 9 RFID, K kiosk, S stream, ... */
  printMode: string;
  labelWaiting: boolean;
  labelsRemaining: number;
  graphicsStored: number;
}

/**
 * The `<STX>...<ETX>` bodies found in `text` so far, in order. A body whose
 * `<ETX>` has not arrived yet is not included.
 */
export function hostStatusFrames(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const s = text.indexOf(STX, from);
    if (s < 0) break;
    const e = text.indexOf(ETX, s + 1);
    if (e < 0) break;
    out.push(text.slice(s + 1, e));
    from = e + 1;
  }
  return out;
}

const flag = (v: string | undefined): boolean => v?.trim() === '1';
const int = (v: string | undefined): number => {
  const n = Number.parseInt(v?.trim() ?? '', 10);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Decodes the three `~HS` strings (bodies without STX/ETX).
 * @throws Error when a string has too few fields to be a `~HS` answer
 */
export function parseHostStatus(frames: readonly string[]): HostStatus {
  const [s1 = '', s2 = ''] = frames;
  const a = s1.split(',');
  const b = s2.split(',');
  if (frames.length < 3 || a.length < 12 || b.length < 10) {
    throw new Error(`not a ~HS answer (${frames.length} strings; fields ${a.length}/${b.length}, expected 12/11)`);
  }
  return {
    paperOut: flag(a[1]),
    paused: flag(a[2]),
    labelLengthDots: int(a[3]),
    formatsInBuffer: int(a[4]),
    bufferFull: flag(a[5]),
    diagnosticMode: flag(a[6]),
    partialFormat: flag(a[7]),
    corruptRam: flag(a[9]),
    underTemperature: flag(a[10]),
    overTemperature: flag(a[11]),
    headUp: flag(b[2]),
    ribbonOut: flag(b[3]),
    thermalTransfer: flag(b[4]),
    printMode: (b[5] ?? '').trim(),
    labelWaiting: flag(b[7]),
    labelsRemaining: int(b[8]),
    graphicsStored: int(b[10]),
  };
}

const PRINT_MODES: Record<string, string> = {
  '0': 'rewind',
  '1': 'peel-off',
  '2': 'tear-off',
  '3': 'cutter',
  '4': 'applicator',
  '5': 'delayed cut',
  '6': 'linerless peel',
  '7': 'linerless rewind',
  '8': 'partial cutter',
  '9': 'RFID',
  K: 'kiosk',
  S: 'stream',
};

/**
 * Maps `~HS` flags to a station state. Precedence: head open, paper out,
 * faults (ribbon out in thermal transfer mode, head too hot/cold, corrupt
 * RAM) as `error`, paused, then ready. `detail` lists every condition found,
 * then the print mode and queued formats.
 */
export function hostStatusToPrinterStatus(hs: HostStatus): PrinterStatus {
  const problems: string[] = [];
  if (hs.headUp) problems.push('Printhead open');
  if (hs.paperOut) problems.push('Out of paper');
  const faults: string[] = [];
  if (hs.ribbonOut && hs.thermalTransfer) faults.push('Ribbon out');
  if (hs.overTemperature) faults.push('Printhead too hot');
  if (hs.underTemperature) faults.push('Printhead too cold');
  if (hs.corruptRam) faults.push('Corrupt RAM (configuration lost)');
  problems.push(...faults);
  if (hs.paused) problems.push('Paused');
  if (hs.bufferFull) problems.push('Receive buffer full');
  const state: PrinterStatus['state'] = hs.headUp ? 'head_open' : hs.paperOut ? 'paper_out' : faults.length ? 'error' : hs.paused ? 'paused' : 'ready';
  const info: string[] = [];
  const mode = PRINT_MODES[hs.printMode];
  if (mode) info.push(`${mode} mode`);
  if (hs.formatsInBuffer > 0) info.push(`${hs.formatsInBuffer} format${hs.formatsInBuffer === 1 ? '' : 's'} waiting`);
  if (hs.labelsRemaining > 0) info.push(`${hs.labelsRemaining} label${hs.labelsRemaining === 1 ? '' : 's'} left in batch`);
  const head = problems.length ? problems.join('; ') : 'Ready';
  return {
    state,
    detail: info.length ? `${head} (${info.join(', ')})` : head,
    buffer: { formats: hs.formatsInBuffer, labelsRemaining: hs.labelsRemaining },
  };
}

/** The `~HQES` command bytes (host query, extended status). */
const EXTENDED_STATUS_COMMAND = '~HQES';

/** Decoded `~HQES` answer: error and warning flags (group 1, lowest 32 bits). */
export interface ExtendedStatus {
  errors: number;
  warnings: number;
  mediaOut: boolean;
  ribbonOut: boolean;
  headOpen: boolean;
  cutterFault: boolean;
  headOverTemperature: boolean;
  motorOverTemperature: boolean;
  badHeadElement: boolean;
  headDetectionError: boolean;
}

/**
 * Decodes the body of a `~HQES` answer (ZPL II Programming Guide, `~HQ`
 * "ES" query):
 * ```
 *   PRINTER STATUS
 *    ERRORS:         1 00000000 00000005
 *    WARNINGS:       0 00000000 00000000
 * ```
 * The last group of 8 hex digits holds the flags: 1 media out, 2 ribbon out,
 * 4 head open, 8 cutter fault, 10 head over temperature, 20 motor over
 * temperature, 40 bad head element, 80 head detection error.
 * @returns undefined when `body` is not a `~HQES` answer
 */
export function parseExtendedStatus(body: string): ExtendedStatus | undefined {
  const err = /ERRORS:\s*([01])\s+([0-9A-Fa-f]{8})\s+([0-9A-Fa-f]{8})/.exec(body);
  const warn = /WARNINGS:\s*([01])\s+([0-9A-Fa-f]{8})\s+([0-9A-Fa-f]{8})/.exec(body);
  if (!err) return undefined;
  const errors = err[1] === '1' ? parseInt(err[3] ?? '0', 16) : 0;
  const warnings = warn && warn[1] === '1' ? parseInt(warn[3] ?? '0', 16) : 0;
  return {
    errors,
    warnings,
    mediaOut: (errors & 0x1) !== 0,
    ribbonOut: (errors & 0x2) !== 0,
    headOpen: (errors & 0x4) !== 0,
    cutterFault: (errors & 0x8) !== 0,
    headOverTemperature: (errors & 0x10) !== 0,
    motorOverTemperature: (errors & 0x20) !== 0,
    badHeadElement: (errors & 0x40) !== 0,
    headDetectionError: (errors & 0x80) !== 0,
  };
}

/**
 * Station state from the frames of a combined `~HQES~HS` answer: the `~HS`
 * strings decide as in {@link hostStatusToPrinterStatus}; a `~HQES` frame,
 * when the printer sent one, adds what `~HS` does not say (cutter fault,
 * motor too hot, bad head element) and confirms head open / media out.
 * @throws Error when the frames hold no complete `~HS` answer
 */
export function statusFromFrames(frames: readonly string[]): PrinterStatus {
  const es = frames.map(parseExtendedStatus).find((x) => x !== undefined);
  const hsFrames = frames.filter((f) => parseExtendedStatus(f) === undefined);
  const hs = parseHostStatus(hsFrames);
  if (es) {
    hs.paperOut ||= es.mediaOut;
    hs.headUp ||= es.headOpen;
    if (es.ribbonOut) hs.ribbonOut = hs.thermalTransfer = true;
  }
  const base = hostStatusToPrinterStatus(hs);
  const extra: string[] = [];
  if (es?.cutterFault) extra.push('Cutter fault');
  if (es?.motorOverTemperature) extra.push('Motor too hot');
  if (es?.badHeadElement) extra.push('Bad printhead element');
  if (es?.headDetectionError) extra.push('Printhead not detected');
  if (!extra.length) return base;
  return { ...base, state: base.state === 'ready' || base.state === 'paused' ? 'error' : base.state, detail: `${extra.join('; ')}; ${base.detail}` };
}

/**
 * What the station sends to ask for status: `~HQES` then `~HS`. Both are
 * immediate (tilde) commands, answered in order even while a format waits.
 */
export const STATUS_QUERY = `${EXTENDED_STATUS_COMMAND}${HOST_STATUS_COMMAND}`;

/** True once `frames` hold the three `~HS` strings (a `~HQES` frame, if any, comes first and is not counted). */
export function isStatusComplete(frames: readonly string[]): boolean {
  return frames.filter((f) => parseExtendedStatus(f) === undefined).length >= 3;
}
